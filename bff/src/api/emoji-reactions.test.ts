import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { awardEmoji } from '../../../shared/src/emoji-reactions.ts';
import { buildGroup, buildProject, buildUser, expectShape, expectStatus, request as api, startTestServer, userWithRole, type TestServer } from '../../test/harness.ts';
import { startReceiver, type Receiver } from '../../test/receiver.ts';

let server: TestServer;
let receiver: Receiver;
let project: { id: number };
let privateProject: { id: number };
let reporter: Awaited<ReturnType<typeof userWithRole>>;
let developer: Awaited<ReturnType<typeof userWithRole>>;
let outsider: Awaited<ReturnType<typeof buildUser>>;
let admin: Awaited<ReturnType<typeof buildUser>>;
/** Awardable paths under /projects/:id, by kind: a public and a private snippet. */
const paths = {} as Record<'publicSnippet' | 'privateSnippet' | 'otherProjectSnippet', string>;

before(async () => {
  server = await startTestServer();
  receiver = await startReceiver();
  await api('/application/settings', { method: 'PUT', json: { allow_local_requests_from_web_hooks_and_services: true } });
  const group = await buildGroup({ visibility: 'public' });
  project = await buildProject(group.id, { visibility: 'public' });
  privateProject = await buildProject(group.id, { visibility: 'private' });
  [reporter, developer] = await Promise.all([20, 30].map((level) => userWithRole(group.id, level)));
  outsider = await buildUser();
  admin = await buildUser({ admin: true });
  const make = async (p: { id: number }, visibility: string) => {
    const res = await api(`/projects/${p.id}/snippets`, { method: 'POST', token: reporter.token, json: { title: visibility, visibility, files: [{ file_path: 'a.txt', content: 'a' }] } });
    expectStatus(res, 201);
    return `/projects/${p.id}/snippets/${res.body.id}/award_emoji`;
  };
  paths.publicSnippet = await make(project, 'public');
  paths.privateSnippet = await make(project, 'private');
  paths.otherProjectSnippet = await make(privateProject, 'private');
  const hook = await api(`/projects/${project.id}/hooks`, { method: 'POST', json: { url: `${receiver.url}/emoji`, emoji_events: true, push_events: false } });
  expectStatus(hook, 201);
});
after(async () => {
  await receiver.close();
  await server.close();
});

/** The first delivery whose payload matches, polled for (deliveries are jobs). */
async function delivered(match: (payload: any) => boolean): Promise<any> {
  for (let i = 0; i < 400; i++) {
    const found = receiver.requests.find((r) => r.json && match(r.json));
    if (found) return found.json;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`no matching delivery arrived: ${JSON.stringify(receiver.requests.map((r) => [r.json?.object_kind, r.json?.object_attributes?.awardable_type, r.json?.event_type]))}`);
}

