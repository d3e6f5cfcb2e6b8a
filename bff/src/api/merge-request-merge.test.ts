import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildGroup, buildProject, expectStatus, request as api, startTestServer, userWithRole, type TestServer } from '../../test/harness.ts';
import { startReceiver, type Receiver } from '../../test/receiver.ts';
import { commitTo, eventually, firstParentSubjects, openMergeRequest } from '../../test/merge-fixtures.ts';
import { cloneAs } from '../../test/git-client.ts';

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

describe('auto_merge (merge when pipeline succeeds), outside merge trains', () => {
  const report = (sha: string, ref: string, state: string, name = 'ci') => api(`/projects/${project.id}/statuses/${sha}`, { method: 'POST', json: { state, ref, name } });
  const mrOf = async (iid: number) => (await api(`/projects/${project.id}/merge_requests/${iid}`)).body;
  const notes = async (iid: number) => ((await api(`/projects/${project.id}/merge_requests/${iid}/notes?per_page=100`)).body as { body: string; system: boolean }[]).filter((n) => n.system).map((n) => n.body);
  const cancel = (iid: number, token?: string) => api(`/projects/${project.id}/merge_requests/${iid}/cancel_merge_when_pipeline_succeeds`, { method: 'POST', token });

  it('while the head pipeline runs: set (200, merge_user, ci_still_running), merged by the job when the pipeline succeeds', async () => {
    const source = await commitTo(project.id, 'auto-one', { 'auto-one.txt': 'one\n' });
    const mr = await openMergeRequest(project.id, 'auto-one', 'Auto one');
    expectStatus(await report(source, 'auto-one', 'running'), 201);
    const res = await merge(mr.iid, { auto_merge: true, sha: source, merge_commit_message: 'Merge auto one' }, maintainer.token);
    expectStatus(res, 200);
    assert.equal(res.body.state, 'opened');
    assert.equal(res.body.merge_when_pipeline_succeeds, true);
    assert.equal(res.body.merge_user?.id, maintainer.user.id);
    assert.equal(res.body.merged_by, null);
    assert.equal(res.body.detailed_merge_status, 'ci_still_running');
    assert.ok((await notes(mr.iid)).includes(`enabled an automatic merge when the pipeline for ${source} succeeds`));
    // Asked again while set: still one note, still set.
    expectStatus(await merge(mr.iid, { merge_when_pipeline_succeeds: true }, maintainer.token), 200);
    assert.equal((await notes(mr.iid)).filter((n) => n.startsWith('enabled an automatic merge')).length, 1);
    const before = (await firstParentSubjects(project.id, 'main'))[0].id;
    expectStatus(await report(source, 'auto-one', 'success'), 201);
    const merged = await eventually(async () => {
      const m = await mrOf(mr.iid);
      return m.state === 'merged' ? m : undefined;
    }, 'the automatic merge');
    assert.equal(merged.merge_user.id, maintainer.user.id);
    assert.equal(merged.merged_by.id, maintainer.user.id);
    const log = await firstParentSubjects(project.id, 'main');
    assert.equal(log[0].title, 'Merge auto one');
    assert.deepEqual(log[0].parent_ids, [before, source]);
    assert.equal(merged.merge_commit_sha, log[0].id);
  });

  it('a failed pipeline leaves it set (ci_must_pass), as on the platform; a job retried into success merges it', async () => {
    const source = await commitTo(project.id, 'auto-two', { 'auto-two.txt': 'two\n' });
    const mr = await openMergeRequest(project.id, 'auto-two', 'Auto two');
    expectStatus(await report(source, 'auto-two', 'pending'), 201);
    expectStatus(await merge(mr.iid, { merge_when_pipeline_succeeds: true }, maintainer.token), 200);
    expectStatus(await report(source, 'auto-two', 'failed'), 201);
    await new Promise((r) => setTimeout(r, 300));
    const failed = await mrOf(mr.iid);
    assert.equal(failed.state, 'opened');
    assert.equal(failed.merge_when_pipeline_succeeds, true);
    assert.equal(failed.detailed_merge_status, 'ci_must_pass');
    expectStatus(await report(source, 'auto-two', 'running'), 201);
    expectStatus(await report(source, 'auto-two', 'success'), 201);
    await eventually(async () => (await mrOf(mr.iid)).state === 'merged', 'the merge after the retry');
  });

  it('new commits on the source branch abort it with the reason; nothing is merged', async () => {
    const source = await commitTo(project.id, 'auto-three', { 'auto-three.txt': 'three\n' });
    const mr = await openMergeRequest(project.id, 'auto-three', 'Auto three');
    expectStatus(await report(source, 'auto-three', 'running'), 201);
    expectStatus(await merge(mr.iid, { auto_merge: true }, maintainer.token), 200);
    const pushed = await commitTo(project.id, 'auto-three', { 'auto-three.txt': 'three, again\n' });
    await eventually(async () => (await notes(mr.iid)).includes('aborted the automatic merge because the source branch was updated'), 'the abort note');
    const aborted = await mrOf(mr.iid);
    assert.equal(aborted.merge_when_pipeline_succeeds, false);
    assert.equal(aborted.merge_user, null);
    // The old pipeline passing merges nothing, nor does the new one: nobody asked for that head.
    expectStatus(await report(source, 'auto-three', 'success'), 201);
    expectStatus(await report(pushed, 'auto-three', 'success'), 201);
    await new Promise((r) => setTimeout(r, 500));
    assert.equal((await mrOf(mr.iid)).state, 'opened');
  });

  it('a Developer’s git push after a Maintainer set it aborts it by the time the push returns, noted by the pusher; the Developer’s green statuses merge nothing', async () => {
    const dev = await cloneAs(server.url, project.path_with_namespace, developer.user, developer.token);
    try {
      const first = await dev.pushCommit('auto-dev', { 'auto-dev.txt': 'reviewed\n' });
      assert.ok(first.ok, first.out);
      const mr = await openMergeRequest(project.id, 'auto-dev', 'Auto dev', developer.token);
      expectStatus(await report(first.sha, 'auto-dev', 'running'), 201);
      expectStatus(await merge(mr.iid, { auto_merge: true, sha: first.sha }, maintainer.token), 200);
      const unreviewed = await dev.pushCommit('auto-dev', { 'auto-dev-unreviewed.txt': 'nobody reviewed this\n' });
      assert.ok(unreviewed.ok, unreviewed.out);
      // Aborted in the push itself, as the platform's refresh of merge requests does: no job run between.
      const aborted = await mrOf(mr.iid);
      assert.deepEqual([aborted.merge_when_pipeline_succeeds, aborted.merge_user], [false, null]);
      const notes = ((await api(`/projects/${project.id}/merge_requests/${mr.iid}/notes?per_page=100`)).body as { body: string; system: boolean; author: { username: string } }[]).filter((n) => n.system);
      const note = notes.find((n) => n.body === 'aborted the automatic merge because the source branch was updated');
      assert.ok(note, 'the abort note');
      assert.equal(note.author.username, developer.user.username);
      const asDeveloper = (sha: string) => api(`/projects/${project.id}/statuses/${sha}`, { method: 'POST', token: developer.token, json: { state: 'success', ref: 'auto-dev', name: 'ci' } });
      expectStatus(await asDeveloper(first.sha), 201);
      expectStatus(await asDeveloper(unreviewed.sha), 201);
      await new Promise((r) => setTimeout(r, 500));
      assert.equal((await mrOf(mr.iid)).state, 'opened');
      expectStatus(await api(`/projects/${project.id}/repository/files/auto-dev-unreviewed.txt?ref=main`), 404);
    } finally {
      dev.remove();
    }
  });

  it('POST …/cancel_merge_when_pipeline_succeeds: 201 {"status":"success"}, then the platform’s refusal body; a Reporter 403', async () => {
    const source = await commitTo(project.id, 'auto-four', { 'auto-four.txt': 'four\n' });
    const mr = await openMergeRequest(project.id, 'auto-four', 'Auto four');
    expectStatus(await report(source, 'auto-four', 'running'), 201);
    expectStatus(await merge(mr.iid, { auto_merge: true }, maintainer.token), 200);
    const reporterUser = await userWithRole((await api(`/projects/${project.id}`)).body.namespace.id, 20);
    expectStatus(await cancel(mr.iid, reporterUser.token), 403);
    const res = await cancel(mr.iid, developer.token);
    expectStatus(res, 201);
    assert.deepEqual(res.body, { status: 'success' });
    const canceled = await mrOf(mr.iid);
    assert.equal(canceled.merge_when_pipeline_succeeds, false);
    assert.equal(canceled.merge_user, null);
    assert.equal(canceled.detailed_merge_status, 'mergeable');
    assert.ok((await notes(mr.iid)).includes('canceled the automatic merge'));
    const again = await cancel(mr.iid);
    expectStatus(again, 201);
    assert.deepEqual(again.body, { status: 'error', message: "Can't cancel the automatic merge", http_status: 406 });
    expectStatus(await report(source, 'auto-four', 'success'), 201);
    await new Promise((r) => setTimeout(r, 500));
    assert.equal((await mrOf(mr.iid)).state, 'opened');
    expectStatus(await cancel(99999), 404);
  });

  it('with no pipeline running: 405 without any pipeline, a merge at once when it already passed; closing aborts a set one', async () => {
    const source = await commitTo(project.id, 'auto-five', { 'auto-five.txt': 'five\n' });
    const mr = await openMergeRequest(project.id, 'auto-five', 'Auto five');
    const refused = await merge(mr.iid, { auto_merge: true }, maintainer.token);
    expectStatus(refused, 405);
    assert.equal((await mrOf(mr.iid)).merge_when_pipeline_succeeds, false);
    expectStatus(await report(source, 'auto-five', 'failed'), 201);
    expectStatus(await merge(mr.iid, { merge_when_pipeline_succeeds: true }, maintainer.token), 405);
    expectStatus(await report(source, 'auto-five', 'success'), 201);
    const now = await merge(mr.iid, { merge_when_pipeline_succeeds: true }, maintainer.token);
    expectStatus(now, 200);
    assert.equal(now.body.state, 'merged');

    const six = await commitTo(project.id, 'auto-six', { 'auto-six.txt': 'six\n' });
    const closing = await openMergeRequest(project.id, 'auto-six', 'Auto six');
    expectStatus(await report(six, 'auto-six', 'running'), 201);
    expectStatus(await merge(closing.iid, { auto_merge: true }, maintainer.token), 200);
    expectStatus(await api(`/projects/${project.id}/merge_requests/${closing.iid}`, { method: 'PUT', json: { state_event: 'close' } }), 200);
    const closed = await mrOf(closing.iid);
    assert.equal(closed.merge_when_pipeline_succeeds, false);
    assert.ok((await notes(closing.iid)).includes('aborted the automatic merge because the merge request was closed'));
  });
});

