import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { migrate, openDb, type Db } from '../db/index.ts';
import { claim, complete, enqueue, fail } from './queue.ts';

let db: Db;
before(async () => {
  db = openDb({ sqliteFile: ':memory:' });
  await migrate(db);
});
after(() => db.destroy());

const state = (id: number) => db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('a job whose lease ran out', () => {
  it('is claimed by another worker, and its old worker can neither fail nor complete it', async () => {
    await enqueue(db, 'lease-race', { n: 1 });
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
