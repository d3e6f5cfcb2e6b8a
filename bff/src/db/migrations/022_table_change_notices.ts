import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * PostgreSQL only: every statement that inserts, updates, deletes or truncates groups, projects
 * or members sends a notice on the channel `gatehouse_changes`, naming the table, when it
 * commits, so that every Gatehouse instance on the database stops using the reads of it that
 * it keeps (db/table-changes.ts). Once per statement, not per row: the notice says which
 * table changed, never which rows (and PostgreSQL sends one notice per transaction for the
 * same table). SQLite keeps no reads, so it needs no notice.
 */
const TABLES = ['groups', 'projects', 'members'];

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`
    create function gatehouse_table_changed() returns trigger language plpgsql as $$
    begin
      perform pg_notify('gatehouse_changes', tg_table_name);
      return null;
    end $$`.execute(db);
  for (const table of TABLES) {
    await sql`
      create trigger ${sql.raw(`${table}_changed`)} after insert or update or delete or truncate on ${sql.table(table)}
      for each statement execute function gatehouse_table_changed()`.execute(db);
  }
}

