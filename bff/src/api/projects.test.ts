import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { projectSummary } from '../../../shared/src/projects.ts';
import {
  addMember,
  buildGroup,
  buildProject,
  buildUser,
  expectShape,
  expectStatus,
  request as api,
  startTestServer,
  userWithRole,
  type ApiResponse,
  type TestServer,
} from '../../test/harness.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

type BuiltUser = Awaited<ReturnType<typeof buildUser>>;
type Group = Awaited<ReturnType<typeof buildGroup>>;
type Project = Awaited<ReturnType<typeof buildProject>>;

const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const PROJECT_KEYS = Object.keys(projectSummary.shape).sort();
const NOT_FOUND = { message: '404 Project Not Found' };
const ids = (body: { id: number }[]) => body.map((p) => p.id);
const unique = (prefix: string) => `${prefix}${crypto.randomBytes(4).toString('hex')}`;

/** A project body: our shared schema and exactly its fields. */
function expectProject(body: Record<string, unknown>) {
  const p = expectShape(projectSummary, body);
  assert.deepEqual(Object.keys(body).sort(), PROJECT_KEYS);
  assert.match(p.created_at, ISO_DATETIME);
  assert.match(p.last_activity_at, ISO_DATETIME);
  return p;
}

/** Every project the administrator can see: nothing may appear after a refused create. */
const projectTotal = async () => Number((await api('/projects')).headers.get('x-total'));

function links(res: ApiResponse): Record<string, URL> {
  const out: Record<string, URL> = {};
  for (const part of (res.headers.get('link') ?? '').split(',')) {
    const m = /<([^>]+)>;\s*rel="(\w+)"/.exec(part);
    if (m) out[m[2]] = new URL(m[1]);
  }
  return out;
}

