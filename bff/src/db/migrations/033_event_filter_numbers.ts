import { sql, type Kysely, type RawBuilder } from 'kysely';
import { isPostgres } from '../dialect.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * What makes a filtered page of a project's events as fast as an unfiltered one.
 *
 * A project's events are numbered in it (`project_seq`, migration 015), so an unfiltered page
 * is a range of numbers. The filters get the same: each event also carries the `action` filter
 * value it answers to (`action_key`: pushed for "pushed", "pushed to", "pushed new" and
 * "deleted", created for "created" and "opened"…) and its number among the project's events of
 * that value (`action_seq`), and likewise for `target_type` (`target_key`, `target_seq`). Page N
 * of `action=pushed` is then a range of `action_seq`, and its total the highest number.
 *
 * The date filters (`before`, `after`) need no number of their own while a project's events
 * were written in the order of their dates: the events between two dates are then a range of
 * `project_seq`, whose ends the (project, date, number) index finds. A project in which an
 * event was written dated before an earlier one (an import, a clock set back, two writers
 * racing over a second) is listed in `event_dates_unordered`, and its date filters read by
 * offset as before.
 *
 * Triggers set all of it, so every writer gets it for free; on PostgreSQL under the same
 * per-project advisory lock as `project_seq`.
 */

/** The `action` filter value of each stored action name (the events service's ACTION_NAMES). */
const ACTION_KEYS: Record<string, string> = {
  created: 'created',
  opened: 'created',
  updated: 'updated',
  closed: 'closed',
  reopened: 'reopened',
  pushed: 'pushed',
  'pushed to': 'pushed',
  'pushed new': 'pushed',
  deleted: 'pushed',
  'commented on': 'commented',
  merged: 'merged',
  accepted: 'merged',
  joined: 'joined',
  left: 'left',
  destroyed: 'destroyed',
  expired: 'expired',
  approved: 'approved',
};

/** The `target_type` filter value of each stored target type (the events service's TARGET_TYPES). */
const TARGET_KEYS: Record<string, string> = {
  Epic: 'epic',
  Issue: 'issue',
  MergeRequest: 'merge_request',
  Milestone: 'milestone',
  Note: 'note',
  DiffNote: 'note',
  Project: 'project',
  Snippet: 'snippet',
  ProjectSnippet: 'snippet',
  User: 'user',
};

/** `CASE column WHEN 'a' THEN 'x' … END` (NULL for a value no filter names). */
const keyOf = (column: RawBuilder<unknown>, keys: Record<string, string>): RawBuilder<unknown> =>
  sql`CASE ${column} ${sql.join(
    Object.entries(keys).map(([from, to]) => sql`WHEN ${sql.lit(from)} THEN ${sql.lit(to)}`),
    sql` `,
  )} ELSE NULL END`;

/** The `action` and `target_type` filter values of a stored action name and target type, in SQL (migration 036's trigger). */
export const actionKeyOf = (column: RawBuilder<unknown>) => keyOf(column, ACTION_KEYS);
export const targetKeyOf = (column: RawBuilder<unknown>) => keyOf(column, TARGET_KEYS);

