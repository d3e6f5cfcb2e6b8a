import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { iterationCadence, projectIteration, ITERATION_STATES } from '../../../shared/src/iterations.ts';
import { issue as issueSchema } from '../../../shared/src/issues.ts';
import { resourceIterationEvent } from '../../../shared/src/resource-iteration-events.ts';
import { buildGroup, buildProject, expectShape, expectStatus, request as api, startTestServer, userWithRole, type TestServer } from '../../test/harness.ts';
import { eventually } from '../../test/merge-fixtures.ts';
import { expectPlatformSchema } from '../../test/platform-schemas.ts';
import { enqueue } from '../queue/queue.ts';
import { iterationsJob } from '../jobs/iterations.ts';
import { advanceIterations } from '../services/planning/iteration-roll-over.ts';

/**
 * Roll-over as a user sees it: issues put in the current iteration of a cadence that rolls
 * over, and, once the iterations job has run on a day after that iteration's end (the job's
 * `on`, run by the server's own workers), the open ones answered with the next iteration.
 */
let server: TestServer;
let group: { id: number; full_path: string };
let project: { id: number };
let reporter: Awaited<ReturnType<typeof userWithRole>>;

const DAY = 86_400_000;
const today = new Date().toISOString().slice(0, 10);
const daysFrom = (n: number) => new Date(Date.parse(`${today}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);

before(async () => {
  server = await startTestServer();
  group = await buildGroup();
  project = await buildProject(group.id);
  reporter = await userWithRole(group.id, 20);
});
after(() => server.close());

const cadencePath = () => `/groups/${group.id}/iteration_cadences`;
const issuesPath = () => `/projects/${project.id}/issues`;

async function iterationsOf(cadenceId: number) {
  const res = await api(`${cadencePath()}/${cadenceId}/iterations`);
  expectStatus(res, 200);
  return expectShape(z.array(projectIteration), res.body);
}

async function newIssue(title: string, iterationId: number | null) {
  const res = await api(issuesPath(), { method: 'POST', token: reporter.token, json: { title, iteration_id: iterationId } });
  expectStatus(res, 201);
  expectPlatformSchema('public_api/v4/issue.json', res.body);
  return expectShape(issueSchema, res.body);
}

describe('issues and the iterations job (roll-over)', () => {
  let rolling: z.infer<typeof iterationCadence>;
  let staying: z.infer<typeof iterationCadence>;
  const issues: Record<string, z.infer<typeof issueSchema>> = {};

  before(async () => {
    const make = async (title: string, roll_over: boolean) => {
      const res = await api(cadencePath(), { method: 'POST', token: reporter.token, json: { title, start_date: daysFrom(-3), duration_in_weeks: 1, iterations_in_advance: 2, roll_over } });
      expectStatus(res, 201);
      return expectShape(iterationCadence, res.body);
    };
    rolling = await make('Rolling sprints', true);
    staying = await make('Fixed sprints', false);
  });

  it('POST /projects/:id/issues with iteration_id: the issue answers with its iteration', async () => {
    const [current] = await iterationsOf(rolling.id);
    assert.equal(current.state, ITERATION_STATES.current);
    issues.open = await newIssue('Unfinished', current.id);
    issues.done = await newIssue('Finished', current.id);
    issues.fixed = await newIssue('In a cadence without roll-over', (await iterationsOf(staying.id))[0].id);
    issues.none = await newIssue('In no iteration', null);
    assert.equal(issues.open.iteration?.id, current.id);
    assert.equal(issues.open.iteration?.state, ITERATION_STATES.current);
    assert.equal(issues.open.iteration?.web_url, `${server.url}/groups/${group.full_path}/-/iterations/${current.id}`);
    assert.equal(issues.none.iteration, null);
    const closed = await api(`${issuesPath()}/${issues.done.iid}`, { method: 'PUT', token: reporter.token, json: { state_event: 'close' } });
    expectStatus(closed, 200);
  });

  it('refuses an iteration of a group the project is not in: 400 naming the field, nothing changed', async () => {
    const other = await buildGroup();
    const cad = await api(`/groups/${other.id}/iteration_cadences`, { method: 'POST', json: { title: 'Elsewhere', automatic: false } });
    const it = await api(`/groups/${other.id}/iteration_cadences/${cad.body.id}/iterations`, { method: 'POST', json: { start_date: daysFrom(0), due_date: daysFrom(3) } });
    expectStatus(it, 201);
    const res = await api(`${issuesPath()}/${issues.open.iid}`, { method: 'PUT', token: reporter.token, json: { iteration_id: it.body.id } });
    expectStatus(res, 400);
    assert.deepEqual(res.body, { message: { iteration_id: ['is invalid'] } });
    const again = await api(`${issuesPath()}/${issues.open.iid}`);
    assert.equal(again.body.iteration.id, issues.open.iteration!.id);
  });

  it('after the job ran past the iteration’s end: the open issue answers with the next iteration, the closed one stays', async () => {
    const [first, second] = await iterationsOf(rolling.id);
    await enqueue(server.running.db, iterationsJob, { on: daysFrom(5) });
    const moved = await eventually(async () => {
      const res = await api(`${issuesPath()}/${issues.open.iid}`);
      return res.body.iteration?.id === second.id && res;
    }, 'the open issue to roll over');
    const got = expectShape(issueSchema, moved.body);
    assert.equal(got.iteration?.state, ITERATION_STATES.current);
    assert.equal(got.iteration?.start_date, daysFrom(4));
    assert.equal((await api(`${issuesPath()}/${issues.done.iid}`)).body.iteration.id, first.id);
    const [fixedFirst] = await iterationsOf(staying.id);
    assert.equal((await api(`${issuesPath()}/${issues.fixed.iid}`)).body.iteration.id, fixedFirst.id, 'a cadence without roll_over keeps its issues');
    assert.equal(fixedFirst.state, ITERATION_STATES.closed);
    assert.deepEqual((await iterationsOf(rolling.id)).slice(0, 3).map((i) => i.state), [ITERATION_STATES.closed, ITERATION_STATES.current, ITERATION_STATES.upcoming]);
  });

  it('GET /projects/:id/issues?iteration_id=…: lists the rolled-over issue under its new iteration', async () => {
    const [first, second] = await iterationsOf(rolling.id);
    const list = async (query: string) => {
      const res = await api(`${issuesPath()}${query}`);
      expectStatus(res, 200);
      return expectShape(z.array(issueSchema), res.body).map((i) => i.title).sort();
    };
    assert.deepEqual(await list(`?iteration_id=${second.id}`), ['Unfinished']);
    assert.deepEqual(await list(`?iteration_id=${first.id}`), ['Finished']);
    assert.deepEqual(await list('?iteration_id=None'), ['In no iteration']);
    assert.deepEqual(await list('?iteration_id=Any'), ['Finished', 'In a cadence without roll-over', 'Unfinished']);
    assert.deepEqual(await list('?iteration_id=Current'), ['Unfinished']);
  });

  it('three runs at once on the same database (as three instances would) move each issue once', async () => {
    const [first, second, third] = await iterationsOf(rolling.id);
    const db = server.running.db;
    const runs = await Promise.all([0, 1, 2].map(() => advanceIterations(db, daysFrom(12))));
    assert.equal(runs.reduce((n, r) => n + r.rolledOver.filter((x) => x.from === second.id).length, 0), 1, server.engine);
    assert.equal((await api(`${issuesPath()}/${issues.open.iid}`)).body.iteration.id, third.id);
    const events = await db.selectFrom('resource_iteration_events').select(['iteration_id', 'action', 'user_id']).where('issue_id', '=', issues.open.id).orderBy('id').execute();
    assert.deepEqual(
      events.map((e) => [e.iteration_id, e.action, e.user_id === null ? 'job' : 'user']),
      [
        [first.id, 'add', 'user'],
        [first.id, 'remove', 'job'],
        [second.id, 'add', 'job'],
        [second.id, 'remove', 'job'],
        [third.id, 'add', 'job'],
      ],
    );
  });

  it('PUT iteration_id null takes the issue out of its iteration', async () => {
    const res = await api(`${issuesPath()}/${issues.open.iid}`, { method: 'PUT', token: reporter.token, json: { iteration_id: null } });
    expectStatus(res, 200);
    assert.equal(expectShape(issueSchema, res.body).iteration, null);
  });

  it('GET /projects/:id/issues/:issue_iid/resource_iteration_events: every change of the issue’s iteration, oldest first', async () => {
    const [first, second, third] = await iterationsOf(rolling.id);
    const res = await api(`${issuesPath()}/${issues.open.iid}/resource_iteration_events`, { token: reporter.token });
    expectStatus(res, 200);
    const events = expectShape(z.array(resourceIterationEvent), res.body);
    assert.deepEqual(
      events.map((e) => [e.iteration.id, e.action, e.user?.username ?? null]),
      [
        [first.id, 'add', reporter.user.username],
        [first.id, 'remove', null],
        [second.id, 'add', null],
        [second.id, 'remove', null],
        [third.id, 'add', null],
        [third.id, 'remove', reporter.user.username],
      ],
    );
    assert.ok(events.every((e) => e.resource_type === 'Issue' && e.resource_id === issues.open.id));
    assert.equal(res.headers.get('x-total'), '6');
    const one = await api(`${issuesPath()}/${issues.open.iid}/resource_iteration_events/${events[2].id}`);
    expectStatus(one, 200);
    assert.deepEqual(expectShape(resourceIterationEvent, one.body), events[2]);
    // Another issue's event, and an unknown one: the platform's 404.
    const other = await api(`${issuesPath()}/${issues.fixed.iid}/resource_iteration_events`);
    expectStatus(other, 200);
    expectStatus(await api(`${issuesPath()}/${issues.open.iid}/resource_iteration_events/${other.body[0].id}`), 404);
    expectStatus(await api(`${issuesPath()}/${issues.open.iid}/resource_iteration_events/999999`), 404);
  });

  it('GET /projects/:id/issues?iteration_title=…: the issues of iterations with that title', async () => {
    const manual = await api(cadencePath(), { method: 'POST', token: reporter.token, json: { title: 'Releases', automatic: false } });
    const hardening = await api(`${cadencePath()}/${manual.body.id}/iterations`, { method: 'POST', token: reporter.token, json: { title: 'Hardening', start_date: daysFrom(60), due_date: daysFrom(70) } });
    expectStatus(hardening, 201);
    expectStatus(await api(`${issuesPath()}/${issues.none.iid}`, { method: 'PUT', token: reporter.token, json: { iteration_id: hardening.body.id } }), 200);
    const res = await api(`${issuesPath()}?iteration_title=Hardening`);
    expectStatus(res, 200);
    assert.deepEqual(res.body.map((i: { title: string }) => i.title), ['In no iteration']);
    assert.deepEqual((await api(`${issuesPath()}?iteration_title=Sprint`)).body, []);
  });
});