describe('POST /projects', () => {
  let group: Group;
  let owner: BuiltUser, maintainer: BuiltUser, reporter: BuiltUser, stranger: BuiltUser;
  before(async () => {
    group = await buildGroup({ visibility: 'internal' });
    owner = await userWithRole(group.id, 50);
    maintainer = await userWithRole(group.id, 40);
    reporter = await userWithRole(group.id, 20);
    stranger = await buildUser();
  });
  const create = (json: unknown, token?: string | null) => api('/projects', { method: 'POST', json, token });
  const setCreationLevel = async (g: { id: number }, level: string) =>
    expectStatus(await api(`/groups/${g.id}`, { method: 'PUT', json: { project_creation_level: level } }), 200);

  describe('as a Maintainer', () => {
    it('creates a project in the group and returns it', async () => {
      const name = unique('Web App ');
      const res = await create({ name, namespace_id: group.id, description: 'The shop front', visibility: 'internal', topics: ['web', 'shop'] }, maintainer.token);
      expectStatus(res, 201);
      const p = expectProject(res.body);
      const path = name.toLowerCase().replace(/ /g, '-');
      assert.equal(p.name, name);
      assert.equal(p.path, path);
      assert.equal(p.path_with_namespace, `${group.full_path}/${path}`);
      assert.equal(p.name_with_namespace, `${group.name} / ${name}`);
      assert.equal(p.description, 'The shop front');
      assert.equal(p.visibility, 'internal');
      assert.deepEqual(p.topics, ['web', 'shop']);
      assert.equal(p.creator_id, maintainer.user.id);
      assert.equal(p.archived, false);
      assert.deepEqual(
        { id: p.namespace.id, kind: p.namespace.kind, full_path: p.namespace.full_path, parent_id: p.namespace.parent_id },
        { id: group.id, kind: 'group', full_path: group.full_path, parent_id: null },
      );
      assert.equal(p.web_url, `${server.url}/${group.full_path}/${path}`);
      assert.equal(p.http_url_to_repo, `${server.url}/${group.full_path}/${path}.git`);
      assert.equal(p.ssh_url_to_repo, `git@${new URL(server.url).hostname}:${group.full_path}/${path}.git`);

      const read = await api(`/projects/${p.id}`, { token: maintainer.token });
      expectStatus(read, 200);
      assert.deepEqual(read.body, res.body);
    });
    it('defaults to private, with the path when no name is given', async () => {
      const path = unique('just-a-path-');
      const res = await create({ path, namespace_id: group.id }, maintainer.token);
      expectStatus(res, 201);
      assert.equal(res.body.visibility, 'private');
      assert.equal(res.body.name, path);
      assert.equal(res.body.path, path);
    });
    it('accepts form fields', async () => {
      const name = unique('form');
      const res = await api('/projects', { method: 'POST', token: maintainer.token, form: { name, namespace_id: String(group.id), issues_enabled: 'false' } });
      expectStatus(res, 201);
      assert.equal(res.body.name, name);
      assert.equal(res.body.issues_enabled, false);
    });
    it('accepts namespace_id as a string, and a project in a subgroup with an inherited role', async () => {
      const sub = await buildGroup({ parent_id: group.id, visibility: 'internal' });
      const res = await create({ name: unique('nested'), namespace_id: String(sub.id) }, maintainer.token);
      expectStatus(res, 201);
      assert.equal(res.body.namespace.id, sub.id);
      assert.equal(res.body.namespace.parent_id, group.id);
    });
  });

  describe('who may create, by project_creation_level', () => {
    it('lets Developers create by default (developer), not Reporters', async () => {
      const g = await buildGroup();
      const d = await userWithRole(g.id, 30);
      const r = await userWithRole(g.id, 20);
      expectStatus(await create({ name: unique('dev'), namespace_id: g.id }, d.token), 201);
      const before = await projectTotal();
      const res = await create({ name: unique('rep'), namespace_id: g.id }, r.token);
      expectStatus(res, 403);
      assert.match(res.body.message, /^403 Forbidden/);
      assert.equal(await projectTotal(), before);
    });
    it('maintainer: Maintainers and Owners, not Developers', async () => {
      const g = await buildGroup();
      await setCreationLevel(g, 'maintainer');
      const d = await userWithRole(g.id, 30);
      const m = await userWithRole(g.id, 40);
      const o = await userWithRole(g.id, 50);
      expectStatus(await create({ name: unique('dev'), namespace_id: g.id }, d.token), 403);
      expectStatus(await create({ name: unique('mnt'), namespace_id: g.id }, m.token), 201);
      expectStatus(await create({ name: unique('own'), namespace_id: g.id }, o.token), 201);
    });
    it('owner: Owners only', async () => {
      const g = await buildGroup();
      await setCreationLevel(g, 'owner');
      const m = await userWithRole(g.id, 40);
      const o = await userWithRole(g.id, 50);
      expectStatus(await create({ name: unique('mnt'), namespace_id: g.id }, m.token), 403);
      expectStatus(await create({ name: unique('own'), namespace_id: g.id }, o.token), 201);
    });
    it('noone: nobody but an administrator', async () => {
      const g = await buildGroup();
      await setCreationLevel(g, 'noone');
      const o = await userWithRole(g.id, 50);
      const before = await projectTotal();
      expectStatus(await create({ name: unique('own'), namespace_id: g.id }, o.token), 403);
      assert.equal(await projectTotal(), before);
      expectStatus(await create({ name: unique('adm'), namespace_id: g.id }), 201);
    });
  });

  describe('without the role', () => {
    it('answers 403 to a Reporter, and creates nothing', async () => {
      const name = unique('reporter');
      const before = await projectTotal();
      const res = await create({ name, namespace_id: group.id }, reporter.token);
      expectStatus(res, 403);
      assert.equal(await projectTotal(), before);
    });
    it('answers 403 to a signed-in non-member of a group they can see', async () => {
      const before = await projectTotal();
      const res = await create({ name: unique('stranger'), namespace_id: group.id }, stranger.token);
      expectStatus(res, 403);
      assert.equal(await projectTotal(), before);
    });
    it('answers 400 namespace_id does not exist for a private group the caller cannot see', async () => {
      const hidden = await buildGroup({ visibility: 'private' });
      const res = await create({ name: unique('x'), namespace_id: hidden.id }, stranger.token);
      expectStatus(res, 400);
      assert.deepEqual(res.body, { message: { namespace_id: ['does not exist'] } });
    });
    it('answers 401 without authentication', async () => {
      const before = await projectTotal();
      const res = await create({ name: unique('anon'), namespace_id: group.id }, null);
      expectStatus(res, 401);
      assert.deepEqual(res.body, { message: '401 Unauthorized' });
      assert.equal(await projectTotal(), before);
    });
    it('answers 403 insufficient_scope to an Owner’s read_api token', async () => {
      const reader = await userWithRole(group.id, 50, ['read_api']);
      const res = await create({ name: unique('ro'), namespace_id: group.id }, reader.token);
      expectStatus(res, 403);
      assert.equal(res.body.error, 'insufficient_scope');
    });
  });

  describe('with invalid parameters', () => {
    it('answers 400 namespace_id is missing', async () => {
      const res = await create({ name: unique('nons') }, owner.token);
      expectStatus(res, 400);
      assert.deepEqual(res.body, { message: 'namespace_id is missing' });
    });
    it('answers 400 when neither name nor path is given', async () => {
      const res = await create({ namespace_id: group.id }, owner.token);
      expectStatus(res, 400);
      assert.ok(res.body.message.name, JSON.stringify(res.body));
    });
    it('answers 400 naming namespace_id for an unknown namespace', async () => {
      const res = await create({ name: unique('x'), namespace_id: 999999 }, owner.token);
      expectStatus(res, 400);
      assert.deepEqual(res.body, { message: { namespace_id: ['does not exist'] } });
    });
    for (const [label, body, field] of [
      ['namespace_id "abc"', { namespace_id: 'abc' }, 'namespace_id'],
      ['namespace_id 0', { namespace_id: 0 }, 'namespace_id'],
      ['namespace_id 99999999999', { namespace_id: 99999999999 }, 'namespace_id'],
      ['an oversize name', { name: 'n'.repeat(256) }, 'name'],
      ['a blank name', { name: '   ' }, 'name'],
      ['a path with a slash', { path: 'a/b' }, 'path'],
      ['a path starting with "-"', { path: '-x' }, 'path'],
      ['an oversize description', { description: 'd'.repeat(2001) }, 'description'],
      ['visibility "secret"', { visibility: 'secret' }, 'visibility'],
      ['topics holding an object', { topics: [{ a: 1 }] }, 'topics'],
      ['a name with no letters or digits for a path', { name: '!!!' }, 'path'],
      ['a path ending in .git', { path: 'repo.git' }, 'path'],
      ['a name whose path would end in .atom', { name: unique('feed') + '.atom' }, 'path'],
      ['issues_enabled "perhaps"', { issues_enabled: 'perhaps' }, 'issues_enabled'],
    ] as const) {
      it(`answers 400 naming ${field} for ${label}, and creates nothing`, async () => {
        const before = await projectTotal();
        const res = await create({ name: unique('bad'), namespace_id: group.id, ...(body as Record<string, unknown>) }, owner.token);
        expectStatus(res, 400);
        assert.ok(res.body.message?.[field], JSON.stringify(res.body));
        assert.equal(await projectTotal(), before);
      });
    }
    it('refuses a project more visible than its group (400 visibility)', async () => {
      const before = await projectTotal();
      const res = await create({ name: unique('loud'), namespace_id: group.id, visibility: 'public' }, owner.token);
      expectStatus(res, 400);
      assert.ok(res.body.message.visibility);
      assert.equal(await projectTotal(), before);
    });
    it('refuses a path or a name already taken in the namespace, ignoring the path’s case', async () => {
      const first = await create({ name: unique('Taken '), namespace_id: group.id }, owner.token);
      expectStatus(first, 201);
      const before = await projectTotal();
      const samePath = await create({ name: unique('other'), path: first.body.path.toUpperCase(), namespace_id: group.id }, owner.token);
      expectStatus(samePath, 400);
      assert.deepEqual(samePath.body.message.path, ['has already been taken']);
      const sameName = await create({ name: first.body.name, path: unique('other-path'), namespace_id: group.id }, owner.token);
      expectStatus(sameName, 400);
      assert.deepEqual(sameName.body.message.name, ['has already been taken']);
      assert.equal(await projectTotal(), before);
      // The same path in another group is fine.
      const elsewhere = await buildGroup({ visibility: 'internal' });
      expectStatus(await create({ name: first.body.name, path: first.body.path, namespace_id: elsewhere.id }), 201);
    });
    it('refuses a path taken by a subgroup of the namespace', async () => {
      const sub = await buildGroup({ parent_id: group.id, visibility: 'internal' });
      const res = await create({ name: unique('clash'), path: sub.path, namespace_id: group.id }, owner.token);
      expectStatus(res, 400);
      assert.deepEqual(res.body.message.path, ['has already been taken']);
    });
  });
});