describe('POST /projects/:id/snippets/:snippet_id/award_emoji', () => {
  it('as a signed-in user who can read it: awards the emoji, aliases stored by their platform name', async () => {
    const res = await api(paths.publicSnippet, { method: 'POST', token: outsider.token, json: { name: '+1' } });
    expectStatus(res, 201);
    const a = expectShape(awardEmoji, res.body);
    assert.equal(a.name, 'thumbsup');
    assert.equal(a.awardable_type, 'Snippet');
    assert.equal(a.user.id, outsider.user.id);
    const other = await api(paths.publicSnippet, { method: 'POST', token: developer.token, form: { name: 'tada' } });
    expectStatus(other, 201);
    assert.equal(other.body.name, 'tada');
  });

  it('fires an emoji event with the platform payload', async () => {
    const [delivery] = (await receiver.waitFor(1, 20_000)).filter((r) => r.url === '/emoji');
    assert.equal(delivery.headers['x-service-event'], 'Emoji Hook');
    const p = delivery.json;
    assert.equal(p.object_kind, 'emoji');
    assert.equal(p.event_type, 'award');
    assert.equal(p.project_id, project.id);
    assert.equal(p.object_attributes.awardable_type, 'Snippet');
    assert.ok(['thumbsup', 'tada'].includes(p.object_attributes.name));
    assert.equal(p.snippet.type, 'ProjectSnippet');
    assert.match(p.object_attributes.awarded_on_url, /\/-\/snippets\/\d+$/);
  });

  it('an unknown name or the same reaction twice: the platform’s 404, nothing added', async () => {
    const unknown = await api(paths.publicSnippet, { method: 'POST', token: outsider.token, json: { name: 'not_an_emoji_at_all' } });
    expectStatus(unknown, 404);
    assert.deepEqual(unknown.body, { message: '404 Award Emoji Name is not a valid emoji name Not Found' });
    const twice = await api(paths.publicSnippet, { method: 'POST', token: outsider.token, json: { name: 'thumbsup' } });
    expectStatus(twice, 404);
    assert.deepEqual(twice.body, { message: '404 Award Emoji Name has already been taken Not Found' });
    const missing = await api(paths.publicSnippet, { method: 'POST', token: outsider.token, json: {} });
    expectStatus(missing, 400);
    assert.deepEqual(missing.body, { message: 'name is missing' });
    assert.equal((await api(paths.publicSnippet, { token: null })).body.length, 2);
  });

  it('on a snippet the caller may not see: 404; anonymous: 401', async () => {
    expectStatus(await api(paths.privateSnippet, { method: 'POST', token: outsider.token, json: { name: 'smile' } }), 404);
    expectStatus(await api(paths.otherProjectSnippet, { method: 'POST', token: outsider.token, json: { name: 'smile' } }), 404);
    expectStatus(await api(paths.publicSnippet, { method: 'POST', token: null, json: { name: 'smile' } }), 401);
  });
});

describe('GET /projects/:id/snippets/:snippet_id/award_emoji[/:award_id]', () => {
  it('reads a public snippet’s reactions without authentication, oldest first', async () => {
    const res = await api(paths.publicSnippet, { token: null });
    expectStatus(res, 200);
    assert.deepEqual(expectShape(z.array(awardEmoji), res.body).map((a) => a.name), ['thumbsup', 'tada']);
    assert.equal(res.headers.get('x-total'), '2');
    const one = await api(`${paths.publicSnippet}/${res.body[1].id}`, { token: null });
    expectStatus(one, 200);
    assert.equal(expectShape(awardEmoji, one.body).user.id, developer.user.id);
  });

  it('a private snippet’s reactions are for who may read it; an award of another awardable is 404', async () => {
    expectStatus(await api(paths.privateSnippet, { token: null }), 404);
    expectStatus(await api(paths.privateSnippet, { token: outsider.token }), 404);
    const mine = await api(paths.privateSnippet, { method: 'POST', token: reporter.token, json: { name: 'eyes' } });
    expectStatus(mine, 201);
    expectStatus(await api(paths.privateSnippet, { token: developer.token }), 200);
    const elsewhere = await api(`${paths.publicSnippet}/${mine.body.id}`, { token: reporter.token });
    expectStatus(elsewhere, 404);
    const missing = await api(`${paths.publicSnippet}/987654321`, { token: reporter.token });
    expectStatus(missing, 404);
    assert.deepEqual(missing.body, { message: '404 Not found' });
  });
});

describe('DELETE /projects/:id/snippets/:snippet_id/award_emoji/:award_id', () => {
  it('only its author or an administrator: others get 401', async () => {
    const list = (await api(paths.publicSnippet, { token: null })).body as { id: number; name: string }[];
    const thumbs = list.find((a) => a.name === 'thumbsup')!;
    const tada = list.find((a) => a.name === 'tada')!;
    expectStatus(await api(`${paths.publicSnippet}/${thumbs.id}`, { method: 'DELETE', token: developer.token }), 401);
    expectStatus(await api(`${paths.publicSnippet}/${thumbs.id}`, { method: 'DELETE', token: outsider.token }), 204);
    expectStatus(await api(`${paths.publicSnippet}/${tada.id}`, { method: 'DELETE', token: admin.token }), 204);
    expectStatus(await api(`${paths.publicSnippet}/${tada.id}`, { method: 'DELETE', token: admin.token }), 404);
    assert.deepEqual((await api(paths.publicSnippet, { token: null })).body, []);
    // Three awards came before (thumbsup and tada here, eyes on the private snippet): wait for both revokes.
    const revoked = (await receiver.waitFor(5, 20_000)).filter((r) => r.json?.event_type === 'revoke');
    assert.equal(revoked.length, 2);
  });
});

