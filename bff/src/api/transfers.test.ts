import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { addMember, buildGroup, buildProject, buildUser, expectStatus, request as api, startTestServer, userWithRole, type TestServer } from '../../test/harness.ts';

const run = promisify(execFile);
let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(async () => server.close());

/** The repository's refs over git's smart HTTP at the project's (new) path, as a clone would read them. */
async function remoteRefs(fullPath: string): Promise<string> {
  const url = new URL(`${server.url}/${fullPath}.git`);
  url.username = 'root';
  url.password = server.rootToken;
  const { stdout } = await run('git', ['ls-remote', url.toString()], { env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } });
  return stdout;
}

describe('PUT /projects/:id/transfer', () => {
  it('moves a project (its repository with it) to a namespace given by id or full path, narrowing its visibility to the new group', async () => {
    const from = await buildGroup({ visibility: 'public' });
    const to = await buildGroup({ visibility: 'internal' });
    const project = await buildProject(from.id, { visibility: 'public' });
    const file = await api(`/projects/${project.id}/repository/files/README.md`, { method: 'POST', json: { branch: 'main', content: 'hello', commit_message: 'first' } });
    expectStatus(file, 201);
    const moved = await api(`/projects/${project.id}/transfer`, { method: 'PUT', json: { namespace: to.full_path } });
    expectStatus(moved, 200);
    const path = project.path_with_namespace.split('/').pop();
    assert.equal(moved.body.path_with_namespace, `${to.full_path}/${path}`);
    assert.equal(moved.body.namespace.id, to.id);
    assert.equal(moved.body.visibility, 'internal');
    expectStatus(await api(`/projects/${encodeURIComponent(`${to.full_path}/${path}`)}`), 200);
    expectStatus(await api(`/projects/${encodeURIComponent(project.path_with_namespace)}`), 404);
    assert.match(await remoteRefs(`${to.full_path}/${path}`), /refs\/heads\/main/);
    // And back, by numeric id.
    expectStatus(await api(`/projects/${project.id}/transfer`, { method: 'PUT', json: { namespace: from.id } }), 200);
  });

  it('answers the platform’s refusals', async () => {
    const from = await buildGroup();
    const to = await buildGroup();
    const project = await buildProject(from.id);
    const same = await api(`/projects/${project.id}/transfer`, { method: 'PUT', json: { namespace: String(from.id) } });
    expectStatus(same, 400);
    assert.equal(same.body.message, 'Failed to transfer project {:new_namespace=>["Project is already in this namespace."]}');
    // A project of the same path in the target.
    const twin = await api('/projects', { method: 'POST', json: { name: 'Other name', path: project.path_with_namespace.split('/').pop(), namespace_id: to.id } });
    expectStatus(twin, 201);
    const clash = await api(`/projects/${project.id}/transfer`, { method: 'PUT', json: { namespace: to.id } });
    expectStatus(clash, 400);
    assert.equal(clash.body.message, 'Failed to transfer project {:new_namespace=>["Project with same name or path in target namespace already exists"]}');
    const missing = await api(`/projects/${project.id}/transfer`, { method: 'PUT', json: { namespace: 'no/such/group' } });
    expectStatus(missing, 404);
    assert.equal(missing.body.message, '404 Namespace Not Found');
    expectStatus(await api(`/projects/${project.id}/transfer`, { method: 'PUT', json: {} }), 400);
  });

  it('needs the Owner role on the project and permission to create projects in the target', async () => {
    const from = await buildGroup();
    const to = await buildGroup();
    const project = await buildProject(from.id);
    const maintainer = await buildUser();
    await addMember('projects', project.id, maintainer.user.id, 40);
    await addMember('groups', to.id, maintainer.user.id, 50);
    expectStatus(await api(`/projects/${project.id}/transfer`, { method: 'PUT', token: maintainer.token, json: { namespace: to.id } }), 403);
    const owner = await userWithRole(from.id, 50);
    const guestThere = await buildGroup();
    await addMember('groups', guestThere.id, owner.user.id, 10);
    const refused = await api(`/projects/${project.id}/transfer`, { method: 'PUT', token: owner.token, json: { namespace: guestThere.id } });
    expectStatus(refused, 400);
    assert.equal(refused.body.message, `Failed to transfer project {:new_namespace=>["You don't have permission to transfer projects into that namespace."]}`);
    // A group the Owner cannot see is not found.
    expectStatus(await api(`/projects/${project.id}/transfer`, { method: 'PUT', token: owner.token, json: { namespace: to.id } }), 404);
    await addMember('groups', to.id, owner.user.id, 40);
    expectStatus(await api(`/projects/${project.id}/transfer`, { method: 'PUT', token: owner.token, json: { namespace: to.id } }), 200);
  });
});

