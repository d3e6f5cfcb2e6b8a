import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * A user's events filtered by `action` or `target_type` (GET /users/:id/events, GET /events),
 * read in the order of their ids from the filter's own entries instead of through all of the
 * user's events: the (author, id) index of migration 015 with the filter values of migration 033
 * between them.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('events_author_action').on('events').columns(['author_id', 'action_key', 'id']).execute();
  await db.schema.createIndex('events_author_target').on('events').columns(['author_id', 'target_key', 'id']).execute();
}
