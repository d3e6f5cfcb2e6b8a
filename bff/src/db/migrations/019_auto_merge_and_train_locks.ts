import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * Merging when the pipeline succeeds (the platform's auto-merge outside trains), the project's
 * merge settings of PUT /projects/:id, and the locks that keep one train driven by one run
 * across every instance sharing the database.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('merge_requests').addColumn('auto_merge_enabled', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  // What the merge is to be done with once the pipeline passes (sha, squash, messages, branch removal), as JSON.
  await db.schema.alterTable('merge_requests').addColumn('merge_params', 'text').execute();
  await db.schema.createIndex('merge_requests_auto_merge').on('merge_requests').columns(['project_id', 'auto_merge_enabled', 'source_branch']).execute();

  await db.schema.alterTable('projects').addColumn('only_allow_merge_if_pipeline_succeeds', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('projects').addColumn('remove_source_branch_after_merge', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  await db.schema.alterTable('projects').addColumn('squash_option', 'text', (c) => c.notNull().defaultTo('default_off')).execute();
  await db.schema.alterTable('projects').addColumn('merge_pipelines_enabled', 'integer', (c) => c.notNull().defaultTo(0)).execute();

  // One row per train being driven: whoever holds it (until its lease runs out) is the only one moving that train.
  await db.schema
    .createTable('train_locks')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('locked_until', 'text', (c) => c.notNull())
    .execute();
}