describe('POST /groups/:id/transfer', () => {
  it('moves a group with its subgroups and projects under a new parent, and back to the top level', async () => {
    const group = await buildGroup();
    const sub = await buildGroup({ parent_id: group.id });
    const deep = await buildProject(sub.id);
    const parent = await buildGroup();
    const moved = await api(`/groups/${group.id}/transfer`, { method: 'POST', json: { group_id: parent.id } });
    expectStatus(moved, 201);
    assert.equal(moved.body.full_path, `${parent.full_path}/${group.path}`);
    assert.equal(moved.body.parent_id, parent.id);
    const subNow = await api(`/groups/${sub.id}`);
    assert.equal(subNow.body.full_path, `${parent.full_path}/${group.path}/${sub.path}`);
    const projectNow = await api(`/projects/${deep.id}`);
    assert.equal(projectNow.body.path_with_namespace, `${parent.full_path}/${deep.path_with_namespace}`);
    // The tree follows: the new parent's descendants include the moved ones.
    const descendants = await api(`/groups/${parent.id}/descendant_groups`);
    assert.deepEqual(descendants.body.map((g: { id: number }) => g.id).sort(), [group.id, sub.id].sort());
    // Top level again, with the parameter absent (query string form).
    const top = await api(`/groups/${group.id}/transfer`, { method: 'POST' });
    expectStatus(top, 201);
    assert.equal(top.body.full_path, group.path);
    assert.equal(top.body.parent_id, null);
    assert.equal((await api(`/projects/${deep.id}`)).body.path_with_namespace, deep.path_with_namespace);
  });

  it('answers the platform’s refusals', async () => {
    const group = await buildGroup();
    const sub = await buildGroup({ parent_id: group.id });
    const message = async (groupId: number, json: unknown) => {
      const res = await api(`/groups/${groupId}/transfer`, { method: 'POST', json });
      expectStatus(res, 400);
      return res.body.message;
    };
    assert.equal(await message(group.id, {}), 'Transfer failed: Group is already a root group.');
    assert.equal(await message(sub.id, { group_id: group.id }), 'Transfer failed: Group is already associated to the parent group.');
    assert.equal(await message(group.id, { group_id: sub.id }), 'Transfer failed: Cannot transfer group to one of its subgroup.');
    const other = await buildGroup();
    await buildGroup({ parent_id: other.id, path: sub.path });
    assert.equal(await message(sub.id, { group_id: other.id }), 'Transfer failed: The parent group already has a subgroup or a project with the same path.');
    const missing = await api(`/groups/${group.id}/transfer`, { method: 'POST', json: { group_id: 2_000_000_000 } });
    expectStatus(missing, 404);
    assert.equal(missing.body.message, '404 Group Not Found');
  });

  it('needs the Owner role on the group and permission to create subgroups in the parent', async () => {
    const group = await buildGroup();
    const parent = await buildGroup();
    const maintainer = await userWithRole(group.id, 40);
    expectStatus(await api(`/groups/${group.id}/transfer`, { method: 'POST', token: maintainer.token, json: { group_id: parent.id } }), 403);
    const owner = await userWithRole(group.id, 50);
    await addMember('groups', parent.id, owner.user.id, 30);
    const refused = await api(`/groups/${group.id}/transfer`, { method: 'POST', token: owner.token, json: { group_id: parent.id } });
    expectStatus(refused, 400);
    assert.equal(refused.body.message, "Transfer failed: You don't have enough permissions.");
  });
});
