import { sql, type Kysely } from 'kysely';
import { withId } from './001_core.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * Integrated error tracking (spec part 2, "Error tracking"): a project's setting, its client
 * keys (the DSN's public key), and what the collector makes of the SDKs' events: errors grouped
 * by fingerprint, each with its counters, the users it reached, an hourly count and its events.
 * Ingestion writes on the hot path: every write there finds its row by a unique index (the key,
 * the fingerprint, a user of an error, an hour of an error), never by a scan.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('error_tracking_settings')
    .addColumn('project_id', 'integer', (c) => c.primaryKey().references('projects.id').onDelete('cascade'))
    .addColumn('active', 'integer', (c) => c.notNull())
    .addColumn('integrated', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable('error_tracking_client_keys'))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('public_key', 'text', (c) => c.notNull().unique())
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('error_tracking_client_keys_project').on('error_tracking_client_keys').columns(['project_id', 'id']).execute();

  await withId(db, db.schema.createTable('error_tracking_errors'))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('platform', 'text')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('unresolved'))
    .addColumn('events_count', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('users_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('first_seen_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .addColumn('stack_trace', 'text', (c) => c.notNull())
    .addColumn('issue_id', 'integer', (c) => c.references('issues.id').onDelete('set null'))
    .addCheckConstraint('error_tracking_errors_status', sql`status IN ('unresolved', 'resolved', 'ignored')`)
    .execute();
  await db.schema.createIndex('error_tracking_errors_fingerprint').unique().on('error_tracking_errors').columns(['project_id', 'fingerprint']).execute();
  await db.schema.createIndex('error_tracking_errors_last_seen').on('error_tracking_errors').columns(['project_id', 'last_seen_at', 'id']).execute();
  await db.schema.createIndex('error_tracking_errors_first_seen').on('error_tracking_errors').columns(['project_id', 'first_seen_at', 'id']).execute();
  await db.schema.createIndex('error_tracking_errors_status_last_seen').on('error_tracking_errors').columns(['project_id', 'status', 'last_seen_at', 'id']).execute();

  await withId(db, db.schema.createTable('error_tracking_error_events'))
    .addColumn('error_id', 'integer', (c) => c.notNull().references('error_tracking_errors.id').onDelete('cascade'))
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('level', 'text')
    .addColumn('environment', 'text')
    .addColumn('platform', 'text')
    .addColumn('user_identity', 'text')
    .addColumn('occurred_at', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('error_tracking_error_events_error').on('error_tracking_error_events').columns(['error_id', 'id']).execute();

  await db.schema
    .createTable('error_tracking_error_users')
    .addColumn('error_id', 'integer', (c) => c.notNull().references('error_tracking_errors.id').onDelete('cascade'))
    .addColumn('identity', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('error_tracking_error_users_pk', ['error_id', 'identity'])
    .execute();

  await db.schema
    .createTable('error_tracking_error_hours')
    .addColumn('error_id', 'integer', (c) => c.notNull().references('error_tracking_errors.id').onDelete('cascade'))
    .addColumn('hour', 'integer', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('error_tracking_error_hours_pk', ['error_id', 'hour'])
    .execute();

  // Session updates (release health): accepted and counted per project and hour, by their status.
  await db.schema
    .createTable('error_tracking_session_hours')
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('hour', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('error_tracking_session_hours_pk', ['project_id', 'hour', 'status'])
    .execute();
}
