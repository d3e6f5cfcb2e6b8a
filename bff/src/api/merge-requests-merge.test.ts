import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildGroup, buildProject, expectStatus, request as api, startTestServer, userWithRole, type TestServer } from '../../test/harness.ts';
import { startReceiver, type Receiver } from '../../test/receiver.ts';
import { commitTo, eventually, firstParentSubjects, openMergeRequest } from '../../test/merge-fixtures.ts';

let server: TestServer;
let receiver: Receiver;
let project: { id: number; path_with_namespace: string };
let developer: Awaited<ReturnType<typeof userWithRole>>;
let maintainer: Awaited<ReturnType<typeof userWithRole>>;

const merge = (iid: number, json: object = {}, token?: string) => api(`/projects/${project.id}/merge_requests/${iid}/merge`, { method: 'PUT', json, token });
const settings = (json: object) => api(`/api/console/projects/${project.id}/merge_settings`, { method: 'PUT', json });

before(async () => {
  server = await startTestServer();
  receiver = await startReceiver();
  await api('/application/settings', { method: 'PUT', json: { allow_local_requests_from_web_hooks_and_services: true } });
  const group = await buildGroup();
  project = await buildProject(group.id);
  developer = await userWithRole(group.id, 30);
  maintainer = await userWithRole(group.id, 40);
  await commitTo(project.id, 'main', { 'README.md': '# Merging\n' }, { message: 'Initial commit' });
  expectStatus(await api(`/projects/${project.id}/hooks`, { method: 'POST', json: { url: receiver.url, push_events: true, merge_requests_events: true } }), 201);
});
after(async () => {
  await receiver.close();
  await server.close();
});

describe('PUT /projects/:id/merge_requests/:merge_request_iid/merge', () => {
  it('as a Maintainer: a merge commit on main, the merge request merged, a push and a merge request hook', async () => {
    await commitTo(project.id, 'main', { 'main.txt': 'moved on\n' });
    const source = await commitTo(project.id, 'one', { 'one.txt': 'one\n' });
    const mr = await openMergeRequest(project.id, 'one', 'First feature');
    const res = await merge(mr.iid, { sha: source, merge_commit_message: 'Merge the first feature', should_remove_source_branch: true }, maintainer.token);
    expectStatus(res, 200);
    assert.equal(res.body.state, 'merged');
    assert.equal(res.body.merge_user?.id ?? res.body.merge_user_id, maintainer.user.id);
    assert.ok(res.body.merged_at);
    const log = await firstParentSubjects(project.id, 'main');
    assert.equal(log[0].title, 'Merge the first feature');
    assert.equal(res.body.merge_commit_sha, log[0].id);
    assert.deepEqual(log[0].parent_ids.length, 2);
    assert.equal(log[0].parent_ids[1], source);
    expectStatus(await api(`/projects/${project.id}/repository/branches/one`), 404);
    const events = await api(`/projects/${project.id}/merge_requests/${mr.iid}/resource_state_events`);
    assert.ok(events.body.some((e: { state: string }) => e.state === 'merged'));
    type Payload = { object_kind?: string; after?: string; object_attributes?: { action?: string; iid?: number } };
    const payloads = () => receiver.requests.map((r) => (r.json ?? {}) as Payload);
    const hook = await eventually(async () => payloads().find((p) => p.object_kind === 'merge_request' && p.object_attributes?.action === 'merge'), 'the merge hook');
    assert.equal(hook.object_attributes?.iid, mr.iid);
    await eventually(async () => payloads().find((p) => p.object_kind === 'push' && p.after === log[0].id), 'the push hook');
  });

  it('fast-forwards with the ff merge method, and answers 406 when the source is behind', async () => {
    expectStatus(await settings({ merge_method: 'ff' }), 200);
    const source = await commitTo(project.id, 'two', { 'two.txt': 'two\n' });
    const mr = await openMergeRequest(project.id, 'two', 'Second');
    expectStatus(await merge(mr.iid), 200);
    assert.equal((await firstParentSubjects(project.id, 'main'))[0].id, source);
    await commitTo(project.id, 'three', { 'three.txt': 'three\n' });
    const behind = await openMergeRequest(project.id, 'three', 'Third');
    await commitTo(project.id, 'main', { 'other.txt': 'other\n' });
    const res = await merge(behind.iid);
    expectStatus(res, 406);
    assert.deepEqual(res.body, { message: 'Branch cannot be merged' });
    expectStatus(await settings({ merge_method: 'merge' }), 200);
  });

  it('answers 406 on conflicts, 409 when sha is not the source head, 405 once merged or for a draft', async () => {
    await commitTo(project.id, 'clash', { 'README.md': '# Clash\n' });
    await commitTo(project.id, 'main', { 'README.md': '# Main moved\n' });
    const clash = await openMergeRequest(project.id, 'clash', 'Clash');
    expectStatus(await merge(clash.iid), 406);
    const src = await commitTo(project.id, 'four', { 'four.txt': 'four\n' });
    const mr = await openMergeRequest(project.id, 'four', 'Four');
    const stale = await merge(mr.iid, { sha: '1'.repeat(40) });
    expectStatus(stale, 409);
    assert.equal(stale.body.message, `SHA does not match HEAD of source branch: ${src}`);
    expectStatus(await merge(mr.iid), 200);
    expectStatus(await merge(mr.iid), 405);
    await commitTo(project.id, 'draft', { 'draft.txt': 'draft\n' });
    const draft = await openMergeRequest(project.id, 'draft', 'Draft: not yet');
    const refused = await merge(draft.iid);
    expectStatus(refused, 405);
    assert.match(refused.body.message, /draft/);
  });

  it('a Developer may not merge into the protected default branch (401); unknown merge requests 404', async () => {
    await commitTo(project.id, 'five', { 'five.txt': 'five\n' });
    const mr = await openMergeRequest(project.id, 'five', 'Five');
    expectStatus(await merge(mr.iid, {}, developer.token), 401);
    expectStatus(await merge(99999), 404);
  });

  it('squashes into one commit when asked', async () => {
    await commitTo(project.id, 'six', { 'six.txt': 'six\n' });
    await commitTo(project.id, 'six', { 'six.txt': 'six, again\n' });
    const mr = await openMergeRequest(project.id, 'six', 'Six');
    const res = await merge(mr.iid, { squash: true, squash_commit_message: 'Six, squashed' });
    expectStatus(res, 200);
    const squashed = await api(`/projects/${project.id}/repository/commits/${res.body.squash_commit_sha}`);
    assert.equal(squashed.body.title, 'Six, squashed');
    assert.equal(squashed.body.parent_ids.length, 1);
  });
});
