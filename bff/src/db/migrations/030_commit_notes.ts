import type { Kysely } from 'kysely';
import { withId } from './001_core.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * Comments on commits (the platform's notes whose noteable is a Commit): a commit is known by
 * its SHA, not by a row, so they have a table of their own. `path`, `line` and `line_type` are
 * set only for a comment on a line of the commit's diff.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('commit_notes'))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('commit_sha', 'text', (c) => c.notNull())
    .addColumn('author_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('note', 'text', (c) => c.notNull())
    .addColumn('path', 'text')
    .addColumn('line', 'integer')
    .addColumn('line_type', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('commit_notes_project_commit').on('commit_notes').columns(['project_id', 'commit_sha', 'id']).execute();
}
