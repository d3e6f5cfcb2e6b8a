import type { Kysely } from 'kysely';
import { withId } from './001_core.ts';
import { isPostgres } from '../dialect.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * Maven virtual registries (spec part 2, "Virtual package registries"). A top-level group's
 * registries; its upstream repositories (the password sealed by the vault, never shown), which
 * one or several registries of the group use, each at a position; and the cache: a row per file
 * an upstream served (its bytes in the file store under `file_key`, so every instance serves
 * them), with the checksums Maven asks for and when the upstream was last asked about it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('virtual_registries'))
    .addColumn('group_id', 'integer', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('virtual_registries_group').on('virtual_registries').column('group_id').execute();

  await withId(db, db.schema.createTable('virtual_registry_upstreams'))
    .addColumn('group_id', 'integer', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('username', 'text')
    .addColumn('encrypted_password', 'text')
    .addColumn('cache_validity_hours', 'integer', (c) => c.notNull().defaultTo(24))
    .addColumn('metadata_cache_validity_hours', 'integer', (c) => c.notNull().defaultTo(24))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('virtual_registry_upstreams_group_url').on('virtual_registry_upstreams').columns(['group_id', 'url']).execute();

  await withId(db, db.schema.createTable('virtual_registry_registry_upstreams'))
    .addColumn('registry_id', 'integer', (c) => c.notNull().references('virtual_registries.id').onDelete('cascade'))
    .addColumn('upstream_id', 'integer', (c) => c.notNull().references('virtual_registry_upstreams.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('virtual_registry_registry_upstreams_pair').unique().on('virtual_registry_registry_upstreams').columns(['registry_id', 'upstream_id']).execute();
  await db.schema.createIndex('virtual_registry_registry_upstreams_upstream').on('virtual_registry_registry_upstreams').column('upstream_id').execute();

  await withId(db, db.schema.createTable('virtual_registry_cache_entries'))
    .addColumn('upstream_id', 'integer', (c) => c.notNull().references('virtual_registry_upstreams.id').onDelete('cascade'))
    .addColumn('relative_path', 'text', (c) => c.notNull())
    .addColumn('file_key', 'text', (c) => c.notNull())
    .addColumn('size', isPostgres(db) ? 'bigint' : 'integer', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('file_sha1', 'text', (c) => c.notNull())
    .addColumn('file_md5', 'text', (c) => c.notNull())
    .addColumn('upstream_etag', 'text')
    .addColumn('upstream_checked_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('virtual_registry_cache_entries_path').unique().on('virtual_registry_cache_entries').columns(['upstream_id', 'relative_path']).execute();
}