describe('GET /projects', () => {
  let pubGroup: Group, privGroup: Group, privSub: Group;
  let pub: Project, internal: Project, privInPub: Project, priv: Project, privNested: Project, otherPriv: Project;
  let member: BuiltUser, projectMember: BuiltUser, stranger: BuiltUser, external: BuiltUser;
  const tag = unique('vis');
  before(async () => {
    pubGroup = await buildGroup({ visibility: 'public', path: `${tag}-pub` });
    privGroup = await buildGroup({ visibility: 'private', path: `${tag}-priv` });
    privSub = await buildGroup({ visibility: 'private', parent_id: privGroup.id });
    pub = await buildProject(pubGroup.id, { visibility: 'public' });
    internal = await buildProject(pubGroup.id, { visibility: 'internal' });
    privInPub = await buildProject(pubGroup.id, { visibility: 'private' });
    priv = await buildProject(privGroup.id, { visibility: 'private' });
    privNested = await buildProject(privSub.id, { visibility: 'private' });
    otherPriv = await buildProject((await buildGroup()).id, { visibility: 'private' });
    member = await userWithRole(privGroup.id, 10);
    projectMember = await buildUser();
    await addMember('projects', privInPub.id, projectMember.user.id, 20);
    stranger = await buildUser();
    external = await buildUser({ external: true });
  });
  const ours = [() => pub, () => internal, () => privInPub, () => priv, () => privNested];
  /** The IDs of this suite's projects the caller can list. */
  const visible = async (token: string | null) => {
    const res = await api(`/projects?per_page=100&search=${tag}`, { token });
    expectStatus(res, 200);
    for (const p of res.body) expectProject(p);
    const mine = new Set(ours.map((p) => p().id));
    return ids(res.body).filter((id) => mine.has(id)).sort((a, b) => a - b);
  };
  const sorted = (...ps: Project[]) => ps.map((p) => p.id).sort((a, b) => a - b);

  describe('without authentication', () => {
    it('lists public projects only', async () => {
      assert.deepEqual(await visible(null), sorted(pub));
      const res = await api('/projects?per_page=100', { token: null });
      assert.ok(res.body.every((p: { visibility: string }) => p.visibility === 'public'));
    });
  });

  describe('as a signed-in user', () => {
    it('lists public and internal projects', async () => {
      assert.deepEqual(await visible(stranger.token), sorted(pub, internal));
    });
    it('adds the private projects of their groups and subgroups', async () => {
      assert.deepEqual(await visible(member.token), sorted(pub, internal, priv, privNested));
    });
    it('adds a private project they are a member of', async () => {
      assert.deepEqual(await visible(projectMember.token), sorted(pub, internal, privInPub));
    });
    it('shows an external user public projects only', async () => {
      assert.deepEqual(await visible(external.token), sorted(pub));
    });
    it('limits to their memberships with membership=true', async () => {
      const res = await api(`/projects?membership=true&per_page=100`, { token: member.token });
      expectStatus(res, 200);
      assert.deepEqual(ids(res.body).sort((a, b) => a - b), sorted(priv, privNested));
    });
  });

  describe('as an administrator', () => {
    it('lists every project', async () => {
      assert.deepEqual(await visible(server.rootToken), sorted(pub, internal, privInPub, priv, privNested));
      const elsewhere = encodeURIComponent(otherPriv.path_with_namespace);
      assert.deepEqual(ids((await api(`/projects?search=${elsewhere}`)).body), [otherPriv.id]);
      assert.deepEqual((await api(`/projects?search=${elsewhere}`, { token: member.token })).body, []);
    });
  });

  describe('filtering and ordering', () => {
    it('searches names and paths, ignoring case', async () => {
      const byPath = await api(`/projects?search=${encodeURIComponent(`${tag}-PRIV`)}&per_page=100`);
      assert.deepEqual(ids(byPath.body).sort((a, b) => a - b), sorted(priv, privNested));
      const byName = await api(`/projects?search=${encodeURIComponent(pub.path_with_namespace.split('/')[1].toUpperCase())}`);
      assert.deepEqual(ids(byName.body), [pub.id]);
      const wildcard = await api(`/projects?search=${encodeURIComponent('_%')}`);
      assert.deepEqual(wildcard.body, []);
    });
    it('filters by visibility', async () => {
      const res = await api(`/projects?search=${tag}&visibility=internal`);
      assert.deepEqual(ids(res.body), [internal.id]);
    });
    it('orders by created_at, newest first, by default; order_by=id&sort=asc reverses it', async () => {
      const byDefault = ids((await api(`/projects?search=${tag}&per_page=100`)).body);
      assert.deepEqual(byDefault, [...byDefault].sort((a, b) => b - a));
      const asc = ids((await api(`/projects?search=${tag}&order_by=id&sort=asc&per_page=100`)).body);
      assert.deepEqual(asc, [...byDefault].reverse());
    });
  });

  describe('pagination', () => {
    it('sets the offset headers and Link', async () => {
      const res = await api(`/projects?search=${tag}&per_page=2&page=2`);
      expectStatus(res, 200);
      assert.equal(res.body.length, 2);
      assert.equal(res.headers.get('x-total'), '5');
      assert.equal(res.headers.get('x-total-pages'), '3');
      assert.equal(res.headers.get('x-per-page'), '2');
      assert.equal(res.headers.get('x-page'), '2');
      assert.equal(res.headers.get('x-next-page'), '3');
      assert.equal(res.headers.get('x-prev-page'), '1');
      const l = links(res);
      assert.deepEqual(Object.keys(l).sort(), ['first', 'last', 'next', 'prev']);
      assert.equal(l.last.searchParams.get('page'), '3');
      assert.equal(l.next.searchParams.get('search'), tag);
    });
    it('caps per_page at 100', async () => {
      const res = await api('/projects?per_page=500');
      expectStatus(res, 200);
      assert.equal(res.headers.get('x-per-page'), '100');
    });
  });

  describe('with invalid parameters', () => {
    for (const [query, field] of [
      ['per_page=0', 'per_page'],
      ['page=0', 'page'],
      ['per_page=abc', 'per_page'],
      ['order_by=secret_column', 'order_by'],
      ['sort=up', 'sort'],
      ['visibility=secret', 'visibility'],
      ['min_access_level=3', 'min_access_level'],
      ['membership=perhaps', 'membership'],
      [`search=${'s'.repeat(256)}`, 'search'],
    ]) {
      it(`answers 400 naming ${field} for ${query.slice(0, 24)}`, async () => {
        const res = await api(`/projects?${query}`, { token: stranger.token });
        expectStatus(res, 400);
        assert.ok(res.body.message?.[field], JSON.stringify(res.body));
      });
    }
    it('answers 401 to an unknown token', async () => {
      const res = await api('/projects', { token: 'nope' });
      expectStatus(res, 401);
      assert.deepEqual(res.body, { message: '401 Unauthorized' });
    });
  });
});