describe('PUT /projects/:id merge checks: pipelines must succeed, squash option, source branch removal, default branch', () => {
  const report = (sha: string, ref: string, state: string) => api(`/projects/${project.id}/statuses/${sha}`, { method: 'POST', json: { state, ref, name: 'ci' } });
  const put = (json: object, token?: string) => api(`/projects/${project.id}`, { method: 'PUT', json, token });
  after(async () => {
    expectStatus(await put({ only_allow_merge_if_pipeline_succeeds: false, squash_option: 'default_off', remove_source_branch_after_merge: true, merge_pipelines_enabled: false, default_branch: 'main' }), 200);
  });

  it('stores and shows the settings; refuses a default branch the repository lacks and a squash option it does not know', async () => {
    const res = await put({ only_allow_merge_if_pipeline_succeeds: true, squash_option: 'always', remove_source_branch_after_merge: false, merge_pipelines_enabled: true }, maintainer.token);
    expectStatus(res, 200);
    assert.equal(res.body.only_allow_merge_if_pipeline_succeeds, true);
    assert.equal(res.body.squash_option, 'always');
    assert.equal(res.body.remove_source_branch_after_merge, false);
    assert.equal(res.body.merge_pipelines_enabled, true);
    const shown = (await api(`/projects/${project.id}`)).body;
    assert.equal(shown.only_allow_merge_if_pipeline_succeeds, true);
    assert.equal(shown.squash_option, 'always');
    expectStatus(await put({ squash_option: 'sometimes' }), 400);
    expectStatus(await put({ only_allow_merge_if_pipeline_succeeds: true }, developer.token), 403);
    const missing = await put({ default_branch: 'no-such-branch' });
    expectStatus(missing, 400);
    assert.equal(missing.body.message, "Could not set the default branch. Do you have a branch named 'no-such-branch' in your repository?");
    assert.equal((await api(`/projects/${project.id}`)).body.default_branch, 'main');
    await commitTo(project.id, 'stable', { 'stable.txt': 'stable\n' });
    const moved = await put({ default_branch: 'stable' });
    expectStatus(moved, 200);
    assert.equal(moved.body.default_branch, 'stable');
    expectStatus(await put({ default_branch: 'main' }), 200);
  });

  it('only_allow_merge_if_pipeline_succeeds: 405 without a pipeline and while it runs (ci_still_running), a merge once it passed; squash_option always squashes', async () => {
    expectStatus(await put({ only_allow_merge_if_pipeline_succeeds: true, squash_option: 'always' }), 200);
    const source = await commitTo(project.id, 'strict', { 'strict.txt': 'strict\n' });
    const mr = await openMergeRequest(project.id, 'strict', 'Strict');
    const none = await merge(mr.iid, {}, maintainer.token);
    expectStatus(none, 405);
    assert.equal((await api(`/projects/${project.id}/merge_requests/${mr.iid}`)).body.detailed_merge_status, 'ci_must_pass');
    expectStatus(await report(source, 'strict', 'running'), 201);
    expectStatus(await merge(mr.iid, {}, maintainer.token), 405);
    assert.equal((await api(`/projects/${project.id}/merge_requests/${mr.iid}`)).body.detailed_merge_status, 'ci_still_running');
    expectStatus(await report(source, 'strict', 'success'), 201);
    assert.equal((await api(`/projects/${project.id}/merge_requests/${mr.iid}`)).body.detailed_merge_status, 'mergeable');
    const res = await merge(mr.iid, { squash: false }, maintainer.token);
    expectStatus(res, 200);
    assert.equal(res.body.state, 'merged');
    assert.ok(res.body.squash_commit_sha, 'squash_option always squashes whatever the caller asked');
  });
});

