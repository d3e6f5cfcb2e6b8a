import { sql, type Kysely } from 'kysely';
import { withId } from './001_core.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * Container repository protection rules (spec part 1): per project, a path pattern (`*`
 * wildcards) and the least role that may push to, and delete from, the repositories it matches
 * (40 Maintainer, 50 Owner, 60 administrator), at least one of the two set. The token service
 * (`/jwt/auth`) reads a project's rules on every push it authorises: one index by project.
 *
 * And the project's container repositories, as the platform records them: a row when the token
 * service first grants a push to a path (its name below the project's path, '' for the
 * project's own), which the Container registry API lists and reads the tags of from the registry.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('container_registry_protection_rules'))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('repository_path_pattern', 'text', (c) => c.notNull())
    .addColumn('minimum_access_level_for_push', 'integer')
    .addColumn('minimum_access_level_for_delete', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addCheckConstraint('container_registry_protection_rules_levels', sql`minimum_access_level_for_push IS NOT NULL OR minimum_access_level_for_delete IS NOT NULL`)
    .execute();
  await db.schema
    .createIndex('container_registry_protection_rules_pattern')
    .unique()
    .on('container_registry_protection_rules')
    .columns(['project_id', 'repository_path_pattern'])
    .execute();

  await withId(db, db.schema.createTable('container_repositories'))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('container_repositories_name').unique().on('container_repositories').columns(['project_id', 'name']).execute();
}