describe('reactions on issues and their notes', () => {
  it('awards, lists and removes on an issue and on a comment of it; anonymous reads of a public project', async () => {
    const issue = await api(`/projects/${project.id}/issues`, { method: 'POST', token: reporter.token, json: { title: 'React to me' } });
    expectStatus(issue, 201);
    const base = `/projects/${project.id}/issues/${issue.body.iid}`;
    const note = await api(`${base}/notes`, { method: 'POST', token: reporter.token, json: { body: 'A comment' } });
    expectStatus(note, 201);
    const onIssue = await api(`${base}/award_emoji`, { method: 'POST', token: outsider.token, json: { name: '-1' } });
    expectStatus(onIssue, 201);
    assert.deepEqual([onIssue.body.name, onIssue.body.awardable_type, onIssue.body.awardable_id], ['thumbsdown', 'Issue', issue.body.id]);
    const onNote = await api(`${base}/notes/${note.body.id}/award_emoji`, { method: 'POST', token: developer.token, json: { name: 'heart' } });
    expectStatus(onNote, 201);
    assert.deepEqual([onNote.body.awardable_type, onNote.body.awardable_id], ['Note', note.body.id]);
    const anonymous = await api(`${base}/notes/${note.body.id}/award_emoji`, { token: null });
    assert.deepEqual(expectShape(z.array(awardEmoji), anonymous.body).map((a) => a.name), ['heart']);
    expectStatus(await api(`${base}/notes/${note.body.id}/award_emoji/${onIssue.body.id}`, { token: null }), 404);
    expectStatus(await api(`/projects/${project.id}/issues/987654/award_emoji`, { token: null }), 404);
    expectStatus(await api(`${base}/notes/987654/award_emoji`, { token: null }), 404);
    expectStatus(await api(`${base}/award_emoji/${onIssue.body.id}`, { method: 'DELETE', token: reporter.token }), 401);
    expectStatus(await api(`${base}/award_emoji/${onIssue.body.id}`, { method: 'DELETE', token: outsider.token }), 204);
    const event = await delivered((p) => p.object_kind === 'emoji' && p.object_attributes.awardable_type === 'Note');
    assert.equal(event.note.id, note.body.id);
    assert.equal(event.issue.iid, issue.body.iid);
  });

  it('a confidential issue’s reactions are hidden from who may not see it', async () => {
    const issue = await api(`/projects/${project.id}/issues`, { method: 'POST', token: reporter.token, json: { title: 'Secret', confidential: true } });
    expectStatus(issue, 201);
    const path = `/projects/${project.id}/issues/${issue.body.iid}/award_emoji`;
    expectStatus(await api(path, { method: 'POST', token: outsider.token, json: { name: 'eyes' } }), 404);
    expectStatus(await api(path, { token: null }), 404);
    expectStatus(await api(path, { method: 'POST', token: reporter.token, json: { name: 'eyes' } }), 201);
  });
});

