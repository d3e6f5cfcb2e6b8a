import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { migrate, openDb, type Db } from '../../db/index.ts';
import type { GroupRow, IterationCadencesTable, ProjectRow, UserRow } from '../../db/schema.ts';
import type { Insertable } from 'kysely';
import { ITERATION_STATES } from '../../../../shared/src/iterations.ts';
import { createUser } from '../access/users.ts';
import { createGroup } from '../groups/groups.ts';
import { createProject } from '../groups/projects.ts';
import { createIteration } from './iteration-cadences.ts';
import { advanceIterations } from './iteration-roll-over.ts';

/**
 * The iterations job's service on a real SQLite database, every run at a date of the test's
 * choosing: cadences are written directly (createCadence would schedule up to the real today).
 */
let db: Db;
let owner: UserRow;
let group: GroupRow;
let project: ProjectRow;
let cadenceSeq = 0;
let iidSeq = 0;

before(async () => {
  db = openDb({ sqliteFile: ':memory:' });
  await migrate(db);
  owner = await createUser(db, { username: 'planner', name: 'Planner', email: 'planner@example.com', password: 'password1' });
  group = await createGroup(db, owner, { name: 'Team', path: 'team', visibility: 'private' }, null);
  project = await createProject(db, owner, group, { name: 'App', namespace_id: group.id, visibility: 'private' });
});
after(() => db.destroy());

const STAMP = '2025-12-01T00:00:00.000Z';

async function cadence(fields: Partial<Insertable<IterationCadencesTable>>) {
  const row = { group_id: group.id, title: `Cadence ${++cadenceSeq}`, description: null, automatic: 1, start_date: '2026-01-05', duration_in_weeks: 1, iterations_in_advance: 2, roll_over: 1, active: 1, created_at: STAMP, updated_at: STAMP, ...fields };
  return db.insertInto('iteration_cadences').values(row).returningAll().executeTakeFirstOrThrow();
}

const iterationsOf = (cadenceId: number) => db.selectFrom('iterations').selectAll().where('iteration_cadence_id', '=', cadenceId).orderBy('sequence').execute();

async function issue(iterationId: number, state: 'opened' | 'closed' = 'opened') {
  return db
    .insertInto('issues')
    .values({ project_id: project.id, iid: ++iidSeq, author_id: owner.id, title: `Issue ${iidSeq}`, description: null, state, milestone_id: null, weight: null, due_date: null, closed_at: state === 'closed' ? STAMP : null, closed_by_id: null, epic_id: null, iteration_id: iterationId, discussion_locked: null, updated_by_id: null, created_at: STAMP, updated_at: STAMP })
    .returningAll()
    .executeTakeFirstOrThrow();
}

const iterationOfIssue = async (id: number) => (await db.selectFrom('issues').select('iteration_id').where('id', '=', id).executeTakeFirstOrThrow()).iteration_id;
const eventsOf = (issueIds: number[]) =>
  db.selectFrom('resource_iteration_events').select(['issue_id', 'iteration_id', 'action', 'user_id']).where('issue_id', 'in', issueIds).orderBy('issue_id').orderBy('id').execute();

