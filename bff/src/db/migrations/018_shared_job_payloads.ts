import type { Kysely } from 'kysely';
import { withId } from './001_core.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * What the jobs of one enqueue share (an event's payload, sent to each of its hooks) is stored
 * once and referred to: a job row stays small, so claiming it and marking it done rewrite a
 * few bytes instead of the event each time. Rows no job refers to any more are purged.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('job_payloads'))
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .alterTable('jobs')
    .addColumn('shared_payload_id', 'integer', (c) => c.references('job_payloads.id'))
    .execute();
  await db.schema.createIndex('jobs_shared_payload').on('jobs').column('shared_payload_id').execute();
  await db.schema.createIndex('job_payloads_created').on('job_payloads').column('created_at').execute();

  // Deliveries still queued keep their event: it moves to a shared row, one per event.
  const queued: { id: number; payload: string }[] = await db.selectFrom('jobs').select(['id', 'payload']).where('kind', '=', 'hook_delivery').where('state', 'in', ['pending', 'running']).execute();
  const events = new Map<string, number>();
  for (const job of queued) {
    const { hook_id, idempotency_key, flag, data, event_uuid } = JSON.parse(job.payload);
    let sharedId = events.get(event_uuid);
    if (sharedId === undefined) {
      const row = await db.insertInto('job_payloads').values({ payload: JSON.stringify({ flag, data, event_uuid }), created_at: new Date().toISOString() }).returning('id').executeTakeFirstOrThrow();
      sharedId = row.id as number;
      events.set(event_uuid, sharedId);
    }
    await db.updateTable('jobs').set({ payload: JSON.stringify({ hook_id, idempotency_key }), shared_payload_id: sharedId }).where('id', '=', job.id).execute();
  }
}