describe('upvotes and downvotes of issues and merge requests', () => {
  it('count the thumbsup and thumbsdown reactions, on the record and in lists', async () => {
    const issue = await api(`/projects/${project.id}/issues`, { method: 'POST', token: reporter.token, json: { title: 'Votes' } });
    expectStatus(issue, 201);
    assert.deepEqual([issue.body.upvotes, issue.body.downvotes], [0, 0]);
    const commit = (branch: string, file: string, start?: string) =>
      api(`/projects/${project.id}/repository/commits`, { method: 'POST', json: { branch, ...(start ? { start_branch: start } : {}), commit_message: `Add ${file}`, actions: [{ action: 'create', file_path: file, content: 'x\n' }] } });
    expectStatus(await commit('main', 'README.md'), 201);
    expectStatus(await commit('votes', 'votes.txt', 'main'), 201);
    const mr = await api(`/projects/${project.id}/merge_requests`, { method: 'POST', json: { source_branch: 'votes', target_branch: 'main', title: 'Votes' } });
    expectStatus(mr, 201);
    for (const [path, votes] of [
      [`/projects/${project.id}/issues/${issue.body.iid}`, [[reporter, 'thumbsup'], [developer, '+1'], [outsider, 'thumbsdown'], [admin, 'tada']]],
      [`/projects/${project.id}/merge_requests/${mr.body.iid}`, [[developer, 'thumbsdown'], [outsider, '-1']]],
    ] as const) {
      for (const [who, name] of votes) expectStatus(await api(`${path}/award_emoji`, { method: 'POST', token: who.token, json: { name } }), 201);
    }
    const one = await api(`/projects/${project.id}/issues/${issue.body.iid}`);
    assert.deepEqual([one.body.upvotes, one.body.downvotes], [2, 1]);
    const listed = (await api(`/projects/${project.id}/issues?iids[]=${issue.body.iid}`)).body[0];
    assert.deepEqual([listed.upvotes, listed.downvotes], [2, 1]);
    const m = await api(`/projects/${project.id}/merge_requests/${mr.body.iid}`);
    assert.deepEqual([m.body.upvotes, m.body.downvotes], [0, 2]);
  });
});

describe('comments on snippets, and reactions to them', () => {
  it('a reader comments on a snippet; reactions to the comment are listed, fire an emoji event, and go with the snippet', async () => {
    const snippetPath = paths.publicSnippet.replace(/\/award_emoji$/, '');
    const note = await api(`${snippetPath}/notes`, { method: 'POST', token: developer.token, json: { body: 'Looks right' } });
    expectStatus(note, 201);
    assert.equal(note.body.noteable_type, 'Snippet');
    assert.equal(note.body.noteable_iid, null);
    const listed = await api(`${snippetPath}/notes`, { token: null });
    expectStatus(listed, 200);
    assert.deepEqual(listed.body.map((n: { body: string }) => n.body), ['Looks right']);

    const awards = `${snippetPath}/notes/${note.body.id}/award_emoji`;
    const award = await api(awards, { method: 'POST', token: outsider.token, json: { name: 'rocket' } });
    expectStatus(award, 201);
    assert.equal(expectShape(awardEmoji, award.body).awardable_type, 'Note');
    const event = await delivered((p) => p.object_attributes?.awardable_type === 'Note' && p.object_attributes?.name === 'rocket');
    assert.equal(event.note.noteable_type, 'Snippet');
    assert.match(event.note.url, new RegExp(`/-/snippets/\\d+#note_${note.body.id}$`));
    assert.equal(event.snippet.id, note.body.noteable_id);
    assert.deepEqual((await api(awards, { token: null })).body.map((a: { name: string }) => a.name), ['rocket']);
    // On a snippet the caller may not read, its comments are not found either.
    expectStatus(await api(`${paths.privateSnippet.replace(/\/award_emoji$/, '')}/notes`, { token: outsider.token }), 404);

    expectStatus(await api(snippetPath, { method: 'DELETE', token: reporter.token }), 204);
    const left = await server.running.db.selectFrom('award_emoji').select('id').where('awardable_type', '=', 'Note').where('awardable_id', '=', note.body.id).execute();
    assert.deepEqual(left, []);
    const notesLeft = await server.running.db.selectFrom('notes').select('id').where('id', '=', note.body.id).execute();
    assert.deepEqual(notesLeft, []);
  });
});
