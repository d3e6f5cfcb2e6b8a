import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { namespaceEntity, namespaceExistence } from '../../../shared/src/namespaces.ts';
import { addMember, buildGroup, buildProject, buildUser, expectShape, expectStatus, request as api, startTestServer, type TestServer } from '../../test/harness.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

const ids = (body: { id: number }[]) => body.map((n) => n.id);

describe('GET /namespaces', () => {
  let member: Awaited<ReturnType<typeof buildUser>>;
  let owned: { id: number; full_path: string }, guestOf: { id: number }, teamParent: { full_path: string }, sub: { id: number; full_path: string }, other: { id: number };
  before(async () => {
    member = await buildUser();
    owned = await buildGroup({ name: 'Owned space' });
    guestOf = await buildGroup({ visibility: 'public' });
    const parent = await buildGroup();
    teamParent = parent;
    sub = await buildGroup({ parent_id: parent.id, name: 'Team space' });
    other = await buildGroup({ visibility: 'public' });
    await addMember('groups', owned.id, member.user.id, 50);
    await addMember('groups', sub.id, member.user.id, 30);
    await addMember('groups', guestOf.id, member.user.id, 10);
  });

  describe('as a member', () => {
    it('lists the namespaces the caller is a direct member of, by id, with the platform’s fields', async () => {
      const res = await api('/namespaces', { token: member.token });
      expectStatus(res, 200);
      assert.deepEqual(ids(res.body), [owned.id, guestOf.id, sub.id].sort((a, b) => a - b));
      assert.equal(res.headers.get('x-total'), '3');
      for (const n of res.body) expectShape(namespaceEntity, n);
      const ownedItem = res.body.find((n: { id: number }) => n.id === owned.id);
      assert.deepEqual(
        { kind: ownedItem.kind, full_path: ownedItem.full_path, parent_id: ownedItem.parent_id, web_url: ownedItem.web_url },
        { kind: 'group', full_path: owned.full_path, parent_id: null, web_url: `${server.url}/groups/${owned.full_path}` },
      );
      // An Owner sees the counts of the tree (its creator and the caller); a Guest does not.
      assert.equal(ownedItem.members_count_with_descendants, 2);
      assert.equal(ownedItem.projects_count, 0);
      const guestItem = res.body.find((n: { id: number }) => n.id === guestOf.id);
      assert.equal('members_count_with_descendants' in guestItem, false);
      assert.equal(ids(res.body).includes(other.id), false, 'a public group the caller is not a member of is not listed');
    });
    it('filters by owned_only, top_level_only and search (full_path_search for the full path)', async () => {
      assert.deepEqual(ids((await api('/namespaces?owned_only=true', { token: member.token })).body), [owned.id]);
      assert.deepEqual(ids((await api('/namespaces?top_level_only=true', { token: member.token })).body), [owned.id, guestOf.id].sort((a, b) => a - b));
      assert.deepEqual(ids((await api('/namespaces?search=team', { token: member.token })).body), [sub.id]);
      const byPath = encodeURIComponent(`${teamParent.full_path}/`);
      assert.deepEqual(ids((await api(`/namespaces?search=${byPath}`, { token: member.token })).body), []);
      assert.deepEqual(ids((await api(`/namespaces?search=${byPath}&full_path_search=true`, { token: member.token })).body), [sub.id]);
    });
    it('paginates', async () => {
      const res = await api('/namespaces?per_page=1&page=2', { token: member.token });
      expectStatus(res, 200);
      assert.equal(res.body.length, 1);
      assert.equal(res.headers.get('x-total-pages'), '3');
    });
  });

  describe('as an administrator', () => {
    it('lists every namespace, with the counts', async () => {
      const res = await api('/namespaces?per_page=100');
      expectStatus(res, 200);
      for (const id of [owned.id, guestOf.id, sub.id, other.id]) assert.ok(ids(res.body).includes(id), `namespace ${id} is listed`);
      assert.equal(typeof res.body[0].projects_count, 'number');
    });
  });

  it('answers 401 without authentication', async () => {
    const res = await api('/namespaces', { token: null });
    expectStatus(res, 401);
    assert.deepEqual(res.body, { message: '401 Unauthorized' });
  });
  it('answers 400 for a malformed boolean', async () => {
    expectStatus(await api('/namespaces?owned_only=maybe', { token: member.token }), 400);
  });
});

