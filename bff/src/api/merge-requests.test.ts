import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { mergeRequest, mergeRequestBasic, mergeRequestChanges } from '../../../shared/src/merge-requests.ts';
import { commit } from '../../../shared/src/branches.ts';
import { ACCESS_LEVELS as L } from '../../../shared/src/roles.ts';
import { addMember, buildGroup, buildProject, expectShape, expectStatus, request as api, startTestServer, userWithRole, type TestServer } from '../../test/harness.ts';
import { fillRepository } from '../../test/repository-fixture.ts';

let server: TestServer;
let group: { id: number };
let project: { id: number; path_with_namespace: string };
let shas: { main: string[]; feature: string };
let reporter: Awaited<ReturnType<typeof userWithRole>>;
let developer: Awaited<ReturnType<typeof userWithRole>>;

before(async () => {
  server = await startTestServer();
  group = await buildGroup();
  project = await buildProject(group.id);
  shas = await fillRepository(project.id);
  [reporter, developer] = await Promise.all([userWithRole(group.id, L.reporter), userWithRole(group.id, L.developer)]);
});
after(async () => {
  await server.close();
});

const mrs = () => `/projects/${project.id}/merge_requests`;

describe('POST /projects/:id/merge_requests', () => {
  it('as a Developer, opens a merge request on real branches: sha, diff_refs and statuses as the platform shows them', async () => {
    const res = await api(mrs(), { method: 'POST', token: developer.token, json: { source_branch: 'feature', target_branch: 'main', title: 'Feature work', labels: 'review', reviewer_ids: [reporter.user.id] } });
    expectStatus(res, 201);
    const body = expectShape(mergeRequest, res.body);
    assert.equal(body.iid, 1);
    assert.equal(body.state, 'opened');
    assert.equal(body.sha, shas.feature);
    assert.deepEqual(body.diff_refs, { base_sha: shas.main[2], head_sha: shas.feature, start_sha: shas.main[2] });
    assert.equal(body.detailed_merge_status, 'mergeable');
    assert.deepEqual(body.labels, ['review']);
    assert.deepEqual(body.reviewers.map((r) => r.id), [reporter.user.id]);
    assert.equal(body.references.full, `${project.path_with_namespace}!1`);
  });

  it('answers 409 for a second open merge request of the same branches, and for the same branch as source and target', async () => {
    const again = await api(mrs(), { method: 'POST', json: { source_branch: 'feature', target_branch: 'main', title: 'Again' } });
    expectStatus(again, 409);
    assert.match(JSON.stringify(again.body), /Another open merge request already exists for this source branch: !1/);
    expectStatus(await api(mrs(), { method: 'POST', json: { source_branch: 'main', target_branch: 'main', title: 'Same' } }), 409);
  });

  it('answers 400 naming a branch that does not exist, 400 without a title, and 403 to a Reporter', async () => {
    const missing = await api(mrs(), { method: 'POST', json: { source_branch: 'nope', target_branch: 'main', title: 'x' } });
    expectStatus(missing, 400);
    assert.deepEqual(missing.body.message, { source_branch: ['does not exist'] });
    expectStatus(await api(mrs(), { method: 'POST', json: { source_branch: 'feature', target_branch: 'main' } }), 400);
    expectStatus(await api(mrs(), { method: 'POST', token: reporter.token, json: { source_branch: 'feature', target_branch: 'main', title: 'x' } }), 403);
  });

  it('marks a Draft: title as a draft', async () => {
    await api(`/projects/${project.id}/repository/branches`, { method: 'POST', json: { branch: 'drafty', ref: 'feature' } });
    const res = await api(mrs(), { method: 'POST', json: { source_branch: 'drafty', target_branch: 'main', title: 'Draft: later' } });
    expectStatus(res, 201);
    assert.equal(res.body.draft, true);
    assert.equal(res.body.detailed_merge_status, 'draft_status');
  });
});

describe('GET /projects/:id/merge_requests and the group list', () => {
  it('filters by state, source branch, draft, labels and reviewer', async () => {
    const list = async (q: string, path = mrs()) => {
      const res = await api(`${path}?${q}`);
      expectStatus(res, 200);
      return expectShape(z.array(mergeRequestBasic), res.body).map((m) => m.iid);
    };
    assert.deepEqual(await list('state=opened&order_by=created_at&sort=asc'), [1, 2]);
    assert.deepEqual(await list('source_branch=drafty'), [2]);
    assert.deepEqual(await list('draft=no'), [1]);
    assert.deepEqual(await list('labels=review'), [1]);
    assert.deepEqual(await list(`reviewer_id=${reporter.user.id}`), [1]);
    assert.deepEqual(await list('state=merged'), []);
    assert.deepEqual(await list('labels=review', `/groups/${group.id}/merge_requests`), [1]);
  });

  it('lists in the group only the merge requests the caller reads on their project’s own list', async () => {
    const onGroup = async (token: string) => {
      const res = await api(`/groups/${group.id}/merge_requests?per_page=100`, { token });
      expectStatus(res, 200);
      return expectShape(z.array(mergeRequestBasic), res.body).filter((m) => m.project_id === project.id);
    };
    // A Guest of the group is refused the project's list: the group's shows none of its merge requests (title, branches, sha, description).
    const guest = await userWithRole(group.id, L.guest);
    expectStatus(await api(mrs(), { token: guest.token }), 403);
    assert.deepEqual(await onGroup(guest.token), []);
    // A Reporter of the project itself, Guest of the group, reads them on both.
    const projectReporter = await userWithRole(group.id, L.guest);
    await addMember('projects', project.id, projectReporter.user.id, L.reporter);
    expectStatus(await api(mrs(), { token: projectReporter.token }), 200);
    assert.deepEqual((await onGroup(projectReporter.token)).map((m) => m.iid).sort(), [1, 2]);
    assert.deepEqual((await onGroup(reporter.token)).map((m) => m.iid).sort(), [1, 2]);
  });
});

