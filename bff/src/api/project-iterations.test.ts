import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { iterationCadence, projectIteration, ITERATION_STATES, iterationStateOn } from '../../../shared/src/iterations.ts';
import { buildGroup, buildProject, expectShape, expectStatus, request as api, startTestServer, userWithRole, type TestServer } from '../../test/harness.ts';

let server: TestServer;
let parent: { id: number; full_path: string };
let child: { id: number; full_path: string };
let below: { id: number };
let project: { id: number };
let reporter: Awaited<ReturnType<typeof userWithRole>>;
let guest: Awaited<ReturnType<typeof userWithRole>>;

const DAY = 86_400_000;
const today = new Date().toISOString().slice(0, 10);
const daysFrom = (n: number) => new Date(Date.parse(`${today}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);
const ids = (body: { id: number }[]) => body.map((i) => i.id).sort((a, b) => a - b);

/** A parent group with an automatic cadence, its subgroup (the project's) with a manual one, and a group below. */
before(async () => {
  server = await startTestServer();
  parent = await buildGroup();
  child = await buildGroup({ parent_id: parent.id });
  below = await buildGroup({ parent_id: child.id });
  project = await buildProject(child.id);
  reporter = await userWithRole(parent.id, 20);
  guest = await userWithRole(parent.id, 10);
});
after(() => server.close());

const cadences = (g: { id: number }) => `/groups/${g.id}/iteration_cadences`;

describe('POST /groups/:id/iteration_cadences (ours)', () => {
  it('as a Reporter: an automatic cadence schedules past, current and upcoming iterations with null titles', async () => {
    const res = await api(cadences(parent), { method: 'POST', token: reporter.token, json: { title: 'Sprints', start_date: daysFrom(-14), duration_in_weeks: 1, iterations_in_advance: 2 } });
    expectStatus(res, 201);
    const cadence = expectShape(iterationCadence, res.body);
    assert.equal(cadence.automatic, true);
    const list = await api(`${cadences(parent)}/${cadence.id}/iterations`, { token: guest.token });
    expectStatus(list, 200);
    const its = expectShape(z.array(projectIteration), list.body);
    assert.deepEqual(its.map((i) => [i.start_date, i.due_date]), [-14, -7, 0, 7, 14].map((d) => [daysFrom(d), daysFrom(d + 6)]));
    assert.ok(its.every((i) => i.title === null));
    assert.deepEqual(its.map((i) => i.state), [3, 3, 2, 1, 1]);
    assert.deepEqual(its.map((i) => i.sequence), [1, 2, 3, 4, 5]);
  });
  it('as a Guest: 403, nothing created', async () => {
    const res = await api(cadences(parent), { method: 'POST', token: guest.token, json: { title: 'No', automatic: false } });
    expectStatus(res, 403);
    const list = await api(cadences(parent), { token: guest.token });
    assert.equal(list.body.length, 1);
  });
  it('with invalid parameters: an automatic cadence without its dates is a 400', async () => {
    const res = await api(cadences(parent), { method: 'POST', token: reporter.token, json: { title: 'Half' } });
    expectStatus(res, 400);
    assert.deepEqual(res.body, { message: { start_date: ['is required for an automatic cadence'] } });
  });
});

describe('POST /groups/:id/iteration_cadences/:cadence_id/iterations (ours)', () => {
  let cadenceId = 0;
  before(async () => {
    const res = await api(cadences(child), { method: 'POST', json: { title: 'Releases', automatic: false } });
    expectStatus(res, 201);
    cadenceId = res.body.id;
  });
  it('adds a titled manual iteration', async () => {
    const res = await api(`${cadences(child)}/${cadenceId}/iterations`, { method: 'POST', token: reporter.token, json: { title: 'Release 1', start_date: daysFrom(30), due_date: daysFrom(40) } });
    expectStatus(res, 201);
    const it = expectShape(projectIteration, res.body);
    assert.equal(it.title, 'Release 1');
    assert.equal(it.state, ITERATION_STATES.upcoming);
    assert.equal(it.web_url, `${server.url}/groups/${child.full_path}/-/iterations/${it.id}`);
  });
  it('refuses dates overlapping another iteration of the cadence', async () => {
    const res = await api(`${cadences(child)}/${cadenceId}/iterations`, { method: 'POST', token: reporter.token, json: { start_date: daysFrom(35), due_date: daysFrom(50) } });
    expectStatus(res, 400);
    assert.deepEqual(res.body, { message: { base: ['Dates cannot overlap with other existing Iterations within this iterations cadence'] } });
  });
  it('adds an untitled closed one, and one in a group below the project’s', async () => {
    expectStatus(await api(`${cadences(child)}/${cadenceId}/iterations`, { method: 'POST', json: { start_date: daysFrom(-40), due_date: daysFrom(-31) } }), 201);
    const cad = await api(cadences(below), { method: 'POST', json: { title: 'Below', automatic: false } });
    expectStatus(await api(`${cadences(below)}/${cad.body.id}/iterations`, { method: 'POST', json: { title: 'Deep', start_date: daysFrom(1), due_date: daysFrom(2) } }), 201);
  });
});

describe('GET /projects/:id/iterations', () => {
  const list = async (query: string, token?: string) => {
    const res = await api(`/projects/${project.id}/iterations${query}`, { token });
    expectStatus(res, 200);
    return expectShape(z.array(projectIteration), res.body);
  };
  it('as a Guest: the iterations of the project’s group and its ancestors, by due date', async () => {
    const all = await list('', guest.token);
    assert.equal(all.length, 7);
    assert.deepEqual(new Set(all.map((i) => i.group_id)), new Set([parent.id, child.id]));
    assert.deepEqual(all.map((i) => i.due_date), [...all.map((i) => i.due_date)].sort());
  });
  it('filters by state, computed from the dates', async () => {
    const all = await list('?per_page=100');
    for (const state of ['upcoming', 'current', 'closed'] as const) {
      const got = await list(`?state=${state}`);
      assert.deepEqual(ids(got), ids(all.filter((i) => iterationStateOn(i, today) === state)), state);
      assert.ok(got.length > 0, state);
    }
    assert.deepEqual(ids(await list('?state=opened')), ids(all.filter((i) => iterationStateOn(i, today) !== 'closed')));
    assert.equal((await list('?state=all')).length, all.length);
  });
  it('searches the title, or the cadence title with in[]', async () => {
    assert.deepEqual((await list('?search=release')).map((i) => i.title), ['Release 1']);
    assert.equal((await list('?search=sprints')).length, 0);
    assert.equal((await list('?search=sprints&in[]=cadence_title')).length, 5);
    assert.equal((await list('?search=release&in[]=title&in[]=cadence_title')).length, 2);
  });
  it('leaves ancestors out with include_ancestors=false, and adds descendants with include_descendants', async () => {
    assert.deepEqual(new Set((await list('?include_ancestors=false')).map((i) => i.group_id)), new Set([child.id]));
    assert.ok((await list('?include_descendants=true&per_page=100')).some((i) => i.group_id === below.id));
    assert.ok(!(await list('?per_page=100')).some((i) => i.group_id === below.id));
  });
  it('filters by updated_before and updated_after', async () => {
    assert.equal((await list('?updated_after=2000-01-01T00:00:00Z')).length, 7);
    assert.equal((await list('?updated_before=2000-01-01T00:00:00Z')).length, 0);
  });
  it('without a role in a private project: 404', async () => {
    const stranger = await userWithRole(parent.id, 0);
    const res = await api(`/projects/${project.id}/iterations`, { token: stranger.token });
    expectStatus(res, 404);
  });
  it('with invalid parameters: 400', async () => {
    expectStatus(await api(`/projects/${project.id}/iterations?state=open`), 400);
    expectStatus(await api(`/projects/${project.id}/iterations?in[]=description&search=x`), 400);
  });
});
