import type { Kysely } from 'kysely';
import { withId } from './001_core.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * Security data from CI: the reports uploaded to pipelines (kept by digest so a repeated upload
 * is a no-op), the project's vulnerabilities with their state history, the components of each
 * pipeline's SBOMs (a project's dependency list is its latest default-branch pipeline's), and
 * the projects each user put on their security dashboard.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const flag = (c: any) => c.notNull().defaultTo(0);
  const user = (c: any) => c.references('users.id').onDelete('set null');

  await withId(db, db.schema.createTable('security_reports'))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('pipeline_id', 'integer', (c) => c.notNull().references('pipelines.id').onDelete('cascade'))
    .addColumn('report_type', 'text', (c) => c.notNull())
    .addColumn('digest', 'text', (c) => c.notNull())
    .addColumn('schema_version', 'text')
    .addColumn('scanner_external_id', 'text')
    .addColumn('scanner_name', 'text')
    .addColumn('findings_count', 'integer', flag)
    .addColumn('components_count', 'integer', flag)
    .addColumn('applied', 'integer', flag)
    .addColumn('uploaded_by_id', 'integer', user)
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('security_reports_pipeline_digest').unique().on('security_reports').columns(['pipeline_id', 'report_type', 'digest']).execute();
  await db.schema.createIndex('security_reports_project_type').on('security_reports').columns(['project_id', 'report_type', 'pipeline_id']).execute();

  await withId(db, db.schema.createTable('vulnerabilities'))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('uuid', 'text', (c) => c.notNull())
    .addColumn('report_type', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('message', 'text')
    .addColumn('solution', 'text')
    .addColumn('severity', 'text', (c) => c.notNull())
    .addColumn('severity_level', 'integer', (c) => c.notNull())
    .addColumn('confidence', 'text')
    .addColumn('scanner_external_id', 'text', (c) => c.notNull())
    .addColumn('scanner_name', 'text', (c) => c.notNull())
    .addColumn('scanner_vendor', 'text')
    .addColumn('location', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('location_path', 'text')
    .addColumn('package_name', 'text')
    .addColumn('package_version', 'text')
    .addColumn('identifiers', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('links', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('cvss', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('details', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('dismissal_reason', 'text')
    .addColumn('resolved_on_default_branch', 'integer', flag)
    .addColumn('detected_at', 'text', (c) => c.notNull())
    .addColumn('confirmed_at', 'text')
    .addColumn('confirmed_by_id', 'integer', user)
    .addColumn('dismissed_at', 'text')
    .addColumn('dismissed_by_id', 'integer', user)
    .addColumn('resolved_at', 'text')
    .addColumn('resolved_by_id', 'integer', user)
    .addColumn('first_pipeline_id', 'integer', (c) => c.references('pipelines.id').onDelete('set null'))
    .addColumn('last_pipeline_id', 'integer', (c) => c.references('pipelines.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('vulnerabilities_project_uuid').unique().on('vulnerabilities').columns(['project_id', 'uuid']).execute();
  // The report's default order (severity, then newest) and its usual filters.
  await db.schema.createIndex('vulnerabilities_project_severity').on('vulnerabilities').columns(['project_id', 'severity_level', 'id']).execute();
  await db.schema.createIndex('vulnerabilities_project_state').on('vulnerabilities').columns(['project_id', 'state', 'severity_level', 'id']).execute();
  await db.schema.createIndex('vulnerabilities_project_scanner').on('vulnerabilities').columns(['project_id', 'report_type', 'scanner_external_id']).execute();

  await withId(db, db.schema.createTable('vulnerability_state_transitions'))
    .addColumn('vulnerability_id', 'integer', (c) => c.notNull().references('vulnerabilities.id').onDelete('cascade'))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('from_state', 'text', (c) => c.notNull())
    .addColumn('to_state', 'text', (c) => c.notNull())
    .addColumn('author_id', 'integer', user)
    .addColumn('comment', 'text')
    .addColumn('dismissal_reason', 'text')
    .addColumn('pipeline_id', 'integer', (c) => c.references('pipelines.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('vulnerability_state_transitions_vulnerability').on('vulnerability_state_transitions').columns(['vulnerability_id', 'id']).execute();

  await withId(db, db.schema.createTable('dependencies'))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('pipeline_id', 'integer', (c) => c.notNull().references('pipelines.id').onDelete('cascade'))
    .addColumn('report_id', 'integer', (c) => c.notNull().references('security_reports.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('version', 'text')
    .addColumn('package_manager', 'text')
    .addColumn('purl', 'text')
    .addColumn('purl_type', 'text')
    .addColumn('component_type', 'text', (c) => c.notNull())
    .addColumn('bom_ref', 'text')
    .addColumn('licenses', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('input_file_path', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('dependencies_pipeline_name').on('dependencies').columns(['pipeline_id', 'name', 'version']).execute();
  await db.schema.createIndex('dependencies_pipeline_packager').on('dependencies').columns(['pipeline_id', 'package_manager', 'name']).execute();
  await db.schema.createIndex('dependencies_report').on('dependencies').column('report_id').execute();

  await withId(db, db.schema.createTable('security_dashboard_projects'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('security_dashboard_projects_user_project').unique().on('security_dashboard_projects').columns(['user_id', 'project_id']).execute();
  await db.schema.createIndex('security_dashboard_projects_project').on('security_dashboard_projects').column('project_id').execute();
}
