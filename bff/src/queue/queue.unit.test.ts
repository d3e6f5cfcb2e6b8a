import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { migrate, openDb, type Db } from '../db/index.ts';
import { z } from 'zod';
import { claim, claimBatch, complete, completeBatch, enqueue, enqueueMany, fail, purgeFinishedJobs } from './queue.ts';
import { pino } from 'pino';
import { defineJob } from './define.ts';
import { startWorkers } from './worker.ts';
import { padded, powerOfTwoChunks } from './statement-sizes.ts';

let db: Db;
before(async () => {
  db = openDb({ sqliteFile: ':memory:' });
  await migrate(db);
});
after(() => db.destroy());

const leaseRace = defineJob({ kind: 'lease-race', payload: z.object({ n: z.number() }), leaseMs: () => 1, maxAttempts: 3, handler: async () => undefined });
const deps = () => ({ db, vault: {} as never, files: {} as never, config: {} as never, logger: pino({ level: 'silent' }), instanceUrl: 'http://x' });
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

describe('batches', () => {
  const batchJob = defineJob({ kind: 'batch-claim', payload: z.object({ n: z.number() }), leaseMs: () => 60_000, maxAttempts: 3, handler: async () => undefined });
  beforeEach(() => db.deleteFrom('jobs').execute());

  it('claim due jobs in one statement, oldest first, and never the same job for two workers', async () => {
    await enqueueMany(db, batchJob, Array.from({ length: 10 }, (_, n) => ({ n })));
    const a = await claimBatch(db, 'worker-a', 60_000, 4);
    const b = await claimBatch(db, 'worker-b', 60_000, 100);
    assert.deepEqual(
      a.map((j) => JSON.parse(j.payload).n),
      [0, 1, 2, 3],
    );
    assert.equal(b.length, 6);
    assert.equal(new Set([...a, ...b].map((j) => j.id)).size, 10);
    assert.ok([...a, ...b].every((j) => j.state === 'running' && j.attempts === 1));
    assert.deepEqual(await claimBatch(db, 'worker-c', 60_000, 10), []);
  });

  it('hold each job for its kind\'s lease, in the claiming statement itself', async () => {
    const longJob = defineJob({ kind: 'long-claim', payload: z.object({ n: z.number() }), leaseMs: () => 3_600_000, maxAttempts: 3, handler: async () => undefined });
    const otherJob = defineJob({ kind: 'other-claim', payload: z.object({ n: z.number() }), leaseMs: () => 1, maxAttempts: 3, handler: async () => undefined });
    await enqueueMany(db, batchJob, [{ n: 1 }]);
    await enqueueMany(db, longJob, [{ n: 2 }]);
    await enqueueMany(db, otherJob, [{ n: 3 }]);
    const before = Date.now();
    const jobs = await claimBatch(db, 'worker-a', new Map([['batch-claim', 60_000], ['long-claim', 3_600_000]]), 10);
    const lease = (kind: string) => Date.parse(jobs.find((j) => j.kind === kind)!.locked_until!) - before;
    assert.ok(lease('batch-claim') >= 59_000 && lease('batch-claim') <= 61_000, `batch-claim held ${lease('batch-claim')} ms`);
    assert.ok(lease('long-claim') >= 3_599_000 && lease('long-claim') <= 3_601_000, `long-claim held ${lease('long-claim')} ms`);
    // A kind the map does not name gets the shortest lease given.
    assert.ok(lease('other-claim') >= 59_000 && lease('other-claim') <= 61_000, `other-claim held ${lease('other-claim')} ms`);
  });

  it('complete only the jobs their worker still holds, with what those produced, in one transaction', async () => {
    await enqueueMany(db, batchJob, [{ n: 1 }, { n: 2 }, { n: 3 }]);
    const jobs = await claimBatch(db, 'worker-a', 60_000, 3);
    // The third one's lease was lost to another worker.
    await db.updateTable('jobs').set({ locked_by: 'worker-b' }).where('id', '=', jobs[2].id).execute();
    const recorded: number[][] = [];
    const held = await completeBatch(
      db,
      'worker-a',
      jobs.map((j) => j.id),
      async (_trx, ids) => void recorded.push([...ids].sort((x, y) => x - y)),
    );
    assert.deepEqual([...held].sort((x, y) => x - y), [jobs[0].id, jobs[1].id]);
    assert.deepEqual(recorded, [[jobs[0].id, jobs[1].id]]);
    assert.deepEqual((await Promise.all(jobs.map((j) => state(j.id)))).map((r) => r.state), ['done', 'done', 'running']);

    // When writing the results fails, no job is done: each runs again once its lease runs out.
    await enqueue(db, batchJob, { n: 4 });
    const [next] = await claimBatch(db, 'worker-a', 60_000, 1);
    await assert.rejects(
      completeBatch(db, 'worker-a', [next.id], async () => {
        throw new Error('disk full');
      }),
      /disk full/,
    );
    assert.equal((await state(next.id)).state, 'running');
  });
});

