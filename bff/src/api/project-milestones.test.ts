import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { milestone, projectMilestone } from '../../../shared/src/group-milestones.ts';
import { burndownEvent } from '../../../shared/src/burndown.ts';
import { buildGroup, buildProject, expectShape, expectStatus, request as api, startTestServer, userWithRole, type TestServer } from '../../test/harness.ts';
import { expectPlatformSchema } from '../../test/platform-schemas.ts';
import { startReceiver, type Receiver } from '../../test/receiver.ts';

/* Project milestones: the group milestones' routes written for projects (api/group-milestones.ts). */
let server: TestServer;
let receiver: Receiver;
let parent: { id: number; full_path: string };
let group: { id: number; full_path: string };
let project: { id: number; path_with_namespace: string };
let other: { id: number };
let guest: Awaited<ReturnType<typeof userWithRole>>;
let reporter: Awaited<ReturnType<typeof userWithRole>>;

const milestones = (p: { id: number } = project) => `/projects/${p.id}/milestones`;

before(async () => {
  server = await startTestServer();
  receiver = await startReceiver();
  await api('/application/settings', { method: 'PUT', json: { allow_local_requests_from_web_hooks_and_services: true } });
  parent = await buildGroup();
  group = await buildGroup({ parent_id: parent.id });
  project = (await buildProject(group.id)) as unknown as typeof project;
  other = await buildProject(group.id);
  guest = await userWithRole(group.id, 10);
  reporter = await userWithRole(group.id, 20);
  expectStatus(await api(`/projects/${project.id}/hooks`, { method: 'POST', json: { url: `${receiver.url}/milestones`, milestone_events: true, push_events: false } }), 201);
});
after(async () => {
  await receiver.close();
  await server.close();
});

describe('POST /projects/:id/milestones', () => {
  it('as a Reporter: creates a milestone numbered in the project, with project_id, and tells the project’s hooks', async () => {
    const res = await api(milestones(), { method: 'POST', token: reporter.token, json: { title: 'p1.0', description: 'First', due_date: '2099-01-31' } });
    expectStatus(res, 201);
    const m = expectShape(projectMilestone, res.body);
    assert.deepEqual([m.iid, m.state, m.project_id, m.expired, 'group_id' in res.body], [1, 'active', project.id, false, false]);
    assert.equal(m.web_url, `${server.url}/${project.path_with_namespace}/-/milestones/1`);
    expectPlatformSchema('public_api/v4/milestone.json', m);
    const [got] = await receiver.waitFor(1);
    assert.deepEqual([got.json.object_kind, got.json.action, got.json.object_attributes.project_id, got.json.project?.id], ['milestone', 'create', project.id, project.id]);
    // Each project numbers its own, and the same title may live in two projects.
    const second = await api(milestones(other), { method: 'POST', json: { title: 'p1.0' } });
    expectStatus(second, 201);
    assert.equal(second.body.iid, 1);
  });

  it('refuses a Guest (403), a taken title and dates out of order (400), writing nothing', async () => {
    expectStatus(await api(milestones(), { method: 'POST', token: guest.token, json: { title: 'guest' } }), 403);
    const taken = await api(milestones(), { method: 'POST', json: { title: 'p1.0' } });
    expectStatus(taken, 400);
    assert.deepEqual(taken.body, { message: { title: ['has already been taken'] } });
    expectStatus(await api(milestones(), { method: 'POST', json: { title: 'dates', start_date: '2030-02-01', due_date: '2030-01-01' } }), 400);
    expectStatus(await api(milestones(), { method: 'POST', json: {} }), 400);
    const list = await api(milestones());
    assert.deepEqual(list.body.map((m: { title: string }) => m.title), ['p1.0']);
  });
});

