import { sql, type Kysely } from 'kysely';
import { withId } from './001_core.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * Vulnerability and dependency list exports: one table, `kind` telling them apart, since both
 * live the same life (created → running → finished | failed, a file, an expiry). The
 * exportable is a project, a group, a pipeline, or none of them (the author's security
 * dashboard). `in_progress_key` is set while an export is unfinished: its unique index lets
 * one export per author and exportable run at a time, even for two requests at once.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('exports'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('author_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('project_id', 'integer', (c) => c.references('projects.id').onDelete('cascade'))
    .addColumn('group_id', 'integer', (c) => c.references('groups.id').onDelete('cascade'))
    .addColumn('pipeline_id', 'integer', (c) => c.references('pipelines.id').onDelete('cascade'))
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('created'))
    .addColumn('error', 'text')
    .addColumn('in_progress_key', 'text', (c) => c.unique())
    .addColumn('file_path', 'text')
    .addColumn('file_size', 'integer')
    .addColumn('file_digest', 'text')
    .addColumn('row_count', 'integer')
    .addColumn('send_email', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('started_at', 'text')
    .addColumn('finished_at', 'text')
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addCheckConstraint('exports_status', sql`status IN ('created', 'running', 'finished', 'failed')`)
    .execute();
  await db.schema.createIndex('exports_author').on('exports').columns(['author_id', 'id']).execute();
  await db.schema.createIndex('exports_expires').on('exports').column('expires_at').execute();
  // Exports read findings and components in id order, one project or pipeline at a time.
  await db.schema.createIndex('vulnerabilities_project_id_order').on('vulnerabilities').columns(['project_id', 'id']).execute();
  await db.schema.createIndex('dependencies_pipeline_id_order').on('dependencies').columns(['pipeline_id', 'id']).execute();
}
