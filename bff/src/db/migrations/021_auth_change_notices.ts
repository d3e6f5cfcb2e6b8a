import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * PostgreSQL only: a change to a user or an access token that can change what a token may do
 * (revoked, expired, scopes, the user blocked or made an administrator, a row deleted) sends a
 * notice on the channel `gatehouse_auth` when it commits, so that every Gatehouse instance on
 * the database drops the token lookups it keeps (db/auth-changes.ts). The marks of use
 * (a token's last_used_at, a user's last_sign_in_at) send none: they change nothing a lookup
 * decides. SQLite keeps no lookups (its query runs in the process), so it needs no notice.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`
    create function gatehouse_auth_changed() returns trigger language plpgsql as $$
    begin
      perform pg_notify('gatehouse_auth', tg_table_name);
      return null;
    end $$`.execute(db);
  for (const [table, usageMark] of [
    ['personal_access_tokens', 'last_used_at'],
    ['users', 'last_sign_in_at'],
  ] as const) {
    await sql`
      create trigger ${sql.raw(`${table}_auth_updated`)} after update on ${sql.table(table)} for each row
      when ((to_jsonb(old) - ${sql.lit(usageMark)}) is distinct from (to_jsonb(new) - ${sql.lit(usageMark)}))
      execute function gatehouse_auth_changed()`.execute(db);
    await sql`create trigger ${sql.raw(`${table}_auth_deleted`)} after delete on ${sql.table(table)} for each row execute function gatehouse_auth_changed()`.execute(db);
    await sql`create trigger ${sql.raw(`${table}_auth_truncated`)} after truncate on ${sql.table(table)} for each statement execute function gatehouse_auth_changed()`.execute(db);
  }
}