describe('GET /namespaces/:id', () => {
  it('answers a namespace by id and by URL-encoded full path, counts for an Owner', async () => {
    const owner = await buildUser();
    const parent = await buildGroup();
    const child = await buildGroup({ parent_id: parent.id });
    await addMember('groups', parent.id, owner.user.id, 50);
    await buildProject(child.id);
    const byId = await api(`/namespaces/${child.id}`, { token: owner.token });
    expectStatus(byId, 200);
    const n = expectShape(namespaceEntity, byId.body);
    assert.deepEqual(
      { id: n.id, full_path: n.full_path, parent_id: n.parent_id, members: n.members_count_with_descendants, projects: n.projects_count },
      { id: child.id, full_path: child.full_path, parent_id: parent.id, members: 1, projects: 1 },
    );
    const parentByPath = await api(`/namespaces/${encodeURIComponent(parent.full_path)}`, { token: owner.token });
    expectStatus(parentByPath, 200);
    assert.deepEqual({ id: parentByPath.body.id, members: parentByPath.body.members_count_with_descendants, projects: parentByPath.body.projects_count }, { id: parent.id, members: 2, projects: 1 }, 'the creator and the Owner added');
    const byPath = await api(`/namespaces/${encodeURIComponent(child.full_path.toUpperCase())}`, { token: owner.token });
    expectStatus(byPath, 200);
    assert.equal(byPath.body.id, child.id);
  });
  it('shows a public group to any signed-in user, without the counts', async () => {
    const stranger = await buildUser();
    const pub = await buildGroup({ visibility: 'public' });
    const res = await api(`/namespaces/${pub.id}`, { token: stranger.token });
    expectStatus(res, 200);
    assert.equal('projects_count' in res.body, false);
  });
  it('answers 404 Namespace Not Found for a private group of others and for an unknown one', async () => {
    const stranger = await buildUser();
    const priv = await buildGroup();
    for (const id of [String(priv.id), encodeURIComponent(priv.full_path), '987654321', 'no%2Fsuch']) {
      const res = await api(`/namespaces/${id}`, { token: stranger.token });
      expectStatus(res, 404);
      assert.deepEqual(res.body, { message: '404 Namespace Not Found' });
    }
  });
  it('answers 401 without authentication', async () => {
    const pub = await buildGroup({ visibility: 'public' });
    expectStatus(await api(`/namespaces/${pub.id}`, { token: null }), 401);
  });
});

describe('GET /namespaces/:id/exists', () => {
  it('answers whether a top-level path is taken, case-insensitively, and suggests a free one', async () => {
    const g = await buildGroup();
    const user = await buildUser();
    const taken = await api(`/namespaces/${g.path.toUpperCase()}/exists`, { token: user.token });
    expectStatus(taken, 200);
    assert.deepEqual(expectShape(namespaceExistence, taken.body), { exists: true, suggests: [`${g.path.toUpperCase()}1`] });
    await buildGroup({ path: `${g.path}1` });
    assert.deepEqual((await api(`/namespaces/${g.path}/exists`, { token: user.token })).body, { exists: true, suggests: [`${g.path}2`] });
    assert.deepEqual((await api(`/namespaces/${g.path}-free/exists`, { token: user.token })).body, { exists: false, suggests: [] });
  });
  it('looks among the children of parent_id only', async () => {
    const parent = await buildGroup();
    const child = await buildGroup({ parent_id: parent.id, path: `kid${parent.id}` });
    assert.deepEqual((await api(`/namespaces/${child.path}/exists?parent_id=${parent.id}`)).body, { exists: true, suggests: [`${child.path}1`] });
    assert.deepEqual((await api(`/namespaces/${child.path}/exists`)).body, { exists: false, suggests: [] }, 'not a top-level namespace');
    assert.deepEqual((await api(`/namespaces/${parent.path}/exists?parent_id=${parent.id}`)).body, { exists: false, suggests: [] });
  });
  it('answers 400 for a parent_id that is not a number and 401 without authentication', async () => {
    expectStatus(await api('/namespaces/x/exists?parent_id=abc'), 400);
    expectStatus(await api('/namespaces/x/exists', { token: null }), 401);
  });
});
