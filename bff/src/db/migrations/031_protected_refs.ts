import type { Kysely } from 'kysely';
import { withId } from './001_core.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * Protected branches and tags, as the platform keeps them: a row per name or wildcard of a
 * project, and its access levels (who may push, merge or unprotect a branch; who may create a
 * tag), each a role (access_level 0, 30, 40 or 60).
 *
 * Until now the default branch was protected by a fixed rule (Maintainers push and merge). Every
 * project with a default branch gets that protection as a record, so that nothing changes for it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('protected_branches'))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('allow_force_push', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('code_owner_approval_required', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('protected_branches_project_name').on('protected_branches').columns(['project_id', 'name']).unique().execute();
  await withId(db, db.schema.createTable('protected_branch_access_levels'))
    .addColumn('protected_branch_id', 'integer', (c) => c.notNull().references('protected_branches.id').onDelete('cascade'))
    // push, merge or unprotect
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('access_level', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('protected_branch_access_levels_branch').on('protected_branch_access_levels').columns(['protected_branch_id', 'action']).execute();

  await withId(db, db.schema.createTable('protected_tags'))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('protected_tags_project_name').on('protected_tags').columns(['project_id', 'name']).unique().execute();
  await withId(db, db.schema.createTable('protected_tag_access_levels'))
    .addColumn('protected_tag_id', 'integer', (c) => c.notNull().references('protected_tags.id').onDelete('cascade'))
    .addColumn('access_level', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('protected_tag_access_levels_tag').on('protected_tag_access_levels').column('protected_tag_id').execute();

  // The fixed rule, as records: each existing project's default branch, Maintainers push and merge.
  const now = new Date().toISOString();
  const projects = await db.selectFrom('projects').select(['id', 'default_branch']).where('default_branch', 'is not', null).execute();
  for (const p of projects) {
    const { id } = await db
      .insertInto('protected_branches')
      .values({ project_id: p.id, name: p.default_branch, allow_force_push: 0, code_owner_approval_required: 0, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('protected_branch_access_levels')
      .values(['push', 'merge', 'unprotect'].map((action) => ({ protected_branch_id: id, action, access_level: 40 })))
      .execute();
  }
}
