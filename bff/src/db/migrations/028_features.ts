import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.ts';
import { withId } from './001_core.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * Feature flags set through the Features API, as the platform's Flipper keeps them: a row per
 * flag once it was set (a flag without one has its definition's default), its boolean and
 * percentage gates, and its actor gates (flipper ids such as `Project:7`, `User:3:opt_out`).
 *
 * Two instance settings stood in for flags until now (group_token_revocation_enabled,
 * web_hook_event_resend_api_endpoint_rate_limit): a value saved for either becomes that flag's
 * boolean gate, and the setting's row goes, so that the flag is the one place it is kept.
 *
 * On PostgreSQL every write to either table sends a notice (the function of migration 022), so
 * that every instance stops using the flag reads it keeps (db/table-changes.ts).
 */
const STAND_INS: [setting: string, flag: string][] = [
  ['group_token_revocation_enabled', 'group_agnostic_token_revocation'],
  ['web_hook_event_resend_api_endpoint_rate_limit', 'web_hook_event_resend_api_endpoint_rate_limit'],
];

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('features')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('boolean_value', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('percentage_of_actors', 'double precision')
    .addColumn('percentage_of_time', 'double precision')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // An id, so that a flag's actors are listed in the order they were added, as Flipper lists them.
  await withId(db, db.schema.createTable('feature_actors'))
    .addColumn('feature_name', 'text', (c) => c.notNull().references('features.name').onDelete('cascade'))
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('feature_actors_feature_actor').on('feature_actors').columns(['feature_name', 'actor']).unique().execute();

  for (const [setting, flag] of STAND_INS) {
    const saved = await db.selectFrom('application_settings').select(['value', 'updated_at']).where('key', '=', setting).executeTakeFirst();
    if (!saved) continue;
    const on = saved.value === 'true' ? 1 : 0;
    await db.insertInto('features').values({ name: flag, boolean_value: on, created_at: saved.updated_at, updated_at: saved.updated_at }).execute();
    await db.deleteFrom('application_settings').where('key', '=', setting).execute();
  }

  if (!isPostgres(db)) return;
  for (const table of ['features', 'feature_actors']) {
    await sql`
      create trigger ${sql.raw(`${table}_changed`)} after insert or update or delete or truncate on ${sql.table(table)}
      for each statement execute function gatehouse_table_changed()`.execute(db);
  }
}
