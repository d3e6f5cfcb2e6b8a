import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { groupMilestone } from '../../../shared/src/group-milestones.ts';
import { burndownEvent } from '../../../shared/src/burndown.ts';
import { buildGroup, buildProject, expectShape, expectStatus, request as api, startTestServer, userWithRole, type TestServer } from '../../test/harness.ts';
import { expectPlatformSchema } from '../../test/platform-schemas.ts';
import { startReceiver, type Receiver } from '../../test/receiver.ts';

let server: TestServer;
let receiver: Receiver;
let parent: { id: number; full_path: string };
let group: { id: number; full_path: string };
let child: { id: number };
let project: { id: number };
let guest: Awaited<ReturnType<typeof userWithRole>>;
let reporter: Awaited<ReturnType<typeof userWithRole>>;
let developer: Awaited<ReturnType<typeof userWithRole>>;

const DAY = 86_400_000;
const today = new Date().toISOString().slice(0, 10);
const daysFrom = (n: number) => new Date(Date.parse(`${today}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);
const milestones = (g: { id: number }) => `/groups/${g.id}/milestones`;
const ids = (body: { id: number }[]) => body.map((m) => m.id);

/** A parent group, the group under test (with a project and a subgroup), its members and a hook on it. */
before(async () => {
  server = await startTestServer();
  receiver = await startReceiver();
  await api('/application/settings', { method: 'PUT', json: { allow_local_requests_from_web_hooks_and_services: true } });
  parent = await buildGroup();
  group = await buildGroup({ parent_id: parent.id });
  child = await buildGroup({ parent_id: group.id });
  project = await buildProject(group.id);
  guest = await userWithRole(group.id, 10);
  reporter = await userWithRole(group.id, 20);
  developer = await userWithRole(group.id, 30);
  expectStatus(await api(`/groups/${group.id}/hooks`, { method: 'POST', json: { url: `${receiver.url}/milestones`, milestone_events: true, push_events: false } }), 201);
});
after(async () => {
  await receiver.close();
  await server.close();
});

const create = async (g: { id: number }, json: Record<string, unknown>, token?: string) => {
  const res = await api(milestones(g), { method: 'POST', token, json });
  expectStatus(res, 201);
  return expectShape(groupMilestone, res.body);
};

describe('POST /groups/:id/milestones', () => {
  it('as a Reporter: creates an active milestone numbered in the group, and tells the group’s hooks', async () => {
    const m = await create(group, { title: 'v1.0', description: 'First', start_date: daysFrom(-10), due_date: daysFrom(10) }, reporter.token);
    assert.deepEqual([m.iid, m.state, m.group_id, m.expired], [1, 'active', group.id, false]);
    assert.equal(m.web_url, `${server.url}/groups/${group.full_path}/-/milestones/1`);
    expectPlatformSchema('public_api/v4/milestone.json', m);
    const [got] = await receiver.waitFor(1);
    assert.equal(got.headers['x-service-event'], 'Milestone Hook');
    assert.deepEqual([got.json.object_kind, got.json.action, got.json.object_attributes.id], ['milestone', 'create', m.id]);
  });
  it('as a Guest: 403, nothing created', async () => {
    expectStatus(await api(milestones(group), { method: 'POST', token: guest.token, json: { title: 'Nope' } }), 403);
    assert.equal((await api(milestones(group), { token: guest.token, json: undefined })).body.length, 1);
  });
  it('with invalid parameters: a missing title, a taken title, a due date before the start', async () => {
    const missing = await api(milestones(group), { method: 'POST', json: {} });
    expectStatus(missing, 400);
    assert.deepEqual(missing.body, { message: 'title is missing' });
    const taken = await api(milestones(group), { method: 'POST', json: { title: 'v1.0' } });
    expectStatus(taken, 400);
    assert.deepEqual(taken.body, { message: { title: ['has already been taken'] } });
    expectStatus(await api(milestones(group), { method: 'POST', json: { title: 'Backwards', start_date: daysFrom(5), due_date: daysFrom(1) } }), 400);
    expectStatus(await api(milestones(group), { method: 'POST', json: { title: 'Bad date', due_date: '2026-02-30' } }), 400);
  });
  it('for an unknown group: 404', async () => {
    expectStatus(await api('/groups/2000000000/milestones', { method: 'POST', json: { title: 'x' } }), 404);
  });
});

describe('GET /groups/:id/milestones', () => {
  let v1: number;
  let later: number;
  let closed: number;
  let inherited: number;
  let below: number;
  before(async () => {
    v1 = (await api(`${milestones(group)}?title=v1.0`)).body[0].id;
    later = (await create(group, { title: 'Autumn release', start_date: daysFrom(60), due_date: daysFrom(90) })).id;
    closed = (await create(group, { title: 'Old release notes', description: 'Autumn leftovers' })).id;
    expectStatus(await api(`${milestones(group)}/${closed}`, { method: 'PUT', json: { state_event: 'close' } }), 200);
    inherited = (await create(parent, { title: 'Company goal' })).id;
    below = (await create(child, { title: 'Team goal' })).id;
  });
  const list = async (query: string, token = guest.token) => {
    const res = await api(`${milestones(group)}${query}`, { token });
    expectStatus(res, 200);
    return expectShape(z.array(groupMilestone), res.body);
  };
  it('as a Guest: the group’s own milestones, by due date', async () => {
    assert.deepEqual(ids(await list('')), [v1, later, closed]);
  });
  it('filters by state, title (exact), search (title or description) and search_title (all terms)', async () => {
    assert.deepEqual(ids(await list('?state=closed')), [closed]);
    assert.deepEqual(ids(await list('?state=active')), [v1, later]);
    assert.deepEqual(ids(await list('?title=Autumn%20release')), [later]);
    assert.deepEqual(ids(await list('?title=autumn%20release')), []);
    assert.deepEqual(ids(await list('?search=AUTUMN')), [later, closed]);
    assert.deepEqual(ids(await list('?search_title=release+old')), [closed]);
    assert.deepEqual(ids(await list('?search_title=release%20autumn')), [later]);
  });
  it('filters by iids[], which include_ancestors overrides', async () => {
    assert.deepEqual(ids(await list('?iids[]=2')), [later]);
    assert.deepEqual(new Set(ids(await list('?iids[]=2&include_ancestors=true'))), new Set([v1, later, closed, inherited]));
  });
  it('includes ancestors (or, deprecated, parent milestones) and descendants when asked', async () => {
    assert.ok(ids(await list('?include_ancestors=true')).includes(inherited));
    assert.ok(ids(await list('?include_parent_milestones=true')).includes(inherited));
    const withBelow = ids(await list('?include_descendants=true'));
    assert.ok(withBelow.includes(below) && !withBelow.includes(inherited));
  });
  it('filters by containing_date, and by start_date with end_date', async () => {
    assert.deepEqual(ids(await list(`?containing_date=${today}`)), [v1]);
    assert.deepEqual(ids(await list(`?start_date=${daysFrom(50)}&end_date=${daysFrom(70)}`)), [later]);
    assert.deepEqual(ids(await list(`?start_date=${daysFrom(-5)}&end_date=${daysFrom(70)}`)), [v1, later]);
  });
  it('filters by updated_before and updated_after', async () => {
    assert.equal((await list('?updated_after=2000-01-01T00:00:00Z')).length, 3);
    assert.equal((await list('?updated_before=2000-01-01T00:00:00Z')).length, 0);
  });
  it('with invalid parameters: start_date without end_date (and the reverse), a bad state', async () => {
    expectStatus(await api(`${milestones(group)}?start_date=${today}`), 400);
    expectStatus(await api(`${milestones(group)}?end_date=${today}`), 400);
    expectStatus(await api(`${milestones(group)}?state=opened`), 400);
  });
  it('without a role in the private group: 404', async () => {
    const stranger = await userWithRole(parent.id, 0);
    expectStatus(await api(milestones(group), { token: stranger.token }), 404);
  });
});

describe('PUT /groups/:id/milestones/:milestone_id', () => {
  let m: z.infer<typeof groupMilestone>;
  before(async () => {
    m = await create(group, { title: 'To edit' });
  });
  it('as a Reporter: edits fields, closes with state_event close and activates again', async () => {
    const edited = await api(`${milestones(group)}/${m.id}`, { method: 'PUT', token: reporter.token, json: { title: 'Edited', due_date: daysFrom(-1) } });
    expectStatus(edited, 200);
    assert.deepEqual([edited.body.title, edited.body.expired], ['Edited', true]);
    const closedRes = await api(`${milestones(group)}/${m.id}`, { method: 'PUT', token: reporter.token, json: { state_event: 'close' } });
    assert.equal(expectShape(groupMilestone, closedRes.body).state, 'closed');
    const reopened = await api(`${milestones(group)}/${m.id}`, { method: 'PUT', token: reporter.token, form: { state_event: 'activate' } });
    assert.equal(reopened.body.state, 'active');
    // Deliveries arrive in their own time: wait for this milestone's four (its creation first).
    const mine = () => receiver.requests.filter((r) => r.json?.object_attributes?.id === m.id).map((r) => r.json.action);
    for (let i = 0; i < 200 && mine().length < 4; i++) await new Promise((r) => setTimeout(r, 25));
    assert.deepEqual(mine().sort(), ['close', 'create', 'reopen', 'update']);
  });
  it('as a Guest: 403, nothing changed', async () => {
    expectStatus(await api(`${milestones(group)}/${m.id}`, { method: 'PUT', token: guest.token, json: { state_event: 'close' } }), 403);
    assert.equal((await api(`${milestones(group)}/${m.id}`)).body.state, 'active');
  });
  it('with invalid parameters: an unknown state_event, a start after the due date', async () => {
    expectStatus(await api(`${milestones(group)}/${m.id}`, { method: 'PUT', json: { state_event: 'reopen' } }), 400);
    const res = await api(`${milestones(group)}/${m.id}`, { method: 'PUT', json: { start_date: daysFrom(5) } });
    expectStatus(res, 400);
    assert.deepEqual(res.body, { message: { due_date: ['must be greater than start date'] } });
  });
  it('for a milestone of another group: 404', async () => {
    const other = await create(parent, { title: 'Elsewhere' });
    const res = await api(`${milestones(group)}/${other.id}`, { method: 'PUT', json: { title: 'x' } });
    expectStatus(res, 404);
    assert.deepEqual(res.body, { message: '404 Milestone Not Found' });
  });
});

describe('DELETE /groups/:id/milestones/:milestone_id', () => {
  it('as a Reporter: 403; as a Developer: deleted, and its issues keep their place without it', async () => {
    const m = await create(group, { title: 'Doomed' });
    const issue = await api(`/projects/${project.id}/issues`, { method: 'POST', json: { title: 'Survivor', milestone_id: m.id } });
    expectStatus(issue, 201);
    expectStatus(await api(`${milestones(group)}/${m.id}`, { method: 'DELETE', token: reporter.token }), 403);
    expectStatus(await api(`${milestones(group)}/${m.id}`, { method: 'DELETE', token: developer.token }), 204);
    expectStatus(await api(`${milestones(group)}/${m.id}`), 404);
    const after = await api(`/projects/${project.id}/issues/${issue.body.iid}`);
    expectStatus(after, 200);
    assert.equal(after.body.milestone, null);
  });
});

describe('GET /groups/:id/milestones/:milestone_id/issues, merge_requests and burndown_events', () => {
  let m: z.infer<typeof groupMilestone>;
  const issues: { id: number; iid: number }[] = [];
  before(async () => {
    m = await create(group, { title: 'Charted', start_date: daysFrom(-3), due_date: daysFrom(3) });
    for (const [title, weight] of [['One', 1], ['Two', 2], ['Three', 5]] as const) {
      const res = await api(`/projects/${project.id}/issues`, { method: 'POST', json: { title, milestone_id: m.id, weight } });
      expectStatus(res, 201);
      issues.push(res.body);
    }
    const elsewhere = await buildProject(child.id);
    expectStatus(await api(`/projects/${elsewhere.id}/issues`, { method: 'POST', json: { title: 'In a subgroup' } }), 201);
  });
  it('as a Guest: the milestone’s issues', async () => {
    const res = await api(`${milestones(group)}/${m.id}/issues`, { token: guest.token });
    expectStatus(res, 200);
    assert.deepEqual(res.body.map((i: { id: number }) => i.id).sort(), issues.map((i) => i.id).sort());
  });
  it('as a Guest: the milestone’s merge requests (none yet)', async () => {
    const res = await api(`${milestones(group)}/${m.id}/merge_requests`, { token: guest.token });
    expectStatus(res, 200);
    assert.deepEqual(res.body, []);
  });
  it('burndown events follow joining, closing, reopening, weight changes and leaving', async () => {
    const at = (iid: number) => `/projects/${project.id}/issues/${iid}`;
    expectStatus(await api(at(issues[0].iid), { method: 'PUT', json: { state_event: 'close' } }), 200);
    expectStatus(await api(at(issues[1].iid), { method: 'PUT', json: { weight: 3 } }), 200);
    expectStatus(await api(at(issues[2].iid), { method: 'PUT', json: { milestone_id: null } }), 200);
    const res = await api(`${milestones(group)}/${m.id}/burndown_events`, { token: guest.token });
    expectStatus(res, 200);
    const events = expectShape(z.array(burndownEvent), res.body);
    const of = (issue: { id: number }) => events.filter((e) => e.issue_id === issue.id).map((e) => [e.action, e.weight]);
    // A weight given at creation may be recorded as a weight event too; joining and closing carry it.
    assert.deepEqual(of(issues[0]).filter(([a]) => a !== 'weight'), [['created', 1], ['closed', 1]]);
    assert.deepEqual(of(issues[1]).at(-1), ['weight', 3]);
    assert.deepEqual(of(issues[2]).at(-1), ['removed', 5]);
    assert.deepEqual(events.map((e) => e.created_at), [...events.map((e) => e.created_at)].sort());
  });
  it('shows, to each caller, only the issues the issue list shows them: none of a private project’s, no confidential one below Reporter', async () => {
    const open = await buildGroup({ visibility: 'public' });
    const [publicProject, privateProject] = [await buildProject(open.id, { visibility: 'public' }), await buildProject(open.id)];
    const planned = await create(open, { title: 'Public plan' });
    const made: Record<string, number> = {};
    for (const [name, p, confidential] of [['plain', publicProject, false], ['confidential', publicProject, true], ['private', privateProject, false]] as const) {
      const res = await api(`/projects/${p.id}/issues`, { method: 'POST', json: { title: name, milestone_id: planned.id, confidential, weight: 2 } });
      expectStatus(res, 201);
      made[name] = res.body.id;
    }
    const seenBy = async (token: string | null) => {
      const res = await api(`${milestones(open)}/${planned.id}/burndown_events`, { token });
      expectStatus(res, 200);
      const shown = new Set(expectShape(z.array(burndownEvent), res.body).map((e) => e.issue_id));
      return Object.keys(made).filter((name) => shown.has(made[name]));
    };
    const listed = async (token: string | null) => {
      const res = await api(`/groups/${open.id}/issues?milestone=${encodeURIComponent('Public plan')}`, { token });
      expectStatus(res, 200);
      return (res.body as { title: string }[]).map((i) => i.title).sort();
    };
    // Anonymous callers and signed-in outsiders: the issue list shows them the public, non-confidential issue only.
    const outsider = await userWithRole(open.id, 0);
    for (const token of [null, outsider.token]) {
      assert.deepEqual(await listed(token), ['plain']);
      assert.deepEqual(await seenBy(token), ['plain']);
    }
    const openReporter = await userWithRole(open.id, 20);
    assert.deepEqual(await seenBy(openReporter.token), ['plain', 'confidential', 'private']);
    // The milestone's issue list follows the same rule.
    const res = await api(`${milestones(open)}/${planned.id}/issues`, { token: null });
    expectStatus(res, 200);
    assert.deepEqual(res.body.map((i: { title: string }) => i.title), ['plain']);
  });
  it('for an unknown milestone: 404', async () => {
    const res = await api(`${milestones(group)}/2000000000/burndown_events`);
    expectStatus(res, 404);
    assert.deepEqual(res.body, { message: '404 Milestone Not Found' });
  });
});