describe('GET /projects/:id', () => {
  let group: Group, privGroup: Group;
  let pub: Project, internal: Project, priv: Project;
  let member: BuiltUser, stranger: BuiltUser;
  before(async () => {
    group = await buildGroup({ visibility: 'public' });
    privGroup = await buildGroup({ visibility: 'private' });
    pub = await buildProject(group.id, { visibility: 'public' });
    internal = await buildProject(group.id, { visibility: 'internal' });
    priv = await buildProject(privGroup.id, { visibility: 'private' });
    member = await userWithRole(privGroup.id, 10);
    stranger = await buildUser();
  });

  it('reads a project by numeric ID', async () => {
    const res = await api(`/projects/${priv.id}`, { token: member.token });
    expectStatus(res, 200);
    const p = expectProject(res.body);
    assert.equal(p.id, priv.id);
    assert.equal(p.path_with_namespace, priv.path_with_namespace);
    assert.equal(p.namespace.id, privGroup.id);
  });
  it('reads a project by URL-encoded path, ignoring case', async () => {
    for (const path of [priv.path_with_namespace, priv.path_with_namespace.toUpperCase()]) {
      const res = await api(`/projects/${encodeURIComponent(path)}`, { token: member.token });
      expectStatus(res, 200);
      assert.equal(res.body.id, priv.id);
    }
  });
  it('reads a project in a subgroup by its full path', async () => {
    const sub = await buildGroup({ parent_id: privGroup.id });
    const nested = await buildProject(sub.id);
    assert.equal(nested.path_with_namespace.split('/').length, 3);
    const res = await api(`/projects/${encodeURIComponent(nested.path_with_namespace)}`, { token: member.token });
    expectStatus(res, 200);
    assert.equal(res.body.id, nested.id);
  });
  it('reads a public project without authentication', async () => {
    const res = await api(`/projects/${encodeURIComponent(pub.path_with_namespace)}`, { token: null });
    expectStatus(res, 200);
    assert.equal(expectProject(res.body).visibility, 'public');
  });
  it('reads an internal project when signed in, not anonymously', async () => {
    expectStatus(await api(`/projects/${internal.id}`, { token: stranger.token }), 200);
    const anon = await api(`/projects/${internal.id}`, { token: null });
    expectStatus(anon, 404);
    assert.deepEqual(anon.body, NOT_FOUND);
  });
  it('answers 404 for a private project the caller cannot see, as for a missing one', async () => {
    for (const [path, token] of [
      [`/projects/${priv.id}`, stranger.token],
      [`/projects/${priv.id}`, null],
      [`/projects/${encodeURIComponent(priv.path_with_namespace)}`, stranger.token],
      ['/projects/999999', undefined],
      ['/projects/99999999999', undefined],
      ['/projects/no-such-group%2Fno-such-project', undefined],
      [`/projects/${encodeURIComponent(`${privGroup.full_path}/missing`)}`, undefined],
    ] as const) {
      const res = await api(path, { token });
      expectStatus(res, 404);
      assert.deepEqual(res.body, NOT_FOUND);
    }
  });
});

