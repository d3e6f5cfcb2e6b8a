import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * A user's events as an administrator reads them (GET /users/:id/events, GET /events): every
 * event of theirs in a project. The indexes hold exactly those events (partial: `project_id`
 * set), in the lists' order, with the dates beside the ids for the `before` and `after`
 * filters: a page's ids are found, offset and count included, in the index alone, and only its
 * 20 rows are read. 034's (author, key, id) indexes become partial the same way.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const inProject = sql<boolean>`project_id IS NOT NULL`;
  await db.schema.createIndex('events_author_listed').on('events').columns(['author_id', 'id', 'created_at']).where(inProject).execute();
  await db.schema.dropIndex('events_author_action').execute();
  await db.schema.dropIndex('events_author_target').execute();
  await db.schema.createIndex('events_author_action').on('events').columns(['author_id', 'action_key', 'id', 'created_at']).where(inProject).execute();
  await db.schema.createIndex('events_author_target').on('events').columns(['author_id', 'target_key', 'id', 'created_at']).where(inProject).execute();
}
