import type { Kysely } from 'kysely';
import { withId } from './001_core.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * Project snippets with their files, emoji reactions on issues, merge requests, snippets and
 * notes, and links between issues. Snippet files are rows, not a git repository per snippet:
 * the spec's operations (files actions, raw content) need no history, and a row is read in the
 * same query as its snippet.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('snippets'))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('author_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('visibility', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('snippets_project').on('snippets').columns(['project_id', 'id']).execute();

  await withId(db, db.schema.createTable('snippet_files'))
    .addColumn('snippet_id', 'integer', (c) => c.notNull().references('snippets.id').onDelete('cascade'))
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('snippet_files_snippet_path').unique().on('snippet_files').columns(['snippet_id', 'path']).execute();

  // Polymorphic (Issue, MergeRequest, Snippet, Note): no foreign key; the awardable's service removes its reactions.
  await withId(db, db.schema.createTable('award_emoji'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('awardable_type', 'text', (c) => c.notNull())
    .addColumn('awardable_id', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('award_emoji_awardable_user_name')
    .unique()
    .on('award_emoji')
    .columns(['awardable_type', 'awardable_id', 'user_id', 'name'])
    .execute();

  // One row per two-way link; `is_blocked_by` is stored as `blocks` the other way round, as the platform stores it.
  await withId(db, db.schema.createTable('issue_links'))
    .addColumn('source_id', 'integer', (c) => c.notNull().references('issues.id').onDelete('cascade'))
    .addColumn('target_id', 'integer', (c) => c.notNull().references('issues.id').onDelete('cascade'))
    .addColumn('link_type', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('issue_links_source_target').unique().on('issue_links').columns(['source_id', 'target_id']).execute();
  await db.schema.createIndex('issue_links_target').on('issue_links').column('target_id').execute();
}
