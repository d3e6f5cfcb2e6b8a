import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { migrate, openDb, type Db } from '../../../db/index.ts';
import { acquireLock, releaseLock, renewLock } from './lock.ts';

let db: Db;
before(async () => {
  db = openDb({ sqliteFile: ':memory:' });
  await migrate(db);
});
after(() => db.destroy());

describe('train locks', () => {
  it('one holder at a time; the other is told until when; released or expired, it is taken over', async () => {
    assert.deepEqual(await acquireLock(db, 'train:1:main', 'a', 60_000), { held: true });
    const refused = await acquireLock(db, 'train:1:main', 'b', 60_000);
    assert.equal(refused.held, false);
    assert.ok(!refused.held && refused.until > new Date().toISOString());
    // Another train is free all the same.
    assert.deepEqual(await acquireLock(db, 'train:1:stable', 'b', 60_000), { held: true });
    // The holder renews and takes it again; the other cannot renew what it does not hold.
    assert.equal(await renewLock(db, 'train:1:main', 'a', 60_000), true);
    assert.equal(await renewLock(db, 'train:1:main', 'b', 60_000), false);
    assert.deepEqual(await acquireLock(db, 'train:1:main', 'a', 60_000), { held: true });
    // Released only by its holder.
    await releaseLock(db, 'train:1:main', 'b');
    assert.equal((await acquireLock(db, 'train:1:main', 'b', 60_000)).held, false);
    await releaseLock(db, 'train:1:main', 'a');
    assert.deepEqual(await acquireLock(db, 'train:1:main', 'b', 60_000), { held: true });
    // A holder that died: its lease runs out and the next run takes the lock; the dead one's renewal fails.
    await db.updateTable('train_locks').set({ locked_until: new Date(Date.now() - 1).toISOString() }).where('name', '=', 'train:1:main').execute();
    assert.deepEqual(await acquireLock(db, 'train:1:main', 'c', 60_000), { held: true });
    assert.equal(await renewLock(db, 'train:1:main', 'b', 60_000), false);
  });
});