describe('DELETE /projects/:id', () => {
  let group: Group;
  let owner: BuiltUser, maintainer: BuiltUser, dev: BuiltUser, stranger: BuiltUser;
  before(async () => {
    group = await buildGroup({ visibility: 'public' });
    owner = await userWithRole(group.id, 50);
    maintainer = await userWithRole(group.id, 40);
    dev = await userWithRole(group.id, 30);
    stranger = await buildUser();
  });
  const del = (id: number | string, token?: string | null) => api(`/projects/${id}`, { method: 'DELETE', token });
  const stillThere = async (p: Project) => expectStatus(await api(`/projects/${p.id}`), 200);

  describe('as an Owner', () => {
    it('deletes the project: 202 Accepted, then 404, gone from lists and its members removed', async () => {
      const p = await buildProject(group.id, { visibility: 'public' });
      const m = await buildUser();
      await addMember('projects', p.id, m.user.id, 30);
      const res = await del(p.id, owner.token);
      expectStatus(res, 202);
      assert.deepEqual(res.body, { message: '202 Accepted' });
      const read = await api(`/projects/${p.id}`);
      expectStatus(read, 404);
      assert.deepEqual(read.body, NOT_FOUND);
      assert.ok(!ids((await api(`/projects?search=${encodeURIComponent(p.path_with_namespace)}`)).body).includes(p.id));
      const rows = await server.running.db.selectFrom('members').select('id').where('source_type', '=', 'project').where('source_id', '=', p.id).execute();
      assert.deepEqual(rows, []);
    });
    it('deletes by URL-encoded path', async () => {
      const p = await buildProject(group.id);
      expectStatus(await del(encodeURIComponent(p.path_with_namespace), owner.token), 202);
      expectStatus(await api(`/projects/${p.id}`), 404);
    });
    it('frees the path for a new project', async () => {
      const p = await buildProject(group.id);
      const path = p.path_with_namespace.split('/')[1];
      expectStatus(await del(p.id, owner.token), 202);
      expectStatus(await api('/projects', { method: 'POST', json: { path, namespace_id: group.id } }), 201);
    });
  });

  describe('as a project Owner or an administrator', () => {
    it('lets a direct Owner of the project delete it', async () => {
      const p = await buildProject(group.id);
      const u = await buildUser();
      await addMember('projects', p.id, u.user.id, 50);
      expectStatus(await del(p.id, u.token), 202);
    });
    it('lets an administrator delete any project', async () => {
      const p = await buildProject((await buildGroup()).id);
      expectStatus(await del(p.id), 202);
      expectStatus(await api(`/projects/${p.id}`), 404);
    });
  });

  describe('without the role', () => {
    it('answers 403 to a Maintainer and a Developer, and the project stays', async () => {
      const p = await buildProject(group.id, { visibility: 'public' });
      for (const who of [maintainer, dev]) {
        const res = await del(p.id, who.token);
        expectStatus(res, 403);
        assert.deepEqual(res.body, { message: '403 Forbidden' });
      }
      await stillThere(p);
    });
    it('answers 403 to a non-member of a public project, 404 of a private one', async () => {
      const pubP = await buildProject(group.id, { visibility: 'public' });
      const privP = await buildProject(group.id, { visibility: 'private' });
      expectStatus(await del(pubP.id, stranger.token), 403);
      const hidden = await del(privP.id, stranger.token);
      expectStatus(hidden, 404);
      assert.deepEqual(hidden.body, NOT_FOUND);
      await stillThere(pubP);
      await stillThere(privP);
    });
    it('answers 401 without authentication', async () => {
      const p = await buildProject(group.id, { visibility: 'public' });
      const res = await del(p.id, null);
      expectStatus(res, 401);
      assert.deepEqual(res.body, { message: '401 Unauthorized' });
      await stillThere(p);
    });
    it('answers 403 insufficient_scope to an Owner’s read_api token', async () => {
      const p = await buildProject(group.id);
      const reader = await userWithRole(group.id, 50, ['read_api']);
      const res = await del(p.id, reader.token);
      expectStatus(res, 403);
      assert.equal(res.body.error, 'insufficient_scope');
      await stillThere(p);
    });
  });

  describe('for an unknown project', () => {
    for (const id of ['999999', '99999999999', 'no%2Fsuch', 'abc']) {
      it(`answers 404 Project Not Found for ${id}`, async () => {
        const res = await del(id);
        expectStatus(res, 404);
        assert.deepEqual(res.body, NOT_FOUND);
      });
    }
  });
});