export async function up(db: Kysely<any>): Promise<void> {
  for (const column of ['action_key', 'target_key']) await db.schema.alterTable('events').addColumn(column, 'text').execute();
  for (const column of ['action_seq', 'target_seq']) await db.schema.alterTable('events').addColumn(column, 'integer').execute();
  await db.schema
    .createTable('event_dates_unordered')
    .addColumn('project_id', 'integer', (c) => c.primaryKey().references('projects.id').onDelete('cascade'))
    .execute();

  // Existing events, in one pass each.
  await sql`UPDATE events SET action_key = ${keyOf(sql.ref('action_name'), ACTION_KEYS)}, target_key = ${keyOf(sql.ref('target_type'), TARGET_KEYS)}
    WHERE project_id IS NOT NULL`.execute(db);
  for (const [key, seq] of [
    ['action_key', 'action_seq'],
    ['target_key', 'target_seq'],
  ]) {
    await sql`UPDATE events SET ${sql.ref(seq)} = numbered.n
      FROM (SELECT id, row_number() OVER (PARTITION BY project_id, ${sql.ref(key)} ORDER BY project_seq) AS n
            FROM events WHERE project_id IS NOT NULL AND ${sql.ref(key)} IS NOT NULL) AS numbered
      WHERE numbered.id = events.id`.execute(db);
  }
  await sql`INSERT INTO event_dates_unordered (project_id)
    SELECT DISTINCT project_id FROM (
      SELECT project_id, created_at, max(created_at) OVER (PARTITION BY project_id ORDER BY project_seq ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS before_it
      FROM events WHERE project_id IS NOT NULL) AS dated
    WHERE created_at < before_it`.execute(db);

  await db.schema.createIndex('events_action_seq').unique().on('events').columns(['project_id', 'action_key', 'action_seq']).execute();
  await db.schema.createIndex('events_target_seq').unique().on('events').columns(['project_id', 'target_key', 'target_seq']).execute();
  // The (project, date) index, with the number: the ends of a date range are one entry each.
  await db.schema.dropIndex('events_project_created').execute();
  await db.schema.createIndex('events_project_created_seq').on('events').columns(['project_id', 'created_at', 'project_seq']).execute();

  // Unquoted: PL/pgSQL knows its row as NEW, not "NEW".
  const actionKey = (row: 'NEW') => keyOf(sql.raw(`${row}.action_name`), ACTION_KEYS);
  const targetKey = (row: 'NEW') => keyOf(sql.raw(`${row}.target_type`), TARGET_KEYS);
  if (isPostgres(db)) {
    await sql`
      CREATE FUNCTION events_number_by_filter() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.project_id IS NOT NULL AND NEW.action_seq IS NULL AND NEW.target_seq IS NULL THEN
          PERFORM pg_advisory_xact_lock(1701147745, NEW.project_id);
          NEW.action_key := ${actionKey('NEW')};
          NEW.target_key := ${targetKey('NEW')};
          IF NEW.action_key IS NOT NULL THEN
            SELECT coalesce(max(action_seq), 0) + 1 INTO NEW.action_seq FROM events WHERE project_id = NEW.project_id AND action_key = NEW.action_key;
          END IF;
          IF NEW.target_key IS NOT NULL THEN
            SELECT coalesce(max(target_seq), 0) + 1 INTO NEW.target_seq FROM events WHERE project_id = NEW.project_id AND target_key = NEW.target_key;
          END IF;
          IF EXISTS (SELECT 1 FROM events WHERE project_id = NEW.project_id AND created_at > NEW.created_at) THEN
            INSERT INTO event_dates_unordered (project_id) VALUES (NEW.project_id) ON CONFLICT DO NOTHING;
          END IF;
        END IF;
        RETURN NEW;
      END $$`.execute(db);
    await sql`CREATE TRIGGER events_number_by_filter BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION events_number_by_filter()`.execute(db);
  } else {
    // SQLite serialises writers, so the next numbers need no lock.
    await sql`
      CREATE TRIGGER events_number_by_filter AFTER INSERT ON events
      WHEN NEW.project_id IS NOT NULL AND NEW.action_seq IS NULL AND NEW.target_seq IS NULL
      BEGIN
        UPDATE events SET
          action_key = ${actionKey('NEW')},
          action_seq = CASE WHEN ${actionKey('NEW')} IS NULL THEN NULL ELSE
            (SELECT coalesce(max(action_seq), 0) + 1 FROM events WHERE project_id = NEW.project_id AND action_key = ${actionKey('NEW')}) END,
          target_key = ${targetKey('NEW')},
          target_seq = CASE WHEN ${targetKey('NEW')} IS NULL THEN NULL ELSE
            (SELECT coalesce(max(target_seq), 0) + 1 FROM events WHERE project_id = NEW.project_id AND target_key = ${targetKey('NEW')}) END
        WHERE id = NEW.id;
        INSERT OR IGNORE INTO event_dates_unordered (project_id)
          SELECT NEW.project_id WHERE EXISTS (SELECT 1 FROM events WHERE project_id = NEW.project_id AND created_at > NEW.created_at);
      END`.execute(db);
  }
}