describe('advanceIterations: a one-week automatic cadence that rolls over', () => {
  let cad: Awaited<ReturnType<typeof cadence>>;
  let open1: { id: number }, open2: { id: number }, done: { id: number };

  before(async () => {
    cad = await cadence({});
  });

  it('schedules the cadence up to the day and its iterations in advance, with their states', async () => {
    const res = await advanceIterations(db, '2026-01-07');
    assert.equal(res.scheduled, 3);
    const its = await iterationsOf(cad.id);
    assert.deepEqual(its.map((i) => [i.start_date, i.due_date, i.state]), [
      ['2026-01-05', '2026-01-11', ITERATION_STATES.current],
      ['2026-01-12', '2026-01-18', ITERATION_STATES.upcoming],
      ['2026-01-19', '2026-01-25', ITERATION_STATES.upcoming],
    ]);
    open1 = await issue(its[0].id);
    open2 = await issue(its[0].id);
    done = await issue(its[0].id, 'closed');
  });

  it('when the first iteration ends: closes it, starts the next, and moves only its open issues there', async () => {
    const [first, second] = await iterationsOf(cad.id);
    const res = await advanceIterations(db, '2026-01-12');
    assert.equal(res.closed, 1);
    assert.equal(res.started, 1);
    assert.deepEqual(res.rolledOver, [{ from: first.id, to: second.id, issueIds: [open1.id, open2.id] }]);
    const its = await iterationsOf(cad.id);
    assert.deepEqual(its.map((i) => i.state), [ITERATION_STATES.closed, ITERATION_STATES.current, ITERATION_STATES.upcoming, ITERATION_STATES.upcoming]);
    assert.equal(its[3].start_date, '2026-01-26', 'one more is scheduled in advance');
    assert.equal(await iterationOfIssue(open1.id), second.id);
    assert.equal(await iterationOfIssue(open2.id), second.id);
    assert.equal(await iterationOfIssue(done.id), first.id, 'a closed issue stays in the iteration it was done in');
    const moved = await db.selectFrom('issues').select('updated_at').where('id', '=', open1.id).executeTakeFirstOrThrow();
    assert.notEqual(moved.updated_at, STAMP);
  });

  it('records a remove and an add iteration event per moved issue, without a user', async () => {
    const [first, second] = await iterationsOf(cad.id);
    assert.deepEqual(await eventsOf([open1.id, open2.id, done.id]), [
      { issue_id: open1.id, iteration_id: first.id, action: 'remove', user_id: null },
      { issue_id: open1.id, iteration_id: second.id, action: 'add', user_id: null },
      { issue_id: open2.id, iteration_id: first.id, action: 'remove', user_id: null },
      { issue_id: open2.id, iteration_id: second.id, action: 'add', user_id: null },
    ]);
  });

  it('is idempotent: a second run on the same day changes nothing', async () => {
    const before = await iterationsOf(cad.id);
    const res = await advanceIterations(db, '2026-01-12');
    assert.deepEqual(res, { scheduled: 0, started: 0, closed: 0, rolledOver: [] });
    assert.deepEqual(await iterationsOf(cad.id), before);
    assert.equal((await eventsOf([open1.id, open2.id])).length, 4);
  });

  it('after days without a run: closes every ended iteration and moves the issues to the current one, not to one already over', async () => {
    const its = await iterationsOf(cad.id);
    const res = await advanceIterations(db, '2026-01-27');
    assert.deepEqual(
      res.rolledOver.map((r) => [r.from, r.to, r.issueIds]),
      [
        [its[1].id, its[3].id, [open1.id, open2.id]],
        [its[2].id, its[3].id, []],
      ],
    );
    const after = await iterationsOf(cad.id);
    assert.deepEqual(after.slice(0, 4).map((i) => i.state), [ITERATION_STATES.closed, ITERATION_STATES.closed, ITERATION_STATES.closed, ITERATION_STATES.current]);
    assert.equal(await iterationOfIssue(open1.id), its[3].id);
  });

  it('two runs at once roll the issues over once', async () => {
    const its = await iterationsOf(cad.id);
    const results = await Promise.all([advanceIterations(db, '2026-02-03'), advanceIterations(db, '2026-02-03')]);
    assert.equal(results[0].closed + results[1].closed, 1);
    const next = its.find((i) => i.start_date === '2026-02-02')!;
    assert.equal(await iterationOfIssue(open1.id), next.id);
    const events = await eventsOf([open1.id]);
    assert.equal(events.length, 6);
    assert.deepEqual(events.slice(-2).map((e) => [e.iteration_id, e.action]), [
      [its[3].id, 'remove'],
      [next.id, 'add'],
    ]);
  });
});

describe('advanceIterations: cadences that do not roll over', () => {
  it('without roll_over: the iteration closes, its open issues stay in it', async () => {
    const cad = await cadence({ roll_over: 0, start_date: '2026-03-02' });
    await advanceIterations(db, '2026-03-02');
    const [first] = await iterationsOf(cad.id);
    const open = await issue(first.id);
    const res = await advanceIterations(db, '2026-03-09');
    assert.ok(!res.rolledOver.some((r) => r.from === first.id));
    assert.equal((await iterationsOf(cad.id))[0].state, ITERATION_STATES.closed);
    assert.equal(await iterationOfIssue(open.id), first.id);
    assert.deepEqual(await eventsOf([open.id]), []);
  });

  it('a manual cadence (even with roll_over): states move, issues stay, nothing is scheduled', async () => {
    const cad = await cadence({ automatic: 0, start_date: null, duration_in_weeks: null, iterations_in_advance: null });
    const first = await createIteration(db, cad, { title: 'First', start_date: '2026-04-01', due_date: '2026-04-10' }, '2026-04-05');
    const second = await createIteration(db, cad, { title: 'Second', start_date: '2026-04-11', due_date: '2026-04-20' }, '2026-04-05');
    const open = await issue(first.id);
    const res = await advanceIterations(db, '2026-04-12');
    assert.ok(!res.rolledOver.some((r) => r.from === first.id));
    assert.deepEqual((await iterationsOf(cad.id)).map((i) => [i.title, i.state]), [
      ['First', ITERATION_STATES.closed],
      ['Second', ITERATION_STATES.current],
    ]);
    assert.equal((await iterationsOf(cad.id)).length, 2);
    assert.equal(await iterationOfIssue(open.id), first.id);
    assert.notEqual(second.id, first.id);
  });

  it('an inactive cadence does not roll over', async () => {
    const cad = await cadence({ start_date: '2026-05-04' });
    await advanceIterations(db, '2026-05-04');
    await db.updateTable('iteration_cadences').set({ active: 0 }).where('id', '=', cad.id).execute();
    const [first] = await iterationsOf(cad.id);
    const open = await issue(first.id);
    await advanceIterations(db, '2026-05-11');
    assert.equal(await iterationOfIssue(open.id), first.id);
  });
});
