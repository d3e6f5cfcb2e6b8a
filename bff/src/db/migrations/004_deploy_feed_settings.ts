import type { Kysely } from 'kysely';
import { withId } from './001_core.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('deploy_tokens'))
    .addColumn('group_id', 'integer', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('token_digest', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'text')
    .addColumn('revoked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('deploy_tokens_group').on('deploy_tokens').column('group_id').execute();

  await withId(db, db.schema.createTable('feed_tokens'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_digest', 'text', (c) => c.notNull().unique())
    .addColumn('revoked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('feed_tokens_user').on('feed_tokens').column('user_id').execute();

  await db.schema
    .createTable('application_settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}
