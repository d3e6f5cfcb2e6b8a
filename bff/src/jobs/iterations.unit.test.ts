import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { migrate, openDb, type Db } from '../db/index.ts';
import { claim, enqueue } from '../queue/queue.ts';
import { iterationsJob } from './iterations.ts';
import { createUser } from '../services/access/users.ts';
import { createGroup } from '../services/groups/groups.ts';

/** The iterations job as the workers run it: it advances the iterations and queues its next run once. */
let db: Db;
before(async () => {
  db = openDb({ sqliteFile: ':memory:' });
  await migrate(db);
});
after(() => db.destroy());

const deps = () => ({ db, vault: {} as never, files: {} as never, config: {} as never, logger: pino({ level: 'silent' }), instanceUrl: 'http://x', batch: undefined, shared: undefined });
const pending = () => db.selectFrom('jobs').selectAll().where('kind', '=', 'iterations').where('state', '=', 'pending').execute();

describe('the iterations job', () => {
  it('advances to the day of its payload, then queues one run an hour later, also when retried', async () => {
    const owner = await createUser(db, { username: 'o', name: 'O', email: 'o@example.com', password: 'password1' });
    const group = await createGroup(db, owner, { name: 'G', path: 'g', visibility: 'private' }, null);
    const now = '2025-12-01T00:00:00.000Z';
    await db.insertInto('iteration_cadences').values({ group_id: group.id, title: 'C', description: null, automatic: 1, start_date: '2026-01-05', duration_in_weeks: 1, iterations_in_advance: 1, roll_over: 1, active: 1, created_at: now, updated_at: now }).execute();

    await enqueue(db, iterationsJob, { on: '2026-01-13' }, { uniqueKey: 'iterations' });
    const job = await claim(db, 'w', 60_000);
    assert.ok(job);
    await iterationsJob.handler(iterationsJob.payload.parse(JSON.parse(job.payload)), { ...deps(), job });
    const states = await db.selectFrom('iterations').select(['start_date', 'state']).orderBy('start_date').execute();
    assert.deepEqual(states, [
      { start_date: '2026-01-05', state: 3 },
      { start_date: '2026-01-12', state: 2 },
      { start_date: '2026-01-19', state: 1 },
    ]);
    const next = await pending();
    assert.equal(next.length, 1);
    assert.equal(next[0].unique_key, 'iterations');
    assert.deepEqual(JSON.parse(next[0].payload), {});
    const inMs = Date.parse(next[0].run_at) - Date.now();
    assert.ok(inMs > 59 * 60_000 && inMs <= 60 * 60_000, `next run in ${inMs} ms`);
    assert.equal((await db.selectFrom('jobs').select('unique_key').where('id', '=', job.id).executeTakeFirstOrThrow()).unique_key, null);

    // The same run again (its worker died before marking it done): still one next run.
    await iterationsJob.handler({ on: '2026-01-13' }, { ...deps(), job });
    assert.equal((await pending()).length, 1);
  });
});
