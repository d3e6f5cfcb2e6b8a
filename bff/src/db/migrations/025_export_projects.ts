import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * The projects a security dashboard export covers: those of the author's dashboard whose
 * vulnerabilities the author could read when the export was asked for, narrowed by its job to
 * those they can still read when it writes the file. Reading and downloading the export then
 * needs the author to read each of them still (a dashboard export has no one project or group
 * to check). Exports asked for before this table existed cover their author's dashboard.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('export_projects')
    .addColumn('export_id', 'integer', (c) => c.notNull().references('exports.id').onDelete('cascade'))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('export_projects_pkey', ['export_id', 'project_id'])
    .execute();
  await db.schema.createIndex('export_projects_project').on('export_projects').column('project_id').execute();
  await sql`
    INSERT INTO export_projects (export_id, project_id)
    SELECT e.id, d.project_id FROM exports e JOIN security_dashboard_projects d ON d.user_id = e.author_id
    WHERE e.kind = 'vulnerability' AND e.project_id IS NULL AND e.group_id IS NULL AND e.pipeline_id IS NULL`.execute(db);
}
