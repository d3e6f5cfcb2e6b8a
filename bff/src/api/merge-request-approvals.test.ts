import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildGroup, buildProject, expectStatus, request as api, startTestServer, userWithRole, type TestServer } from '../../test/harness.ts';
import { commitTo, openMergeRequest } from '../../test/merge-fixtures.ts';

let server: TestServer;
let project: { id: number };
let reporter: Awaited<ReturnType<typeof userWithRole>>;
let developer: Awaited<ReturnType<typeof userWithRole>>;
let maintainer: Awaited<ReturnType<typeof userWithRole>>;
let mr: { iid: number; id: number; sha: string };

const path = (iid: number, what: string) => `/projects/${project.id}/merge_requests/${iid}/${what}`;
const approve = (iid: number, token?: string | null, json: object = {}) => api(path(iid, 'approve'), { method: 'POST', json, token });
const unapprove = (iid: number, token?: string | null) => api(path(iid, 'unapprove'), { method: 'POST', json: {}, token });
const approvals = (iid: number, token?: string | null) => api(path(iid, 'approvals'), { token });

before(async () => {
  server = await startTestServer();
  const group = await buildGroup();
  project = await buildProject(group.id);
  reporter = await userWithRole(group.id, 20);
  developer = await userWithRole(group.id, 30);
  maintainer = await userWithRole(group.id, 40);
  await commitTo(project.id, 'main', { 'README.md': '# Approvals\n' }, { message: 'Initial commit' });
  await commitTo(project.id, 'feature', { 'feature.txt': 'one\n' });
  // Opened by the Developer: the author who may not approve their own.
  mr = await openMergeRequest(project.id, 'feature', 'A feature to approve', developer.token);
});
after(() => server.close());

describe('merge request approvals', () => {
  it('starts unapproved, with the platform’s fields and no rules', async () => {
    const res = await approvals(mr.iid, maintainer.token);
    expectStatus(res, 200);
    assert.equal(res.body.iid, mr.iid);
    assert.equal(res.body.project_id, project.id);
    assert.equal(res.body.title, 'A feature to approve');
    assert.equal(res.body.approved, false);
    assert.equal(res.body.approvals_required, 0);
    assert.equal(res.body.approvals_left, 0);
    assert.deepEqual(res.body.approved_by, []);
    assert.equal(res.body.user_has_approved, false);
    assert.equal(res.body.user_can_approve, true);
    assert.deepEqual(res.body.approval_rules_left, []);
    const state = await api(path(mr.iid, 'approval_state'), { token: maintainer.token });
    expectStatus(state, 200);
    assert.deepEqual(state.body, { approval_rules_overwritten: false, rules: [] });
  });

  it('refuses the author (401), a Reporter (403) and the signed-out (401); a stranger’s project is 404', async () => {
    const own = await approvals(mr.iid, developer.token);
    assert.equal(own.body.user_can_approve, false, 'the author may not approve their own');
    expectStatus(await approve(mr.iid, developer.token), 401);
    expectStatus(await approve(mr.iid, reporter.token), 403);
    assert.equal((await approvals(mr.iid, reporter.token)).body.user_can_approve, false);
    expectStatus(await approve(mr.iid, null), 401);
    expectStatus(await approve(999_999, maintainer.token), 404);
    const stranger = await userWithRole((await buildGroup()).id, 30);
    expectStatus(await approve(mr.iid, stranger.token), 404);
    expectStatus(await approvals(mr.iid, stranger.token), 404);
    assert.deepEqual((await approvals(mr.iid, maintainer.token)).body.approved_by, []);
  });

  it('answers 409 when sha is not the source head, and changes nothing', async () => {
    const res = await approve(mr.iid, maintainer.token, { sha: '0'.repeat(40) });
    expectStatus(res, 409);
    assert.equal(res.body.message, `SHA does not match HEAD of source branch: ${mr.sha}`);
    assert.equal((await approvals(mr.iid, maintainer.token)).body.approved, false);
  });

  it('approves (201) with the head sha, once: a second approval is 401; a note and an event record it', async () => {
    const res = await approve(mr.iid, maintainer.token, { sha: mr.sha });
    expectStatus(res, 201);
    assert.equal(res.body.approved, true);
    assert.equal(res.body.user_has_approved, true);
    assert.equal(res.body.user_can_approve, false);
    assert.equal(res.body.approved_by.length, 1);
    assert.equal(res.body.approved_by[0].user.id, maintainer.user.id);
    assert.equal(res.body.approved_by[0].user.username, maintainer.user.username);
    assert.match(res.body.approved_by[0].approved_at, /^\d{4}-\d\d-\d\dT/);
    expectStatus(await approve(mr.iid, maintainer.token), 401);
    // A second approver, without sha.
    const stranger = await userWithRole((await buildGroup()).id, 0);
    await api(`/projects/${project.id}/members`, { method: 'POST', json: { user_id: stranger.user.id, access_level: 30 } });
    expectStatus(await approve(mr.iid, stranger.token), 201);
    const seen = await approvals(mr.iid, developer.token);
    assert.deepEqual(
      seen.body.approved_by.map((a: { user: { id: number } }) => a.user.id),
      [maintainer.user.id, stranger.user.id],
    );
    assert.equal(seen.body.user_has_approved, false);
    const notes = await api(`/projects/${project.id}/merge_requests/${mr.iid}/notes`, { token: maintainer.token });
    assert.equal(notes.body.filter((n: { system: boolean; body: string }) => n.system && n.body === 'approved this merge request').length, 2);
    const events = await api(`/projects/${project.id}/events?action=approved`, { token: maintainer.token });
    expectStatus(events, 200);
    assert.ok(events.body.some((e: { action_name: string; target_iid: number | null }) => e.action_name === 'approved'));
  });

  it('takes an approval back (201), and a second unapprove changes nothing', async () => {
    const res = await unapprove(mr.iid, maintainer.token);
    expectStatus(res, 201);
    assert.equal(res.body.user_has_approved, false);
    assert.equal(res.body.user_can_approve, true);
    assert.equal(res.body.approved_by.length, 1);
    assert.equal(res.body.approved, true, 'the second approver still approves');
    const again = await unapprove(mr.iid, maintainer.token);
    expectStatus(again, 201);
    assert.equal(again.body.approved_by.length, 1);
    expectStatus(await unapprove(mr.iid, reporter.token), 403);
    const notes = await api(`/projects/${project.id}/merge_requests/${mr.iid}/notes`, { token: maintainer.token });
    assert.equal(notes.body.filter((n: { system: boolean; body: string }) => n.system && n.body === 'unapproved this merge request').length, 1);
    // Approving again after taking it back is allowed.
    expectStatus(await approve(mr.iid, maintainer.token), 201);
  });
});
