import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { snippet } from '../../../shared/src/snippets.ts';
import { buildGroup, buildProject, buildUser, expectShape, expectStatus, request as api, startTestServer, userWithRole, type TestServer } from '../../test/harness.ts';
import { expectPlatformSchema } from '../../test/platform-schemas.ts';

let server: TestServer;
let group: { id: number };
/** A public project (snippets of every visibility) and a private one. */
let pub: { id: number; path_with_namespace: string };
let priv: { id: number };
let reporter: Awaited<ReturnType<typeof userWithRole>>;
let otherReporter: Awaited<ReturnType<typeof userWithRole>>;
let maintainer: Awaited<ReturnType<typeof userWithRole>>;
let guest: Awaited<ReturnType<typeof userWithRole>>;
let outsider: Awaited<ReturnType<typeof buildUser>>;
let external: Awaited<ReturnType<typeof buildUser>>;
const ids = {} as Record<'private' | 'internal' | 'public', number>;

before(async () => {
  server = await startTestServer();
  group = await buildGroup({ visibility: 'public' });
  pub = await buildProject(group.id, { visibility: 'public' });
  priv = await buildProject(group.id, { visibility: 'private' });
  [reporter, otherReporter, maintainer, guest] = await Promise.all([20, 20, 40, 10].map((level) => userWithRole(group.id, level)));
  outsider = await buildUser();
  external = await buildUser({ external: true });
});
after(() => server.close());

const at = (p: { id: number }, rest = '') => `/projects/${p.id}/snippets${rest}`;
/**
 * The platform's schema of a snippet list item, but for two known differences: `imported` and
 * `imported_from` are newer than the stored schema (the spec lists them), and its users always
 * have an avatar URL (a Gravatar) where Gatehouse, which has no avatars of users, says null.
 */
const platformShape = (s: { author: Record<string, unknown> } & Record<string, unknown>) => {
  const { imported: _i, imported_from: _f, ...rest } = s;
  assert.equal(s.author.avatar_url, null);
  expectPlatformSchema('public_api/v4/snippets.json', [{ ...rest, author: { ...s.author, avatar_url: 'https://avatar.invalid/none.png' } }]);
};

describe('POST /projects/:id/snippets', () => {
  it('as a Reporter: creates a snippet of several files, private by default', async () => {
    const res = await api(at(pub), { method: 'POST', token: reporter.token, json: { title: 'Setup', description: 'How to start', files: [{ file_path: 'b/run.sh', content: 'echo run' }, { file_path: 'a.md', content: '# Start' }] } });
    expectStatus(res, 201);
    const s = expectShape(snippet, res.body);
    assert.equal(s.visibility, 'private');
    assert.equal(s.author?.id, reporter.user.id);
    assert.equal(s.project_id, pub.id);
    assert.deepEqual(s.files.map((f) => f.path), ['a.md', 'b/run.sh']);
    assert.equal(s.file_name, 'a.md');
    assert.match(s.web_url, new RegExp(`/${pub.path_with_namespace}/-/snippets/${s.id}$`));
    assert.equal(s.raw_url, `${s.web_url}/raw`);
    platformShape(res.body);
    ids.private = s.id;
  });

  it('takes the deprecated content and file_name', async () => {
    for (const visibility of ['internal', 'public'] as const) {
      const res = await api(at(pub), { method: 'POST', token: reporter.token, form: { title: `Old ${visibility}`, content: 'hello', file_name: 'hello.txt', visibility } });
      expectStatus(res, 201);
      const s = expectShape(snippet, res.body);
      assert.deepEqual([s.file_name, s.visibility], ['hello.txt', visibility]);
      ids[visibility] = s.id;
    }
  });

  it('with invalid parameters: 400 and nothing created', async () => {
    const before = (await api(at(pub), { token: maintainer.token })).body.length;
    const cases: [unknown, unknown][] = [
      [{ files: [{ file_path: 'a', content: 'x' }] }, { message: 'title is missing' }],
      [{ title: 't' }, { message: 'content, files are missing, exactly one parameter must be provided' }],
      [{ title: 't', content: 'x', file_name: 'a', files: [{ file_path: 'a', content: 'x' }] }, { message: 'content, files are mutually exclusive' }],
      [{ title: 't', content: 'x' }, { message: 'file_name is missing' }],
      [{ title: 't', files: [{ file_path: '../etc/passwd', content: 'x' }] }, { message: { files: { '0': { file_path: ['is invalid'] } } } }],
      [{ title: 't', files: [{ file_path: 'a', content: 'x' }, { file_path: 'a', content: 'y' }] }, { message: { files: ['must have unique file paths'] } }],
      [{ title: 't', visibility: 'secret', files: [{ file_path: 'a', content: 'x' }] }, { message: { visibility: ['does not have a valid value'] } }],
    ];
    for (const [json, body] of cases) {
      const res = await api(at(pub), { method: 'POST', token: reporter.token, json });
      expectStatus(res, 400);
      assert.deepEqual(res.body, body, JSON.stringify(json));
    }
    assert.equal((await api(at(pub), { token: maintainer.token })).body.length, before);
  });

  it('as a Guest: 403; anonymous: 401', async () => {
    const json = { title: 't', files: [{ file_path: 'a', content: 'x' }] };
    expectStatus(await api(at(pub), { method: 'POST', token: guest.token, json }), 403);
    expectStatus(await api(at(pub), { method: 'POST', token: null, json }), 401);
  });
});

