import { sql, type Kysely, type ColumnDefinitionBuilder, type CreateTableBuilder } from 'kysely';
import { isPostgres } from '../dialect.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Db = Kysely<any>;

/** An auto-incrementing integer primary key on either engine. */
export function withId<T extends string>(db: Db, t: CreateTableBuilder<T, never>) {
  return isPostgres(db)
    ? t.addColumn('id', 'serial', (c) => c.primaryKey())
    : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

const bool = (def: 0 | 1 | null) => (c: ColumnDefinitionBuilder) => (def === null ? c : c.notNull().defaultTo(def));

export async function up(db: Db): Promise<void> {
  await withId(db, db.schema.createTable('users'))
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('active'))
    .addColumn('is_admin', 'integer', bool(0))
    .addColumn('bot', 'integer', bool(0))
    .addColumn('external', 'integer', bool(0))
    .addColumn('can_create_group', 'integer', bool(1))
    .addColumn('password_digest', 'text')
    .addColumn('bio', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('public_email', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('last_sign_in_at', 'text')
    .addColumn('last_activity_on', 'text')
    .execute();
  await db.schema.createIndex('users_username_lower').unique().on('users').expression(sql`lower(username)`).execute();
  await db.schema.createIndex('users_email_lower').unique().on('users').expression(sql`lower(email)`).execute();

  await withId(db, db.schema.createTable('personal_access_tokens'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('token_digest', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'text')
    .addColumn('revoked', 'integer', bool(0))
    .addColumn('last_used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('personal_access_tokens_user').on('personal_access_tokens').column('user_id').execute();

  await withId(db, db.schema.createTable('groups'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('full_name', 'text', (c) => c.notNull())
    .addColumn('full_path', 'text', (c) => c.notNull())
    .addColumn('parent_id', 'integer', (c) => c.references('groups.id').onDelete('cascade'))
    .addColumn('traversal', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('visibility', 'text', (c) => c.notNull().defaultTo('private'))
    .addColumn('avatar_upload_id', 'integer')
    .addColumn('runners_token', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('share_with_group_lock', 'integer', bool(0))
    .addColumn('require_two_factor_authentication', 'integer', bool(0))
    .addColumn('two_factor_grace_period', 'integer', (c) => c.notNull().defaultTo(48))
    .addColumn('project_creation_level', 'text', (c) => c.notNull().defaultTo('developer'))
    .addColumn('subgroup_creation_level', 'text', (c) => c.notNull().defaultTo('maintainer'))
    .addColumn('auto_devops_enabled', 'integer', bool(null))
    .addColumn('emails_enabled', 'integer', bool(1))
    .addColumn('mentions_disabled', 'integer', bool(null))
    .addColumn('lfs_enabled', 'integer', bool(1))
    .addColumn('math_rendering_limits_enabled', 'integer', bool(1))
    .addColumn('lock_math_rendering_limits_enabled', 'integer', bool(0))
    .addColumn('default_branch', 'text')
    .addColumn('default_branch_protection', 'integer', (c) => c.notNull().defaultTo(2))
    .addColumn('default_branch_protection_defaults', 'text', (c) => c.notNull())
    .addColumn('request_access_enabled', 'integer', bool(1))
    .addColumn('repository_storage', 'text', (c) => c.notNull().defaultTo('default'))
    .addColumn('file_template_project_id', 'integer')
    .addColumn('ip_restriction_ranges', 'text')
    .addColumn('allowed_email_domains_list', 'text')
    .addColumn('shared_runners_setting', 'text', (c) => c.notNull().defaultTo('enabled'))
    .addColumn('enabled_git_access_protocol', 'text', (c) => c.notNull().defaultTo('all'))
    .addColumn('prevent_sharing_groups_outside_hierarchy', 'integer', bool(0))
    .addColumn('shared_runners_minutes_limit', 'integer')
    .addColumn('extra_shared_runners_minutes_limit', 'integer')
    .addColumn('marked_for_deletion_on', 'text')
    .addColumn('archived', 'integer', bool(0))
    .addColumn('membership_lock', 'integer', bool(0))
    .addColumn('prevent_forking_outside_group', 'integer', bool(0))
    .addColumn('wiki_access_level', 'text', (c) => c.notNull().defaultTo('enabled'))
    .addColumn('ai_features_enabled', 'integer', bool(1))
    .addColumn('lock_ai_features_enabled', 'integer', bool(0))
    .addColumn('ai_availability', 'text', (c) => c.notNull().defaultTo('default_on'))
    .addColumn('experiment_features_enabled', 'integer', bool(0))
    .addColumn('unique_project_download_limit', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('unique_project_download_limit_interval_in_seconds', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('unique_project_download_limit_allowlist', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('unique_project_download_limit_alertlist', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('auto_ban_user_on_excessive_projects_download', 'integer', bool(0))
    .addColumn('max_artifacts_size', 'integer')
    .addColumn('web_based_commit_signing_enabled', 'integer', bool(0))
    .addColumn('step_up_auth_required_oauth_provider', 'text')
    .execute();
  await db.schema.createIndex('groups_full_path_lower').unique().on('groups').expression(sql`lower(full_path)`).execute();
  await db.schema.createIndex('groups_parent').on('groups').column('parent_id').execute();
  await db.schema.createIndex('groups_traversal').on('groups').column('traversal').execute();
  await db.schema.createIndex('groups_name_id').on('groups').columns(['name', 'id']).execute();

  await withId(db, db.schema.createTable('projects'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('namespace_id', 'integer', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('path_with_namespace', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('visibility', 'text', (c) => c.notNull().defaultTo('private'))
    .addColumn('default_branch', 'text')
    .addColumn('topics', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('archived', 'integer', bool(0))
    .addColumn('issues_enabled', 'integer', bool(1))
    .addColumn('merge_requests_enabled', 'integer', bool(1))
    .addColumn('wiki_enabled', 'integer', bool(1))
    .addColumn('jobs_enabled', 'integer', bool(1))
    .addColumn('snippets_enabled', 'integer', bool(1))
    .addColumn('container_registry_enabled', 'integer', bool(1))
    .addColumn('shared_runners_enabled', 'integer', bool(1))
    .addColumn('public_jobs', 'integer', bool(1))
    .addColumn('request_access_enabled', 'integer', bool(1))
    .addColumn('creator_id', 'integer', (c) => c.notNull())
    .addColumn('star_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('forks_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('open_issues_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_activity_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('projects_path_lower').unique().on('projects').expression(sql`lower(path_with_namespace)`).execute();
  await db.schema.createIndex('projects_namespace').on('projects').column('namespace_id').execute();

  await withId(db, db.schema.createTable('members'))
    .addColumn('source_type', 'text', (c) => c.notNull())
    .addColumn('source_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('access_level', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .addColumn('created_by_id', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('members_source_user', ['source_type', 'source_id', 'user_id'])
    .execute();
  await db.schema.createIndex('members_user').on('members').column('user_id').execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id_digest', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('csrf_token', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('window_start', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable('uploads'))
    .addColumn('model_type', 'text', (c) => c.notNull())
    .addColumn('model_id', 'integer', (c) => c.notNull())
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('data', isPostgres(db) ? 'bytea' : 'blob', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable('custom_attributes'))
    .addColumn('model_type', 'text', (c) => c.notNull())
    .addColumn('model_id', 'integer', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('custom_attributes_model_key', ['model_type', 'model_id', 'key'])
    .execute();
}
