import { sql, type Kysely } from 'kysely';
import { withId } from './001_core.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * Group export and import in the platform's archive (services/transfer/). A group's
 * `import_status` (null for a group never imported; scheduled → started → finished | failed)
 * and `import_error` show an import's progress on GET /groups/:id. `group_exports` holds the
 * one export of a group (the next one replaces it): its state, the author, its file's key in
 * the file store and its expiry (the retention of other exports).
 *
 * Boards (with their lists) and badges come with the archive: they are kept with just what it
 * carries, so that an export → import round trip keeps them.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('groups').addColumn('import_status', 'text').execute();
  await db.schema.alterTable('groups').addColumn('import_error', 'text').execute();

  await withId(db, db.schema.createTable('group_exports'))
    .addColumn('group_id', 'integer', (c) => c.notNull().unique().references('groups.id').onDelete('cascade'))
    .addColumn('author_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('file_key', 'text')
    .addColumn('file_size', 'integer')
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addCheckConstraint('group_exports_status', sql`status IN ('scheduled', 'started', 'finished', 'failed')`)
    .execute();
  await db.schema.createIndex('group_exports_expires').on('group_exports').column('expires_at').execute();

  await withId(db, db.schema.createTable('boards'))
    .addColumn('group_id', 'integer', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('hide_backlog_list', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('hide_closed_list', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('boards_group').on('boards').columns(['group_id', 'id']).execute();
  await withId(db, db.schema.createTable('board_lists'))
    .addColumn('board_id', 'integer', (c) => c.notNull().references('boards.id').onDelete('cascade'))
    .addColumn('list_type', 'text', (c) => c.notNull())
    .addColumn('position', 'integer')
    .addColumn('label_id', 'integer', (c) => c.references('labels.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('board_lists_board').on('board_lists').columns(['board_id', 'id']).execute();

  await withId(db, db.schema.createTable('badges'))
    .addColumn('group_id', 'integer', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('name', 'text')
    .addColumn('link_url', 'text', (c) => c.notNull())
    .addColumn('image_url', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('badges_group').on('badges').columns(['group_id', 'id']).execute();
}