describe('auto_merge and the merge user’s role at merge time', () => {
  it('a merge user who lost the role by the time the pipeline passes does not merge: the auto-merge is aborted with the reason', async () => {
    const group = (await api(`/projects/${project.id}`)).body.namespace.id as number;
    const leaving = await userWithRole(group, 40);
    const source = await commitTo(project.id, 'auto-seven', { 'auto-seven.txt': 'seven\n' });
    const mr = await openMergeRequest(project.id, 'auto-seven', 'Auto seven');
    expectStatus(await api(`/projects/${project.id}/statuses/${source}`, { method: 'POST', json: { state: 'running', ref: 'auto-seven', name: 'ci' } }), 201);
    expectStatus(await merge(mr.iid, { auto_merge: true }, leaving.token), 200);
    expectStatus(await api(`/groups/${group}/members/${leaving.user.id}`, { method: 'PUT', json: { access_level: 20 } }), 200);
    expectStatus(await api(`/projects/${project.id}/statuses/${source}`, { method: 'POST', json: { state: 'success', ref: 'auto-seven', name: 'ci' } }), 201);
    const notes = async () => ((await api(`/projects/${project.id}/merge_requests/${mr.iid}/notes?per_page=100`)).body as { body: string }[]).map((n) => n.body);
    await eventually(async () => (await notes()).includes('aborted the automatic merge because the user who set it may no longer merge it'), 'the abort note');
    const shown = (await api(`/projects/${project.id}/merge_requests/${mr.iid}`)).body;
    assert.deepEqual([shown.state, shown.merge_when_pipeline_succeeds], ['opened', false]);
  });
});
