import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { migrate, openDb, type Db } from '../db/index.ts';
import { z } from 'zod';
import { claim, complete, enqueue, fail } from './queue.ts';
import { pino } from 'pino';
import { defineJob } from './define.ts';
import { startWorkers } from './worker.ts';

let db: Db;
before(async () => {
  db = openDb({ sqliteFile: ':memory:' });
  await migrate(db);
});
after(() => db.destroy());

const leaseRace = defineJob({ kind: 'lease-race', payload: z.object({ n: z.number() }), leaseMs: () => 1, maxAttempts: 3, handler: async () => undefined });
const state = (id: number) => db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('a job whose lease ran out', () => {
  it('is claimed by another worker, and its old worker can neither fail nor complete it', async () => {
    await enqueue(db, leaseRace, { n: 1 });
    const first = await claim(db, 'worker-a', 1);
    assert.ok(first);
    await new Promise((r) => setTimeout(r, 5));
    // worker-a's lease has run out: worker-b takes the job over.
    const second = await claim(db, 'worker-b', 60_000);
    assert.equal(second?.id, first.id);
    assert.equal(second?.locked_by, 'worker-b');

    await fail(db, first, new Error('worker-a gave up late'));
    let row = await state(first.id);
    assert.equal(row.state, 'running', 'the stale failure must not reset the job');
    assert.equal(row.locked_by, 'worker-b');
    assert.equal(row.last_error, null);

    await complete(db, first);
    assert.equal((await state(first.id)).state, 'running', 'the stale completion must not finish it');

    await fail(db, second, new Error('worker-b failed'));
    row = await state(first.id);
    assert.equal(row.state, 'pending');
    assert.equal(row.locked_by, null);
    assert.match(row.last_error ?? '', /worker-b failed/);
  });
});

describe('workers over job definitions', () => {
  const deps = () => ({ db, vault: {} as never, config: {} as never, logger: pino({ level: 'silent' }), instanceUrl: 'http://x' });

  it('renew the lease while long work runs, so no other worker takes the job over', async () => {
    let release!: () => void;
    const started: number[] = [];
    const slow = defineJob({
      kind: 'slow-work',
      payload: z.object({ n: z.number() }),
      leaseMs: () => 150,
      maxAttempts: 3,
      handler: async (p) => {
        started.push(p.n);
        await new Promise<void>((r) => (release = r));
      },
    });
    await enqueue(db, slow, { n: 7 });
    const workers = startWorkers(deps(), [slow], { count: 1, pollMs: 10 });
    try {
      while (!started.length) await new Promise((r) => setTimeout(r, 10));
      // Four leases long: without renewal another worker would claim it now.
      await new Promise((r) => setTimeout(r, 600));
      const row = await db.selectFrom('jobs').selectAll().where('kind', '=', 'slow-work').executeTakeFirstOrThrow();
      assert.equal(row.state, 'running');
      assert.ok(Date.parse(row.locked_until!) > Date.now(), 'the lease was renewed');
      assert.equal(await claim(db, 'intruder', 150), undefined);
      release();
      while ((await state(row.id)).state !== 'done') await new Promise((r) => setTimeout(r, 10));
      assert.deepEqual(started, [7]);
    } finally {
      await workers.stop();
    }
  });

  it('give up at once a job whose payload no longer fits its definition', async () => {
    const strict = defineJob({ kind: 'strict-work', payload: z.object({ id: z.number() }), leaseMs: () => 1000, maxAttempts: 5, handler: async () => undefined });
    await db.insertInto('jobs').values({ kind: 'strict-work', payload: '{"id":"not a number"}', run_at: new Date().toISOString(), max_attempts: 5, created_at: new Date().toISOString(), updated_at: new Date().toISOString() }).execute();
    await assert.rejects(enqueue(db, strict, { id: 'x' } as never), /expected number/i);
    const workers = startWorkers(deps(), [strict], { count: 1, pollMs: 10 });
    try {
      let row = await db.selectFrom('jobs').selectAll().where('kind', '=', 'strict-work').executeTakeFirstOrThrow();
      while (row.state !== 'failed') {
        await new Promise((r) => setTimeout(r, 10));
        row = await state(row.id);
      }
      assert.equal(row.attempts, 1);
      assert.match(row.last_error ?? '', /payload does not fit strict-work/);
    } finally {
      await workers.stop();
    }
  });
});