describe('PUT /projects/:id', () => {
  /** The harness names a project as its path. */
  const nameOf = (p: Project) => p.path_with_namespace.split('/').pop()!;
  let group: Group;
  let project: Project;
  let maintainer: BuiltUser;
  let developer: BuiltUser;
  before(async () => {
    group = await buildGroup();
    project = await buildProject(group.id);
    [maintainer, developer] = await Promise.all([40, 30].map((level) => userWithRole(group.id, level)));
  });

  it('as a Maintainer: changes the settings given (merge method and merge trains among them) and answers the project', async () => {
    const res = await api(`/projects/${project.id}`, {
      method: 'PUT',
      token: maintainer.token,
      json: { description: 'Trains on', merge_method: 'ff', merge_trains_enabled: true, issues_enabled: false, unknown_key: 'ignored' },
    });
    expectStatus(res, 200);
    const p = expectProject(res.body);
    assert.equal(p.description, 'Trains on');
    assert.equal(p.merge_method, 'ff');
    assert.equal(p.merge_trains_enabled, true);
    assert.equal(p.merge_trains_skip_train_allowed, false);
    assert.equal(p.issues_enabled, false);
    assert.equal(p.name, nameOf(project));
    const read = await api(`/projects/${project.id}`, { token: developer.token });
    assert.deepEqual([read.body.merge_method, read.body.merge_trains_enabled, read.body.description], ['ff', true, 'Trains on']);
    // Form fields, as python-gitlab and curl -d send them.
    const form = await api(`/projects/${project.id}`, { method: 'PUT', token: maintainer.token, form: { merge_trains_enabled: 'false' } });
    expectStatus(form, 200);
    assert.equal(form.body.merge_trains_enabled, false);
  });

  it('refuses a value it cannot take with the platform’s 400, and writes nothing of that request', async () => {
    const other = await buildProject(group.id);
    const cases: [Record<string, unknown>, unknown][] = [
      [{ description: 'half', merge_method: 'squash_all' }, { message: { merge_method: ['does not have a valid value'] } }],
      [{ description: 'half', name: nameOf(other) }, { message: { name: ['has already been taken'] } }],
      [{ description: 'half', visibility: 'public' }, { message: { visibility_level: ['public is not allowed in a private group.'] } }],
    ];
    for (const [json, body] of cases) {
      const res = await api(`/projects/${project.id}`, { method: 'PUT', token: maintainer.token, json });
      expectStatus(res, 400);
      assert.deepEqual(res.body, body);
    }
    assert.equal((await api(`/projects/${project.id}`)).body.description, 'Trains on');
  });

  it('below Maintainer: 403; a project the caller cannot see: 404', async () => {
    expectStatus(await api(`/projects/${project.id}`, { method: 'PUT', token: developer.token, json: { description: 'no' } }), 403);
    const outsider = await buildUser();
    const hidden = await api(`/projects/${project.id}`, { method: 'PUT', token: outsider.token, json: { description: 'no' } });
    expectStatus(hidden, 404);
    assert.deepEqual(hidden.body, NOT_FOUND);
  });
});

