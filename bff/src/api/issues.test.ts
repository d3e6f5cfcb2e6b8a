import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { issue } from '../../../shared/src/issues.ts';
import { ACCESS_LEVELS as L } from '../../../shared/src/roles.ts';
import { buildGroup, buildProject, expectShape, expectStatus, request as api, startTestServer, userWithRole, type TestServer } from '../../test/harness.ts';
import { expectPlatformSchema } from '../../test/platform-schemas.ts';

let server: TestServer;
let group: { id: number; full_path: string };
let project: { id: number; path_with_namespace: string };
let reporter: Awaited<ReturnType<typeof userWithRole>>;
let guest: Awaited<ReturnType<typeof userWithRole>>;

before(async () => {
  server = await startTestServer();
  group = await buildGroup();
  project = await buildProject(group.id);
  [reporter, guest] = await Promise.all([userWithRole(group.id, L.reporter), userWithRole(group.id, L.guest)]);
});
after(async () => {
  await server.close();
});

const issues = (p = project) => `/projects/${p.id}/issues`;

describe('POST /projects/:id/issues', () => {
  it('opens an issue numbered in its project, with labels made on the fly, and shows it as the platform does', async () => {
    const res = await api(issues(), { method: 'POST', json: { title: 'Crash on start', description: '- [x] reproduce\n- [ ] fix', labels: 'bug,p1', weight: 3, due_date: '2030-01-31', assignee_ids: [reporter.user.id] } });
    expectStatus(res, 201);
    const body = expectShape(issue, res.body);
    expectPlatformSchema('public_api/v4/issue.json', res.body);
    assert.equal(body.iid, 1);
    assert.equal(body.project_id, project.id);
    assert.equal(body.state, 'opened');
    assert.deepEqual(body.labels, ['bug', 'p1']);
    assert.equal(body.weight, 3);
    assert.equal(body.due_date, '2030-01-31');
    assert.deepEqual(body.assignees.map((a) => a.id), [reporter.user.id]);
    assert.deepEqual(body.task_completion_status, { count: 2, completed_count: 1 });
    assert.equal(body.references.full, `${project.path_with_namespace}#1`);
    assert.match(body.web_url, new RegExp(`/${project.path_with_namespace}/-/issues/1$`));

    const second = await api(issues(), { method: 'POST', json: { title: 'Second' } });
    expectStatus(second, 201);
    assert.equal(second.body.iid, 2);
  });

  it('as a Guest, opens an issue but its triage fields (labels, assignees, weight) are ignored', async () => {
    const res = await api(issues(), { method: 'POST', token: guest.token, json: { title: 'From a guest', labels: ['bug'], weight: 5, assignee_ids: [guest.user.id] } });
    expectStatus(res, 201);
    assert.deepEqual(res.body.labels, []);
    assert.equal(res.body.weight, null);
    assert.deepEqual(res.body.assignees, []);
    assert.equal(res.body.author.id, guest.user.id);
  });

  it('with invalid parameters: 400 naming the field, and nothing made', async () => {
    const before = await api(`${issues()}?per_page=100`);
    for (const [json, field] of [[{}, 'title'], [{ title: 'x', due_date: '2030-02-30' }, 'due_date'], [{ title: 'x', weight: -1 }, 'weight'], [{ title: 'x', milestone_id: 999999 }, 'milestone_id']] as const) {
      const res = await api(issues(), { method: 'POST', json });
      expectStatus(res, 400);
      assert.ok(JSON.stringify(res.body).includes(field), `${field} in ${res.text}`);
    }
    const after = await api(`${issues()}?per_page=100`);
    assert.equal(after.headers.get('x-total'), before.headers.get('x-total'));
  });

  it('for an unknown project: 404', async () => {
    const res = await api('/projects/999999/issues', { method: 'POST', json: { title: 'x' } });
    expectStatus(res, 404);
  });
});

describe('GET /projects/:id/issues/:issue_iid', () => {
  it('answers the issue; an unknown iid is 404 Issue Not Found', async () => {
    const res = await api(`${issues()}/1`);
    expectStatus(res, 200);
    assert.equal(expectShape(issue, res.body).title, 'Crash on start');
    const missing = await api(`${issues()}/9999`);
    expectStatus(missing, 404);
    assert.equal(missing.body.message, '404 Issue Not Found');
  });

  it('hides a confidential issue from a Guest who neither wrote it nor is assigned', async () => {
    const secret = await api(issues(), { method: 'POST', json: { title: 'Secret', confidential: true } });
    expectStatus(secret, 201);
    assert.equal(secret.body.confidential, true);
    expectStatus(await api(`${issues()}/${secret.body.iid}`, { token: guest.token }), 404);
    expectStatus(await api(`${issues()}/${secret.body.iid}`, { token: reporter.token }), 200);
  });
});