describe('GET /projects/:id/snippets and /:snippet_id', () => {
  const listed = async (token: string | null) => {
    const res = await api(at(pub), { token });
    expectStatus(res, 200);
    return expectShape(z.array(snippet), res.body).map((s) => s.id);
  };

  it('members see every snippet, newest first; others by visibility', async () => {
    assert.deepEqual(await listed(guest.token), [ids.public, ids.internal, ids.private]);
    assert.deepEqual(await listed(outsider.token), [ids.public, ids.internal]);
    assert.deepEqual(await listed(external.token), [ids.public]);
    assert.deepEqual(await listed(null), [ids.public]);
  });

  it('a snippet the caller may not see is 404, like a missing one', async () => {
    expectStatus(await api(at(pub, `/${ids.private}`), { token: outsider.token }), 404);
    expectStatus(await api(at(pub, `/${ids.internal}`), { token: null }), 404);
    const missing = await api(at(pub, '/987654321'), { token: maintainer.token });
    expectStatus(missing, 404);
    assert.deepEqual(missing.body, { message: '404 Snippet Not Found' });
    const ok = await api(at(pub, `/${ids.public}`), { token: null });
    expectStatus(ok, 200);
    assert.equal(expectShape(snippet, ok.body).title, 'Old public');
  });

  it('a private project’s snippets, even public ones, are for its members', async () => {
    const res = await api(at(priv), { method: 'POST', token: reporter.token, json: { title: 'p', visibility: 'public', files: [{ file_path: 'a', content: 'x' }] } });
    expectStatus(res, 201);
    expectStatus(await api(at(priv, `/${res.body.id}`), { token: outsider.token }), 404);
    expectStatus(await api(at(priv), { token: null }), 404);
  });
});

describe('GET /projects/:id/snippets/:snippet_id/raw and files/:ref/:file_path/raw', () => {
  it('answers the first file (deprecated whole) and each file as plain text', async () => {
    const whole = await api(at(pub, `/${ids.private}/raw`), { token: guest.token });
    expectStatus(whole, 200);
    assert.match(whole.headers.get('content-type') ?? '', /^text\/plain/);
    assert.equal(whole.text, '# Start');
    const file = await api(at(pub, `/${ids.private}/files/main/${encodeURIComponent('b/run.sh')}/raw`), { token: guest.token });
    expectStatus(file, 200);
    assert.equal(file.text, 'echo run');
    expectStatus(await api(at(pub, `/${ids.private}/files/main/nope.txt/raw`), { token: guest.token }), 404);
    expectStatus(await api(at(pub, `/${ids.private}/raw`), { token: outsider.token }), 404);
    const anonymous = await api(at(pub, `/${ids.public}/raw`), { token: null });
    assert.equal(anonymous.text, 'hello');
  });
});

