import type { Db } from '../db/index.ts';
import type { JobRow } from '../db/schema.ts';
import type { JobDefinition } from '../queue/define.ts';
import { enqueue } from '../queue/queue.ts';
import { isoPlus } from '../util/time.ts';

export const HOUR = 3_600_000;

/**
 * The next run of a periodic job: the finished row gives up its unique key (this row only, so a
 * retried run whose successor is already queued queues no second one), and a new row takes it.
 */
export async function runAgainIn(db: Db, job: JobRow, def: JobDefinition, key: string, ms: number): Promise<void> {
  await db.updateTable('jobs').set({ unique_key: null }).where('id', '=', job.id).where('unique_key', '=', key).execute();
  await enqueue(db, def, {}, { runAt: isoPlus(ms), uniqueKey: key });
}
