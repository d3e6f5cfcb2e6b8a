import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.ts';
import { withId } from './001_core.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * The file store (bff/src/files): one row per stored file, by its key, published (`complete`)
 * only once all its bytes are written, so a reader never sees half a file; at most one
 * published file per key (a partial unique index). On PostgreSQL the bytes are rows of
 * `stored_file_chunks` (up to 512 KiB each, in `seq` order), deleted with their file; on
 * SQLite they are a file in the data directory named by the row's id, and the chunk table
 * stays empty. `export.file_key` names an export's file in the store; `file_path` is kept
 * for exports written before, whose file is read from that path while it is there.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  await withId(db, db.schema.createTable('stored_files'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('size', pg ? 'bigint' : 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('digest', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('complete', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('stored_files_published_key').on('stored_files').column('key').unique().where(sql<boolean>`complete = 1`).execute();
  await db.schema.createIndex('stored_files_key').on('stored_files').columns(['key', 'complete']).execute();
  await db.schema.createIndex('stored_files_created').on('stored_files').column('created_at').execute();
  await db.schema
    .createTable('stored_file_chunks')
    .addColumn('file_id', 'integer', (c) => c.notNull().references('stored_files.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('data', pg ? 'bytea' : 'blob', (c) => c.notNull())
    .addPrimaryKeyConstraint('stored_file_chunks_pkey', ['file_id', 'seq'])
    .execute();
  await db.schema.alterTable('exports').addColumn('file_key', 'text').execute();
}
