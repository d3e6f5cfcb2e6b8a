import type { Kysely } from 'kysely';
import { isPostgres } from '../dialect.ts';
import { withId } from './001_core.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

/** Every event flag a hook may have; the group-only ones are refused on project hooks. */
export const HOOK_EVENT_FLAGS = [
  'push_events',
  'tag_push_events',
  'merge_requests_events',
  'repository_update_events',
  'issues_events',
  'confidential_issues_events',
  'note_events',
  'confidential_note_events',
  'pipeline_events',
  'wiki_page_events',
  'job_events',
  'deployment_events',
  'feature_flag_events',
  'releases_events',
  'milestone_events',
  'resource_access_token_events',
  'subgroup_events',
  'emoji_events',
  'member_events',
  'project_events',
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  let hooks = withId(db, db.schema.createTable('web_hooks'))
    .addColumn('uuid', 'text', (c) => c.notNull().unique())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('group_id', 'integer', (c) => c.references('groups.id').onDelete('cascade'))
    .addColumn('project_id', 'integer', (c) => c.references('projects.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('encrypted_token', 'text')
    .addColumn('encrypted_custom_headers', 'text')
    .addColumn('encrypted_url_variables', 'text')
    .addColumn('custom_webhook_template', 'text')
    .addColumn('push_events_branch_filter', 'text')
    .addColumn('branch_filter_strategy', 'text', (c) => c.notNull().defaultTo('wildcard'))
    .addColumn('enable_ssl_verification', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('recent_failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('backoff_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('disabled_until', 'text')
    .addColumn('permanently_disabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull());
  for (const flag of HOOK_EVENT_FLAGS) hooks = hooks.addColumn(flag, 'integer', (c) => c.notNull().defaultTo(flag === 'push_events' ? 1 : 0));
  await hooks.execute();
  await db.schema.createIndex('web_hooks_group').on('web_hooks').column('group_id').execute();
  await db.schema.createIndex('web_hooks_project').on('web_hooks').column('project_id').execute();

  await withId(db, db.schema.createTable('web_hook_logs'))
    .addColumn('web_hook_id', 'integer', (c) => c.notNull().references('web_hooks.id').onDelete('cascade'))
    .addColumn('trigger', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('request_headers', 'text', (c) => c.notNull())
    .addColumn('request_data', 'text', (c) => c.notNull())
    .addColumn('response_headers', 'text', (c) => c.notNull())
    .addColumn('response_body', 'text', (c) => c.notNull())
    .addColumn('response_status', 'text', (c) => c.notNull())
    .addColumn('execution_duration', isPostgres(db) ? 'double precision' : 'real', (c) => c.notNull())
    .addColumn('internal_error_message', 'text')
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('event_uuid', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('web_hook_logs_hook_created').on('web_hook_logs').columns(['web_hook_id', 'created_at']).execute();
  await db.schema.createIndex('web_hook_logs_created').on('web_hook_logs').column('created_at').execute();

  await withId(db, db.schema.createTable('jobs'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('run_at', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull().defaultTo(5))
    .addColumn('locked_by', 'text')
    .addColumn('locked_until', 'text')
    .addColumn('last_error', 'text')
    .addColumn('unique_key', 'text', (c) => c.unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('jobs_claim').on('jobs').columns(['state', 'run_at']).execute();
}
