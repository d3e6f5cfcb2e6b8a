import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.ts';
import { withId } from './001_core.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * Epics of groups, and what makes deep pages of a project's events fast.
 *
 * `events.project_seq` numbers a project's events 1, 2, 3… in the order they were written
 * (a trigger sets it, so every writer gets it for free). Events are append-only, so page N of
 * a project's events is a range of numbers found through the index, and the total is the
 * highest number: neither scans the rows before the page. On PostgreSQL an advisory lock per
 * project keeps concurrent writers from taking the same number.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('events').addColumn('project_seq', 'integer').execute();
  // Existing events are numbered in one pass (UPDATE … FROM works on both engines).
  await sql`UPDATE events SET project_seq = numbered.n
    FROM (SELECT id, row_number() OVER (PARTITION BY project_id ORDER BY id) AS n FROM events WHERE project_id IS NOT NULL) AS numbered
    WHERE numbered.id = events.id`.execute(db);
  await db.schema.createIndex('events_project_seq').unique().on('events').columns(['project_id', 'project_seq']).execute();
  // Keyset order of the other lists (an author's events, the projects of a dashboard).
  await db.schema.createIndex('events_project_id').on('events').columns(['project_id', 'id']).execute();
  await db.schema.createIndex('events_author_id').on('events').columns(['author_id', 'id']).execute();
  if (isPostgres(db)) {
    await sql`
      CREATE FUNCTION events_number_in_project() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.project_id IS NOT NULL AND NEW.project_seq IS NULL THEN
          PERFORM pg_advisory_xact_lock(1701147745, NEW.project_id);
          SELECT coalesce(max(project_seq), 0) + 1 INTO NEW.project_seq FROM events WHERE project_id = NEW.project_id;
        END IF;
        RETURN NEW;
      END $$`.execute(db);
    await sql`CREATE TRIGGER events_project_seq BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION events_number_in_project()`.execute(db);
  } else {
    // SQLite serialises writers, so the next number needs no lock.
    await sql`
      CREATE TRIGGER events_project_seq AFTER INSERT ON events
      WHEN NEW.project_id IS NOT NULL AND NEW.project_seq IS NULL
      BEGIN
        UPDATE events SET project_seq = (SELECT coalesce(max(project_seq), 0) + 1 FROM events WHERE project_id = NEW.project_id) WHERE id = NEW.id;
      END`.execute(db);
  }

  await withId(db, db.schema.createTable('epics'))
    .addColumn('group_id', 'integer', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('iid', 'integer', (c) => c.notNull())
    .addColumn('author_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('opened'))
    .addColumn('confidential', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('parent_id', 'integer', (c) => c.references('epics.id').onDelete('set null'))
    .addColumn('color', 'text', (c) => c.notNull().defaultTo('#1068bf'))
    .addColumn('start_date_fixed', 'text')
    .addColumn('start_date_is_fixed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('due_date_fixed', 'text')
    .addColumn('due_date_is_fixed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('closed_at', 'text')
    .addColumn('closed_by_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('epics_group_iid').unique().on('epics').columns(['group_id', 'iid']).execute();
  await db.schema.createIndex('epics_parent').on('epics').column('parent_id').execute();
}
