import type { Db } from '../../../db/index.ts';
import { isoPlus, nowIso } from '../../../util/time.ts';

/**
 * Named leases in the database: a train is driven by whoever holds its lock, in any instance
 * sharing the database. A holder renews its lease while it works and loses it if it stalls past
 * it (or dies): the next run takes the lock over once the lease ran out. Refs still move only
 * by compare-and-swap, so even a holder that lost its lock unawares cannot overwrite a branch.
 */
export type LockAttempt = { held: true } | { held: false; until: string };

export async function acquireLock(db: Db, name: string, holder: string, leaseMs: number): Promise<LockAttempt> {
  const now = nowIso();
  const until = isoPlus(leaseMs);
  // One statement: a free (or expired, or already ours) lock is taken, a held one is left alone.
  await db
    .insertInto('train_locks')
    .values({ name, holder, locked_until: until })
    .onConflict((oc) =>
      oc
        .column('name')
        .doUpdateSet({ holder, locked_until: until })
        .where((eb) => eb.or([eb('train_locks.locked_until', '<', now), eb('train_locks.holder', '=', holder)])),
    )
    .execute();
  const row = await db.selectFrom('train_locks').select(['holder', 'locked_until']).where('name', '=', name).executeTakeFirst();
  if (row?.holder === holder) return { held: true };
  return { held: false, until: row?.locked_until ?? now };
}

/** Extends the lease; false when the lock is no longer this holder's. */
export async function renewLock(db: Db, name: string, holder: string, leaseMs: number): Promise<boolean> {
  const res = await db.updateTable('train_locks').set({ locked_until: isoPlus(leaseMs) }).where('name', '=', name).where('holder', '=', holder).executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

export async function releaseLock(db: Db, name: string, holder: string): Promise<void> {
  await db.deleteFrom('train_locks').where('name', '=', name).where('holder', '=', holder).execute();
}
