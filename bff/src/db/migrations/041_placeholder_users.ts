import { sql, type Kysely } from 'kysely';
import { withId } from './001_core.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * Placeholder users of imports, as on the platform (its import_source_users): someone of an
 * imported archive (a member, an epic's author) who is not a user here. A placeholder has no
 * access: it holds that person's contributions (`import_placeholder_references`: a row's column
 * that names them, left empty meanwhile) and memberships (`import_placeholder_memberships`: the
 * role they had) until an Owner of the top group reassigns it to a user (`reassign_to_user_id`,
 * status `reassignment_in_progress` then `completed`), who then gets both.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('import_source_users'))
    .addColumn('namespace_id', 'integer', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('source_hostname', 'text', (c) => c.notNull())
    .addColumn('import_type', 'text', (c) => c.notNull())
    .addColumn('source_user_identifier', 'text', (c) => c.notNull())
    .addColumn('source_name', 'text')
    .addColumn('source_username', 'text')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending_reassignment'))
    .addColumn('reassign_to_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addCheckConstraint('import_source_users_status', sql`status IN ('pending_reassignment', 'reassignment_in_progress', 'completed')`)
    .execute();
  await db.schema
    .createIndex('import_source_users_identity')
    .unique()
    .on('import_source_users')
    .columns(['namespace_id', 'source_hostname', 'import_type', 'source_user_identifier'])
    .execute();

  await withId(db, db.schema.createTable('import_placeholder_references'))
    .addColumn('source_user_id', 'integer', (c) => c.notNull().references('import_source_users.id').onDelete('cascade'))
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('record_id', 'integer', (c) => c.notNull())
    .addColumn('attribute', 'text', (c) => c.notNull())
    .addCheckConstraint('import_placeholder_references_target', sql`model = 'Epic' AND attribute IN ('author_id', 'closed_by_id')`)
    .execute();
  await db.schema.createIndex('import_placeholder_references_user').on('import_placeholder_references').columns(['source_user_id', 'id']).execute();

  await withId(db, db.schema.createTable('import_placeholder_memberships'))
    .addColumn('source_user_id', 'integer', (c) => c.notNull().references('import_source_users.id').onDelete('cascade'))
    .addColumn('group_id', 'integer', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('access_level', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .execute();
  await db.schema.createIndex('import_placeholder_memberships_user').on('import_placeholder_memberships').columns(['source_user_id', 'id']).execute();
}
