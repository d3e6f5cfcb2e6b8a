import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { issue } from '../../../shared/src/issues.ts';
import { ACCESS_LEVELS as L } from '../../../shared/src/roles.ts';
import { addMember, buildGroup, buildProject, expectShape, expectStatus, request as api, startTestServer, userWithRole, type TestServer } from '../../test/harness.ts';
import { expectPlatformSchema } from '../../test/platform-schemas.ts';
import { startReceiver, type Receiver } from '../../test/receiver.ts';
import { z } from 'zod';

let server: TestServer;
let group: { id: number; full_path: string };
let project: { id: number; path_with_namespace: string };
let reporter: Awaited<ReturnType<typeof userWithRole>>;
let guest: Awaited<ReturnType<typeof userWithRole>>;
let receiver: Receiver;

before(async () => {
  server = await startTestServer();
  receiver = await startReceiver();
  expectStatus(await api('/application/settings', { method: 'PUT', json: { allow_local_requests_from_web_hooks_and_services: true } }), 200);
  group = await buildGroup();
  project = await buildProject(group.id);
  [reporter, guest] = await Promise.all([userWithRole(group.id, L.reporter), userWithRole(group.id, L.guest)]);
});
after(async () => {
  await receiver.close();
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

describe('GET /projects/:id/issues', () => {
  it('filters by state, labels, search, iids, assignee and author, and pages with the platform headers', async () => {
    const list = async (q: string, token?: string) => {
      const res = await api(`${issues()}?${q}`, { token });
      expectStatus(res, 200);
      return expectShape(z.array(issue), res.body).map((i) => i.iid);
    };
    assert.deepEqual(await list('labels=bug'), [1]);
    assert.deepEqual(await list('labels=bug,nope'), []);
    assert.deepEqual(await list('search=crash'), [1]);
    assert.deepEqual(await list('iids[]=2&iids[]=1'), [2, 1]);
    assert.deepEqual(await list(`assignee_id=${reporter.user.id}`), [1]);
    assert.deepEqual(await list(`author_username=${guest.user.username}`), [3]);
    assert.deepEqual(await list('order_by=created_at&sort=asc&per_page=2'), [1, 2]);
    const page = await api(`${issues()}?per_page=1&page=2`);
    assert.equal(page.headers.get('x-page'), '2');
    assert.ok(Number(page.headers.get('x-total')) >= 3);
    // The guest does not see the confidential issue; the reporter does.
    const secret = (await list('confidential=true', reporter.token))[0];
    assert.ok(secret);
    assert.ok(!(await list('per_page=100', guest.token)).includes(secret));
  });
});

describe('GET /groups/:id/issues', () => {
  it('lists the issues of the group’s projects with each project’s links', async () => {
    const res = await api(`/groups/${group.id}/issues?labels=p1`);
    expectStatus(res, 200);
    const [only] = expectShape(z.array(issue), res.body);
    assert.equal(only.project_id, project.id);
    assert.match(only.web_url, new RegExp(`/${project.path_with_namespace}/-/issues/1$`));
  });

  it('shows a confidential issue to whom the issue’s own route shows it, project by project', async () => {
    const other = await buildProject(group.id);
    const secret = await api(issues(other), { method: 'POST', json: { title: 'Key in the logs', confidential: true } });
    expectStatus(secret, 201);
    const titles = async (token: string) => {
      const res = await api(`/groups/${group.id}/issues?confidential=true&per_page=100`, { token });
      expectStatus(res, 200);
      return expectShape(z.array(issue), res.body).filter((i) => i.project_id === other.id).map((i) => i.title);
    };
    // A Reporter of the project, Guest of the group: the project's route shows them the issue, so does the group's list.
    const projectReporter = await userWithRole(group.id, L.guest);
    await addMember('projects', other.id, projectReporter.user.id, L.reporter);
    expectStatus(await api(`${issues(other)}/${secret.body.iid}`, { token: projectReporter.token }), 200);
    assert.deepEqual(await titles(projectReporter.token), ['Key in the logs']);
    // A Guest is refused it on both.
    expectStatus(await api(`${issues(other)}/${secret.body.iid}`, { token: guest.token }), 404);
    assert.deepEqual(await titles(guest.token), []);
  });
});

describe('PUT /projects/:id/issues/:issue_iid', () => {
  it('edits, adds and removes labels, closes and reopens (one state event each), and fires issue events to a real receiver', async () => {
    expectStatus(await api(`/projects/${project.id}/hooks`, { method: 'POST', json: { url: `${receiver.url}/issues`, issues_events: true, push_events: false } }), 201);
    const made = await api(issues(), { method: 'POST', json: { title: 'Hooked', labels: ['a'] } });
    const iid = made.body.iid;
    const edited = await api(`${issues()}/${iid}`, { method: 'PUT', json: { title: 'Hooked, renamed', add_labels: 'b', remove_labels: 'a', weight: 2 } });
    expectStatus(edited, 200);
    assert.deepEqual(edited.body.labels, ['b']);
    assert.equal(edited.body.title, 'Hooked, renamed');
    const closed = await api(`${issues()}/${iid}`, { method: 'PUT', json: { state_event: 'close' } });
    expectStatus(closed, 200);
    assert.equal(closed.body.state, 'closed');
    assert.equal(closed.body.closed_by.id, 1);
    assert.ok(closed.body.closed_at);
    const reopened = await api(`${issues()}/${iid}`, { method: 'PUT', json: { state_event: 'reopen' } });
    assert.equal(reopened.body.state, 'opened');
    assert.equal(reopened.body.closed_at, null);

    const deliveries = await receiver.waitFor(4, 15_000);
    const actions = deliveries.filter((d) => d.json?.object_attributes?.iid === iid).map((d) => d.json.object_attributes.action);
    assert.deepEqual(actions, ['open', 'update', 'close', 'reopen']);
    const update = deliveries.find((d) => d.json.object_attributes.action === 'update')!;
    assert.equal(update.headers['x-gitlab-event'] ?? update.headers['x-service-event'], 'Issue Hook');
    assert.equal(update.json.object_kind, 'issue');
    assert.deepEqual(update.json.changes.title, { previous: 'Hooked', current: 'Hooked, renamed' });
    assert.deepEqual(update.json.labels.map((l: { title: string }) => l.title), ['b']);
  });

  it('as a Guest who did not write the issue: 403, and nothing changed', async () => {
    const res = await api(`${issues()}/1`, { method: 'PUT', token: guest.token, json: { title: 'Hijacked' } });
    expectStatus(res, 403);
    assert.equal((await api(`${issues()}/1`)).body.title, 'Crash on start');
  });
});

describe('closing by commit message', () => {
  it('closes "Closes #N" and "fixes #M" issues when the commit lands on the default branch, with the commit as the source', async () => {
    const a = (await api(issues(), { method: 'POST', json: { title: 'Closed by commit' } })).body.iid;
    const b = (await api(issues(), { method: 'POST', json: { title: 'Fixed by commit' } })).body.iid;
    const commit = await api(`/projects/${project.id}/repository/commits`, {
      method: 'POST',
      json: { branch: 'main', commit_message: `Handle it\n\nCloses #${a}, fixes #${b}`, actions: [{ action: 'create', file_path: 'x.txt', content: 'x' }] },
    });
    expectStatus(commit, 201);
    for (const iid of [a, b]) {
      const got = await api(`${issues()}/${iid}`);
      assert.equal(got.body.state, 'closed', `#${iid}`);
    }
    const events = await server.running.db.selectFrom('resource_state_events').innerJoin('issues', 'issues.id', 'resource_state_events.issue_id').select(['resource_state_events.source_commit', 'resource_state_events.state']).where('issues.project_id', '=', project.id).where('issues.iid', '=', a).execute();
    assert.deepEqual(events, [{ source_commit: commit.body.id, state: 'closed' }]);
  });
});

describe('DELETE /projects/:id/issues/:issue_iid', () => {
  it('as a Reporter: 403; as the administrator: 204 and the issue is gone', async () => {
    const iid = (await api(issues(), { method: 'POST', json: { title: 'To delete' } })).body.iid;
    expectStatus(await api(`${issues()}/${iid}`, { method: 'DELETE', token: reporter.token }), 403);
    expectStatus(await api(`${issues()}/${iid}`, { method: 'DELETE' }), 204);
    expectStatus(await api(`${issues()}/${iid}`), 404);
  });
});