describe('GET /projects/:id/milestones', () => {
  it('lists the project’s own, and its groups’ with include_ancestors or include_parent_milestones', async () => {
    expectStatus(await api(`/groups/${group.id}/milestones`, { method: 'POST', json: { title: 'group-level' } }), 201);
    expectStatus(await api(`/groups/${parent.id}/milestones`, { method: 'POST', json: { title: 'parent-level' } }), 201);
    const own = await api(milestones());
    expectStatus(own, 200);
    assert.deepEqual(expectShape(z.array(milestone), own.body).map((m) => m.title), ['p1.0']);
    for (const flag of ['include_ancestors', 'include_parent_milestones']) {
      const all = await api(`${milestones()}?${flag}=true`);
      expectStatus(all, 200);
      const items = expectShape(z.array(milestone), all.body);
      assert.deepEqual(items.map((m) => m.title).sort(), ['group-level', 'p1.0', 'parent-level']);
      const g = all.body.find((m: { title: string }) => m.title === 'group-level');
      assert.equal(g.group_id, group.id);
      assert.equal(g.web_url, `${server.url}/groups/${group.full_path}/-/milestones/1`);
    }
    const active = await api(`${milestones()}?state=closed`);
    assert.deepEqual(active.body, []);
    const searched = await api(`${milestones()}?include_ancestors=true&search=parent`);
    assert.deepEqual(searched.body.map((m: { title: string }) => m.title), ['parent-level']);
  });

  it('gets one of the project’s own by id, not a group’s (404)', async () => {
    const [m] = (await api(milestones())).body;
    const got = await api(`${milestones()}/${m.id}`);
    expectStatus(got, 200);
    assert.equal(got.body.title, 'p1.0');
    const groupOne = (await api(`/groups/${group.id}/milestones`)).body[0];
    const notOwn = await api(`${milestones()}/${groupOne.id}`);
    expectStatus(notOwn, 404);
    assert.deepEqual(notOwn.body, { message: '404 Milestone Not Found' });
    expectStatus(await api(`${milestones()}/99999999`), 404);
  });
});

describe('PUT and DELETE /projects/:id/milestones/:milestone_id', () => {
  it('updates, closes and deletes as a Reporter; a Guest is refused', async () => {
    const made = (await api(milestones(), { method: 'POST', json: { title: 'to change' } })).body;
    expectStatus(await api(`${milestones()}/${made.id}`, { method: 'PUT', token: guest.token, json: { title: 'nope' } }), 403);
    const closed = await api(`${milestones()}/${made.id}`, { method: 'PUT', token: reporter.token, json: { title: 'changed', state_event: 'close' } });
    expectStatus(closed, 200);
    assert.deepEqual([closed.body.title, closed.body.state, closed.body.project_id], ['changed', 'closed', project.id]);
    expectStatus(await api(`${milestones()}/${made.id}`, { method: 'DELETE', token: guest.token }), 403);
    expectStatus(await api(`${milestones()}/${made.id}`, { method: 'DELETE', token: reporter.token }), 204);
    expectStatus(await api(`${milestones()}/${made.id}`), 404);
  });
});

describe('issues, merge requests and burndown of a project milestone', () => {
  it('an issue of the project takes the project’s milestone; another project’s issue cannot', async () => {
    const m = (await api(milestones(), { method: 'POST', json: { title: 'for issues' } })).body;
    const issue = await api(`/projects/${project.id}/issues`, { method: 'POST', json: { title: 'In the milestone', milestone_id: m.id } });
    expectStatus(issue, 201);
    assert.equal(issue.body.milestone.id, m.id);
    assert.equal(issue.body.milestone.project_id, project.id);
    assert.equal(issue.body.milestone.web_url, `${server.url}/${project.path_with_namespace}/-/milestones/${m.iid}`);
    const elsewhere = await api(`/projects/${other.id}/issues`, { method: 'POST', json: { title: 'Not here', milestone_id: m.id } });
    expectStatus(elsewhere, 400);
    const issues = await api(`${milestones()}/${m.id}/issues`);
    expectStatus(issues, 200);
    assert.deepEqual(issues.body.map((i: { title: string }) => i.title), ['In the milestone']);
    const mrs = await api(`${milestones()}/${m.id}/merge_requests`);
    expectStatus(mrs, 200);
    assert.deepEqual(mrs.body, []);
    const burndown = await api(`${milestones()}/${m.id}/burndown_events`);
    expectStatus(burndown, 200);
    const events = expectShape(z.array(burndownEvent), burndown.body);
    assert.deepEqual(events.map((e) => [e.issue_id, e.action]), [[issue.body.id, 'created']]);
  });
});