describe('POST /projects with initialize_with_readme', () => {
  let group: Group;
  let developer: BuiltUser;
  before(async () => {
    group = await buildGroup({ visibility: 'internal' });
    developer = await userWithRole(group.id, 30);
  });
  const create = (json: Record<string, unknown>, token?: string) => api('/projects', { method: 'POST', json: { namespace_id: group.id, ...json }, token });

  it('commits a README.md on main as the first commit, recorded as a push', async () => {
    const name = unique('Readme ');
    const res = await create({ name, description: 'What it does', initialize_with_readme: true }, developer.token);
    expectStatus(res, 201);
    const p = expectProject(res.body);
    assert.deepEqual({ default_branch: p.default_branch, empty_repo: p.empty_repo }, { default_branch: 'main', empty_repo: false });
    const raw = await api(`/projects/${p.id}/repository/files/README.md/raw?ref=main`, { token: developer.token });
    expectStatus(raw, 200);
    assert.equal(raw.text, `# ${name}\n\nWhat it does\n`);
    const commits = await api(`/projects/${p.id}/repository/commits`, { token: developer.token });
    assert.deepEqual(commits.body.map((c: { title: string; author_email: string }) => [c.title, c.author_email]), [['Initial commit', `${developer.user.username}@example.com`]]);
    const events = await api(`/projects/${p.id}/events?action=pushed`, { token: developer.token });
    expectStatus(events, 200);
    assert.equal(events.body.length, 1);
    assert.equal(events.body[0].push_data.ref, 'main');
  });
  it('names the first branch default_branch, and HEAD follows it', async () => {
    const res = await create({ name: unique('trunk'), initialize_with_readme: 'true', default_branch: 'trunk' }, developer.token);
    expectStatus(res, 201);
    assert.equal(res.body.default_branch, 'trunk');
    const branches = await api(`/projects/${res.body.id}/repository/branches`, { token: developer.token });
    assert.deepEqual(branches.body.map((b: { name: string; default: boolean }) => [b.name, b.default]), [['trunk', true]]);
  });
  it('takes the instance’s default_branch_name where the request names none', async () => {
    expectStatus(await api('/application/settings', { method: 'PUT', json: { default_branch_name: 'develop' } }), 200);
    try {
      const res = await create({ name: unique('develop'), initialize_with_readme: 'yes' }, developer.token);
      expectStatus(res, 201);
      assert.equal(res.body.default_branch, 'develop');
      const plain = await create({ name: unique('empty') }, developer.token);
      assert.deepEqual({ default_branch: plain.body.default_branch, empty_repo: plain.body.empty_repo }, { default_branch: null, empty_repo: true }, 'no README: still empty');
    } finally {
      expectStatus(await api('/application/settings', { method: 'PUT', json: { default_branch_name: null } }), 200);
    }
  });
  it('refuses an invalid branch name with a 400, creating nothing', async () => {
    const before = await projectTotal();
    const res = await create({ name: unique('bad'), initialize_with_readme: true, default_branch: 'bad..name' }, developer.token);
    expectStatus(res, 400);
    assert.equal(await projectTotal(), before);
  });
  it('leaves no project behind when the push rule refuses the first commit', async () => {
    const strict = await buildGroup({ visibility: 'internal' });
    expectStatus(await api(`/groups/${strict.id}/push_rule`, { method: 'POST', json: { commit_message_regex: '^JIRA-\\d+' } }), 201);
    const before = await projectTotal();
    const res = await api('/projects', { method: 'POST', json: { name: unique('refused'), namespace_id: strict.id, initialize_with_readme: true } });
    expectStatus(res, 400);
    assert.match(res.body.message, /Commit message does not follow the pattern/);
    assert.equal(await projectTotal(), before);
  });
});