describe('GET /projects/:id/merge_requests/:merge_request_iid/commits, /changes and /diffs', () => {
  it('lists the merge request’s commits and its changes from the merge base', async () => {
    const commits = await api(`${mrs()}/1/commits`);
    expectStatus(commits, 200);
    assert.deepEqual(expectShape(z.array(commit), commits.body).map((c) => c.id), [shas.feature]);
    const changes = await api(`${mrs()}/1/changes`);
    expectStatus(changes, 200);
    const body = expectShape(mergeRequestChanges, changes.body);
    assert.deepEqual(body.changes.map((c) => c.new_path).sort(), ['README.md', 'src/main.js', 'src/new.js']);
    assert.equal(body.changes_count, '3');
    const diffs = await api(`${mrs()}/1/diffs?per_page=2`);
    expectStatus(diffs, 200);
    assert.equal(diffs.body.length, 2);
    assert.equal(diffs.headers.get('x-total'), '3');
  });

  it('follows a new commit on the source branch', async () => {
    const pushed = await api(`/projects/${project.id}/repository/commits`, { method: 'POST', json: { branch: 'feature', commit_message: 'More', actions: [{ action: 'create', file_path: 'more.txt', content: 'm' }] } });
    expectStatus(pushed, 201);
    const res = await api(`${mrs()}/1`);
    assert.equal(res.body.sha, pushed.body.id);
    assert.equal((await api(`${mrs()}/1/commits`)).body.length, 2);
  });

  it('shows the head pipeline: the newest pipeline of the source branch at its head, none before the CI reports', async () => {
    const before = expectShape(mergeRequest, (await api(`${mrs()}/1`)).body);
    assert.equal(before.head_pipeline, null);
    const reported = await api(`/projects/${project.id}/statuses/${before.sha}`, { method: 'POST', json: { state: 'running', name: 'test', ref: 'feature' } });
    expectStatus(reported, 201);
    const after = expectShape(mergeRequest, (await api(`${mrs()}/1`)).body);
    assert.equal(after.head_pipeline?.id, reported.body.pipeline_id);
    assert.equal(after.head_pipeline?.status, 'running');
    assert.equal(after.head_pipeline?.sha, before.sha);
    assert.match(after.head_pipeline?.web_url ?? '', new RegExp(`/${project.path_with_namespace}/-/pipelines/${reported.body.pipeline_id}$`));
    assert.deepEqual(after.pipeline, after.head_pipeline);
  });
});

describe('PUT /projects/:id/merge_requests/:merge_request_iid', () => {
  it('edits, closes and reopens, recording one state event per change', async () => {
    const edited = await api(`${mrs()}/1`, { method: 'PUT', token: developer.token, json: { title: 'Feature work, edited', add_labels: ['ready'], assignee_ids: [developer.user.id] } });
    expectStatus(edited, 200);
    assert.deepEqual(edited.body.labels, ['ready', 'review']);
    assert.deepEqual(edited.body.assignees.map((a: { id: number }) => a.id), [developer.user.id]);
    const closed = await api(`${mrs()}/1`, { method: 'PUT', json: { state_event: 'close' } });
    assert.equal(closed.body.state, 'closed');
    assert.equal(closed.body.detailed_merge_status, 'not_open');
    const reopened = await api(`${mrs()}/1`, { method: 'PUT', json: { state_event: 'reopen' } });
    assert.equal(reopened.body.state, 'opened');
    const events = await api(`${mrs()}/1/resource_state_events`);
    expectStatus(events, 200);
    assert.deepEqual(events.body.map((e: { state: string }) => e.state), ['closed', 'opened']);
  });

  it('retargets to a branch that does not exist: 400, nothing changed; as a Reporter: 403', async () => {
    const res = await api(`${mrs()}/1`, { method: 'PUT', json: { target_branch: 'nope' } });
    expectStatus(res, 400);
    assert.equal((await api(`${mrs()}/1`)).body.target_branch, 'main');
    expectStatus(await api(`${mrs()}/1`, { method: 'PUT', token: reporter.token, json: { title: 'x' } }), 403);
  });
});
