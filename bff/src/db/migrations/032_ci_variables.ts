import type { Kysely } from 'kysely';
import { withId } from './001_core.ts';
import { addTwinOwner } from '../twins.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * CI/CD variables of projects and groups (twins, db/twins.ts). The value is kept encrypted
 * (auth/vault.ts), as the platform keeps it; a key is unique per owner and environment scope.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await addTwinOwner(withId(db, db.schema.createTable('ci_variables')), 'ci_variables')
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('encrypted_value', 'text', (c) => c.notNull())
    .addColumn('variable_type', 'text', (c) => c.notNull().defaultTo('env_var'))
    .addColumn('protected', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('masked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('hidden', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('raw', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('environment_scope', 'text', (c) => c.notNull().defaultTo('*'))
    .addColumn('description', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ci_variables_group_key_scope').unique().on('ci_variables').columns(['group_id', 'key', 'environment_scope']).execute();
  await db.schema.createIndex('ci_variables_project_key_scope').unique().on('ci_variables').columns(['project_id', 'key', 'environment_scope']).execute();
}
