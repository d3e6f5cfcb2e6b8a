import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.ts';
import { actionKeyOf, targetKeyOf } from './033_event_filter_numbers.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * An author's events numbered as a project's are (migrations 015 and 033), so that a page of
 * GET /users/:id/events or GET /events, filtered or not, is a range of numbers: page 10,000 costs
 * what page 1 does.
 *
 * Each event in a project carries its number among its author's (`author_seq`), among its
 * author's of the same `action` filter value (`author_action_seq`) and of the same `target_type`
 * (`author_target_seq`). The date filters use the (author, date, number) index while the author's
 * events were written in the order of their dates; an author for whom one was not is listed in
 * `author_event_dates_unordered`, as projects are in `event_dates_unordered`.
 *
 * Unlike a project's, an author's events can be removed while the author stays: a deleted project
 * takes its events with it. The numbers then have gaps, so a trigger lists the author in
 * `author_event_gaps`; their lists read by offset (right, only slower) until housekeeping numbers
 * their events again (services/planning/events.ts, renumberAuthorEvents).
 *
 * These indexes replace 035's (author, id) ones and 008's (author, date) one.
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const column of ['author_seq', 'author_action_seq', 'author_target_seq']) await db.schema.alterTable('events').addColumn(column, 'integer').execute();
  for (const table of ['author_event_dates_unordered', 'author_event_gaps']) {
    await db.schema
      .createTable(table)
      .addColumn('author_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
      .execute();
  }

  await numberAuthorEvents(db, sql`author_id IS NOT NULL`);
  await sql`INSERT INTO author_event_dates_unordered (author_id)
    SELECT DISTINCT author_id FROM (
      SELECT author_id, created_at, max(created_at) OVER (PARTITION BY author_id ORDER BY author_seq ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS before_it
      FROM events WHERE project_id IS NOT NULL AND author_id IS NOT NULL) AS dated
    WHERE created_at < before_it`.execute(db);

  for (const index of ['events_author_listed', 'events_author_action', 'events_author_target', 'events_author_created']) await db.schema.dropIndex(index).execute();
  const inProject = sql<boolean>`project_id IS NOT NULL`;
  await db.schema.createIndex('events_author_seq').on('events').columns(['author_id', 'author_seq']).where(inProject).execute();
  await db.schema.createIndex('events_author_action_seq').on('events').columns(['author_id', 'action_key', 'author_action_seq']).where(inProject).execute();
  await db.schema.createIndex('events_author_target_seq').on('events').columns(['author_id', 'target_key', 'author_target_seq']).where(inProject).execute();
  await db.schema.createIndex('events_author_created_seq').on('events').columns(['author_id', 'created_at', 'author_seq']).where(inProject).execute();

  // Unquoted: PL/pgSQL knows its row as NEW, not "NEW".
  const actionKey = actionKeyOf(sql.raw('NEW.action_name'));
  const targetKey = targetKeyOf(sql.raw('NEW.target_type'));
  const mine = sql`author_id = NEW.author_id AND project_id IS NOT NULL`;
  const unordered = sql`EXISTS (SELECT 1 FROM events WHERE ${mine} AND created_at > NEW.created_at)`;
  if (isPostgres(db)) {
    await sql`
      CREATE FUNCTION events_number_by_author() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        action_value text := ${actionKey};
        target_value text := ${targetKey};
      BEGIN
        IF NEW.project_id IS NOT NULL AND NEW.author_id IS NOT NULL AND NEW.author_seq IS NULL THEN
          PERFORM pg_advisory_xact_lock(1701147746, NEW.author_id);
          SELECT coalesce(max(author_seq), 0) + 1 INTO NEW.author_seq FROM events WHERE ${mine};
          IF action_value IS NOT NULL THEN
            SELECT coalesce(max(author_action_seq), 0) + 1 INTO NEW.author_action_seq FROM events WHERE ${mine} AND action_key = action_value;
          END IF;
          IF target_value IS NOT NULL THEN
            SELECT coalesce(max(author_target_seq), 0) + 1 INTO NEW.author_target_seq FROM events WHERE ${mine} AND target_key = target_value;
          END IF;
          IF ${unordered} THEN
            INSERT INTO author_event_dates_unordered (author_id) VALUES (NEW.author_id) ON CONFLICT DO NOTHING;
          END IF;
        END IF;
        RETURN NEW;
      END $$`.execute(db);
    await sql`CREATE TRIGGER events_number_by_author BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION events_number_by_author()`.execute(db);
    // Once per statement: a deleted project's million events list their authors in one insert.
    await sql`
      CREATE FUNCTION events_author_gaps() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO author_event_gaps (author_id)
          SELECT DISTINCT gone.author_id FROM gone JOIN users ON users.id = gone.author_id WHERE gone.author_seq IS NOT NULL
          ON CONFLICT DO NOTHING;
        RETURN NULL;
      END $$`.execute(db);
    await sql`CREATE TRIGGER events_author_gaps AFTER DELETE ON events REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION events_author_gaps()`.execute(db);
    // Every lookup of the numbering triggers is one entry of an index. The plans PL/pgSQL keeps
    // were made for the table as its statistics last saw it: when it was small, a scan of the
    // table, which an INSERT … SELECT of many events then ran once per row (10,001 events into a
    // new database: 37.6 s; with the scans off, 2.1 s).
    for (const fn of ['events_number_in_project', 'events_number_by_filter', 'events_number_by_author']) {
      await sql`ALTER FUNCTION ${sql.raw(fn)}() SET enable_seqscan = off`.execute(db);
    }
  } else {
    // SQLite serialises writers, so the next numbers need no lock.
    const next = (column: string, key?: [string, unknown]) =>
      sql`(SELECT coalesce(max(${sql.ref(column)}), 0) + 1 FROM events WHERE ${mine}${key ? sql` AND ${sql.ref(key[0])} = ${key[1]}` : sql``})`;
    await sql`
      CREATE TRIGGER events_number_by_author AFTER INSERT ON events
      WHEN NEW.project_id IS NOT NULL AND NEW.author_id IS NOT NULL AND NEW.author_seq IS NULL
      BEGIN
        UPDATE events SET
          author_seq = ${next('author_seq')},
          author_action_seq = CASE WHEN ${actionKey} IS NULL THEN NULL ELSE ${next('author_action_seq', ['action_key', actionKey])} END,
          author_target_seq = CASE WHEN ${targetKey} IS NULL THEN NULL ELSE ${next('author_target_seq', ['target_key', targetKey])} END
        WHERE id = NEW.id;
        INSERT OR IGNORE INTO author_event_dates_unordered (author_id) SELECT NEW.author_id WHERE ${unordered};
      END`.execute(db);
    await sql`
      CREATE TRIGGER events_author_gaps AFTER DELETE ON events
      WHEN OLD.author_seq IS NOT NULL
      BEGIN
        INSERT OR IGNORE INTO author_event_gaps (author_id) SELECT OLD.author_id WHERE EXISTS (SELECT 1 FROM users WHERE id = OLD.author_id);
      END`.execute(db);
  }
}

/**
 * Numbers the events of the authors `which` selects, 1, 2, 3… in the order of their ids, overall
 * and per filter value. Also what housekeeping runs for an author whose numbers have gaps.
 */
export async function numberAuthorEvents(db: Kysely<any>, which: ReturnType<typeof sql<boolean>>): Promise<void> {
  const mine = sql`project_id IS NOT NULL AND ${which}`;
  await sql`UPDATE events SET author_seq = numbered.n
    FROM (SELECT id, row_number() OVER (PARTITION BY author_id ORDER BY id) AS n FROM events WHERE ${mine}) AS numbered
    WHERE numbered.id = events.id`.execute(db);
  for (const [key, seq] of [
    ['action_key', 'author_action_seq'],
    ['target_key', 'author_target_seq'],
  ]) {
    await sql`UPDATE events SET ${sql.ref(seq)} = numbered.n
      FROM (SELECT id, row_number() OVER (PARTITION BY author_id, ${sql.ref(key)} ORDER BY id) AS n
            FROM events WHERE ${mine} AND ${sql.ref(key)} IS NOT NULL) AS numbered
      WHERE numbered.id = events.id`.execute(db);
  }
}
