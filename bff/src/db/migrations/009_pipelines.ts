import type { Kysely } from 'kysely';
import { isPostgres } from '../dialect.ts';
import { withId } from './001_core.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * Pipelines run by external CI systems: trigger tokens, pipelines and their jobs (commit
 * statuses). A trigger token is kept as a digest (to find it) and encrypted (so that its owner
 * sees it whole, as the platform shows it).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const real = isPostgres(db) ? 'double precision' : 'real';
  await withId(db, db.schema.createTable('pipeline_triggers'))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('owner_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('token_digest', 'text', (c) => c.notNull().unique())
    .addColumn('encrypted_token', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('pipeline_triggers_project').on('pipeline_triggers').column('project_id').execute();

  await withId(db, db.schema.createTable('pipelines'))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('iid', 'integer', (c) => c.notNull())
    .addColumn('sha', 'text', (c) => c.notNull())
    .addColumn('before_sha', 'text', (c) => c.notNull())
    .addColumn('ref', 'text', (c) => c.notNull())
    .addColumn('tag', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('trigger_id', 'integer', (c) => c.references('pipeline_triggers.id').onDelete('set null'))
    .addColumn('variables', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('inputs', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('coverage', 'text')
    .addColumn('commit_message', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('commit_author_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('commit_author_email', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('committed_at', 'text')
    .addColumn('started_at', 'text')
    .addColumn('finished_at', 'text')
    .addColumn('duration', real)
    .addColumn('queued_duration', real)
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('pipelines_project_iid').unique().on('pipelines').columns(['project_id', 'iid']).execute();
  await db.schema.createIndex('pipelines_project_sha').on('pipelines').columns(['project_id', 'sha']).execute();
  await db.schema.createIndex('pipelines_project_updated').on('pipelines').columns(['project_id', 'updated_at']).execute();

  await withId(db, db.schema.createTable('pipeline_jobs'))
    .addColumn('pipeline_id', 'integer', (c) => c.notNull().references('pipelines.id').onDelete('cascade'))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('stage', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('ref', 'text', (c) => c.notNull())
    .addColumn('sha', 'text', (c) => c.notNull())
    .addColumn('target_url', 'text')
    .addColumn('description', 'text')
    .addColumn('coverage', real)
    .addColumn('allow_failure', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('retried', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text')
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema.createIndex('pipeline_jobs_pipeline').on('pipeline_jobs').columns(['pipeline_id', 'name']).execute();
  await db.schema.createIndex('pipeline_jobs_project_sha').on('pipeline_jobs').columns(['project_id', 'sha']).execute();
}
