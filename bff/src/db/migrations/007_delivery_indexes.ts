import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any */
/** A delivery checks whether its event was already recorded; claims walk pending jobs by time. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('web_hook_logs_hook_key').on('web_hook_logs').columns(['web_hook_id', 'idempotency_key']).execute();
  await db.schema.createIndex('jobs_claim_order').on('jobs').columns(['state', 'run_at', 'id']).execute();
  await db.schema.createIndex('jobs_lease').on('jobs').columns(['state', 'locked_until']).execute();
  await db.schema.dropIndex('jobs_claim').execute();
}