describe('GET /projects/:id/languages', () => {
  it('answers each language’s share of the default branch’s bytes, largest first, leaving out docs, vendored code and data', async () => {
    const group = await buildGroup();
    const created = await api('/projects', { method: 'POST', json: { name: unique('langs'), namespace_id: group.id, initialize_with_readme: true } });
    expectStatus(created, 201);
    const id = created.body.id;
    assert.deepEqual((await api(`/projects/${id}/languages`)).body, {}, 'a README alone is prose');
    const actions = [
      { action: 'create', file_path: 'app.rb', content: 'r'.repeat(600) },
      { action: 'create', file_path: 'lib/util.py', content: 'p'.repeat(300) },
      { action: 'create', file_path: 'web/index.js', content: 'j'.repeat(100) },
      { action: 'create', file_path: 'vendor/lib.js', content: 'v'.repeat(5000) },
      { action: 'create', file_path: 'docs/guide.rb', content: 'd'.repeat(5000) },
      { action: 'create', file_path: 'config.json', content: '{}'.repeat(2000) },
      { action: 'create', file_path: 'Makefile', content: 'm'.repeat(200) },
    ];
    expectStatus(await api(`/projects/${id}/repository/commits`, { method: 'POST', json: { branch: 'main', commit_message: 'code', actions } }), 201);
    const res = await api(`/projects/${id}/languages`);
    expectStatus(res, 200);
    assert.deepEqual(res.body, { Ruby: 50, Python: 25, Makefile: 16.67, JavaScript: 8.33 });
    assert.deepEqual(Object.keys(res.body), ['Ruby', 'Python', 'Makefile', 'JavaScript']);
  });
  it('answers {} for an empty repository and 404 for a project the caller cannot see', async () => {
    const group = await buildGroup();
    const p = await buildProject(group.id);
    assert.deepEqual((await api(`/projects/${p.id}/languages`)).body, {});
    const res = await api(`/projects/${p.id}/languages`, { token: null });
    expectStatus(res, 404);
    assert.deepEqual(res.body, NOT_FOUND);
  });
});