describe('PUT /projects/:id/snippets/:snippet_id', () => {
  it('as the author: files actions create, update, move and delete, in order', async () => {
    const res = await api(at(pub, `/${ids.private}`), {
      method: 'PUT',
      token: reporter.token,
      json: {
        title: 'Setup v2',
        files: [
          { action: 'create', file_path: 'c.txt', content: 'new' },
          { action: 'update', file_path: 'a.md', content: '# Started' },
          { action: 'move', previous_path: 'b/run.sh', file_path: 'bin/run.sh' },
          { action: 'delete', file_path: 'c.txt' },
        ],
      },
    });
    expectStatus(res, 200);
    const s = expectShape(snippet, res.body);
    assert.equal(s.title, 'Setup v2');
    assert.deepEqual(s.files.map((f) => f.path), ['a.md', 'bin/run.sh']);
    const moved = await api(at(pub, `/${ids.private}/files/main/${encodeURIComponent('bin/run.sh')}/raw`), { token: reporter.token });
    assert.equal(moved.text, 'echo run');
    assert.equal((await api(at(pub, `/${ids.private}/raw`), { token: reporter.token })).text, '# Started');
  });

  it('a failing action changes nothing', async () => {
    const res = await api(at(pub, `/${ids.private}`), { method: 'PUT', token: reporter.token, json: { title: 'lost', files: [{ action: 'delete', file_path: 'a.md' }, { action: 'update', file_path: 'zzz', content: 'x' }] } });
    expectStatus(res, 400);
    assert.deepEqual(res.body, { message: "A file with this name doesn't exist: zzz" });
    const now = expectShape(snippet, (await api(at(pub, `/${ids.private}`), { token: reporter.token })).body);
    assert.deepEqual([now.title, now.files.length], ['Setup v2', 2]);
  });

  it('the deprecated content form: only for a snippet of one file', async () => {
    const multi = await api(at(pub, `/${ids.private}`), { method: 'PUT', token: reporter.token, json: { content: 'x' } });
    expectStatus(multi, 400);
    assert.deepEqual(multi.body, { message: 'To update Snippets with multiple files, you must use the `files` parameter' });
    const one = await api(at(pub, `/${ids.public}`), { method: 'PUT', token: maintainer.token, form: { content: 'hi there', file_name: 'hi.txt' } });
    expectStatus(one, 200);
    assert.equal(expectShape(snippet, one.body).file_name, 'hi.txt');
    assert.equal((await api(at(pub, `/${ids.public}/raw`), { token: null })).text, 'hi there');
  });

  it('without parameters: 400; another Reporter: 403; a Maintainer may', async () => {
    const empty = await api(at(pub, `/${ids.internal}`), { method: 'PUT', token: reporter.token, json: {} });
    expectStatus(empty, 400);
    assert.deepEqual(empty.body, { message: 'content, description, files, file_name, title, visibility are missing, at least one parameter must be provided' });
    expectStatus(await api(at(pub, `/${ids.internal}`), { method: 'PUT', token: otherReporter.token, json: { title: 'mine' } }), 403);
    const res = await api(at(pub, `/${ids.internal}`), { method: 'PUT', token: maintainer.token, json: { visibility: 'private' } });
    expectStatus(res, 200);
    assert.equal(res.body.visibility, 'private');
    expectStatus(await api(at(pub, `/${ids.internal}`), { token: outsider.token }), 404);
  });
});

describe('DELETE /projects/:id/snippets/:snippet_id', () => {
  it('another Reporter: 403; the author: 204, then 404', async () => {
    expectStatus(await api(at(pub, `/${ids.internal}`), { method: 'DELETE', token: otherReporter.token }), 403);
    expectStatus(await api(at(pub, `/${ids.internal}`), { method: 'DELETE', token: reporter.token }), 204);
    expectStatus(await api(at(pub, `/${ids.internal}`), { token: reporter.token }), 404);
    expectStatus(await api(at(pub, `/${ids.internal}`), { method: 'DELETE', token: reporter.token }), 404);
  });
});
