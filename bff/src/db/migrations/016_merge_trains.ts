import type { Kysely } from 'kysely';
import { withId } from './001_core.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * Merging merge requests and merge trains: the project's merge settings, the cars of its
 * trains, and the context commits a merge request names.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('projects').addColumn('merge_method', 'text', (c) => c.notNull().defaultTo('merge')).execute();
  await db.schema.alterTable('projects').addColumn('merge_trains_enabled', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('projects').addColumn('merge_trains_skip_train_allowed', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  // The platform runs at most this many cars' pipelines at once (20 there).
  await db.schema.alterTable('projects').addColumn('merge_trains_cars_limit', 'integer', (c) => c.notNull().defaultTo(20)).execute();

  await withId(db, db.schema.createTable('merge_train_cars'))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('merge_request_id', 'integer', (c) => c.notNull().references('merge_requests.id').onDelete('cascade'))
    // Set to merge_request_id while the car is on the train, null after: one active car per merge request.
    .addColumn('active_merge_request_id', 'integer')
    .addColumn('target_branch', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('status', 'text', (c) => c.notNull())
    // Waiting for the merge request's own pipeline to pass before joining (auto_merge).
    .addColumn('scheduled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('squash', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sequence', 'integer', (c) => c.notNull())
    .addColumn('pipeline_id', 'integer', (c) => c.references('pipelines.id').onDelete('set null'))
    // What the train ref was built from: the commit below it and the source head merged on top.
    .addColumn('base_sha', 'text')
    .addColumn('source_sha', 'text')
    .addColumn('train_ref_sha', 'text')
    .addColumn('conflict', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('dropped_reason', 'text')
    .addColumn('pipeline_started_at', 'text')
    .addColumn('merged_at', 'text')
    .addColumn('finished_at', 'text')
    .addColumn('duration', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('merge_train_cars_active_mr').unique().on('merge_train_cars').column('active_merge_request_id').execute();
  await db.schema.createIndex('merge_train_cars_train').on('merge_train_cars').columns(['project_id', 'target_branch', 'sequence']).execute();
  await db.schema.createIndex('merge_train_cars_pipeline').on('merge_train_cars').column('pipeline_id').execute();

  await withId(db, db.schema.createTable('merge_request_context_commits'))
    .addColumn('merge_request_id', 'integer', (c) => c.notNull().references('merge_requests.id').onDelete('cascade'))
    .addColumn('sha', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('merge_request_context_commits_mr_sha').unique().on('merge_request_context_commits').columns(['merge_request_id', 'sha']).execute();
}