describe('workers over job definitions', () => {

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

  it('load what a claimed batch shares once, run up to `count` handlers at a time, and store their results as the jobs complete', async () => {
    let prepared = 0;
    let active = 0;
    let most = 0;
    const stored: number[] = [];
    const doubling = defineJob({
      kind: 'doubling',
      payload: z.object({ n: z.number() }),
      leaseMs: () => 60_000,
      maxAttempts: 3,
      prepare: async (payloads) => {
        prepared++;
        return { factor: 2, size: payloads.length };
      },
      handler: async (p, { batch }) => {
        active++;
        most = Math.max(most, active);
        await new Promise((r) => setTimeout(r, 5));
        active--;
        return p.n * batch.factor;
      },
      record: async (trx, results) => {
        // Written in the transaction that completes them: the jobs are not done yet.
        const done = await trx.selectFrom('jobs').select('id').where('kind', '=', 'doubling').where('state', '=', 'done').execute();
        assert.equal(done.length, stored.length + results.length);
        stored.push(...results);
      },
    });
    await enqueueMany(db, doubling, Array.from({ length: 30 }, (_, n) => ({ n })));
    const workers = startWorkers(deps(), [doubling], { count: 3, pollMs: 10, batch: 10 });
    try {
      const until = Date.now() + 10_000;
      while (stored.length < 30 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    } finally {
      await workers.stop();
    }
    assert.deepEqual(
      stored.sort((a, b) => a - b),
      Array.from({ length: 30 }, (_, n) => 2 * n),
    );
    assert.equal(most, 3, 'as many handlers at once as there are workers');
    assert.ok(prepared < 30 / 2, `the shared rows were loaded once per claimed batch, not per job (${prepared} times)`);
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

describe('a shared payload', () => {
  const fanOut = defineJob({
    kind: 'fan-out',
    payload: z.object({ to: z.number() }),
    shared: z.object({ text: z.string() }),
    leaseMs: () => 60_000,
    maxAttempts: 3,
    handler: async (p, { shared }) => `${shared.text} to ${p.to}`,
    record: async (_trx, results) => void got.push(...results),
  });
  const got: string[] = [];
  const sharedRows = () => db.selectFrom('job_payloads').selectAll().execute();

  it('is stored once for the jobs of one enqueue and handed to each of their handlers', async () => {
    const before = (await sharedRows()).length;
    await enqueueMany(db, fanOut, [{ to: 1 }, { to: 2 }, { to: 3 }], { text: 'hello' });
    const rows = await db.selectFrom('jobs').selectAll().where('kind', '=', 'fan-out').execute();
    assert.equal(rows.length, 3);
    assert.equal(new Set(rows.map((r) => r.shared_payload_id)).size, 1);
    assert.ok(rows.every((r) => !r.payload.includes('hello')), 'a job row holds only its own part');
    assert.equal((await sharedRows()).length, before + 1);
    const workers = startWorkers(deps(), [fanOut], { count: 2, pollMs: 10 });
    try {
      const until = Date.now() + 10_000;
      while (got.length < 3 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    } finally {
      await workers.stop();
    }
    assert.deepEqual(got.sort(), ['hello to 1', 'hello to 2', 'hello to 3']);
  });

  it('that is gone fails its job at once, with the reason', async () => {
    await db.insertInto('jobs').values({ kind: 'fan-out', payload: '{"to":9}', run_at: new Date().toISOString(), max_attempts: 3, created_at: new Date().toISOString(), updated_at: new Date().toISOString() }).execute();
    const workers = startWorkers(deps(), [fanOut], { count: 1, pollMs: 10 });
    try {
      let row = await db.selectFrom('jobs').selectAll().where('kind', '=', 'fan-out').where('shared_payload_id', 'is', null).executeTakeFirstOrThrow();
      const until = Date.now() + 10_000;
      while (row.state !== 'failed' && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 10));
        row = await state(row.id);
      }
      assert.equal(row.state, 'failed');
      assert.match(row.last_error ?? '', /shared payload is gone/);
    } finally {
      await workers.stop();
    }
  });

  it('is purged once no job refers to it, and not before', async () => {
    await enqueueMany(db, fanOut, [{ to: 4 }], { text: 'still queued' });
    const old = new Date(Date.now() - 48 * 3_600_000).toISOString();
    await db.updateTable('jobs').set({ updated_at: old }).where('kind', '=', 'fan-out').where('state', '!=', 'pending').execute();
    await db.updateTable('job_payloads').set({ created_at: old }).execute();
    await purgeFinishedJobs(db, 24 * 3_600_000);
    const left = await sharedRows();
    assert.deepEqual(
      left.map((r) => JSON.parse(r.payload).text),
      ['still queued'],
    );
  });
});

describe('statement sizes', () => {
  it('pad id lists to a power of two with a repeat, and cut rows into power-of-two chunks', () => {
    assert.deepEqual(padded([]), []);
    assert.deepEqual(padded([7]), [7]);
    assert.deepEqual(padded([1, 2, 3]), [1, 2, 3, 3]);
    assert.deepEqual(padded([1, 2, 3, 4]), [1, 2, 3, 4]);
    assert.equal(padded(Array.from({ length: 33 }, (_, i) => i)).length, 64);
    assert.deepEqual(
      powerOfTwoChunks(Array.from({ length: 13 }, (_, i) => i)).map((c) => c.length),
      [8, 4, 1],
    );
    assert.deepEqual(
      powerOfTwoChunks(Array.from({ length: 150 }, (_, i) => i), 64).map((c) => c.length),
      [64, 64, 16, 4, 2],
    );
    assert.deepEqual(powerOfTwoChunks(Array.from({ length: 150 }, (_, i) => i), 64).flat(), Array.from({ length: 150 }, (_, i) => i));
  });
});
