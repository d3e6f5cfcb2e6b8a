import type { Db } from '../../db/index.ts';
import type { DependencyRow } from '../../db/schema.ts';
import { offsetPage, Page, type PageRequest } from '../../db/pagination.ts';
import type { DependencyListQuery } from '../../../../shared/src/dependencies.ts';

/**
 * The pipeline whose SBOM components are the project's dependency list: the latest
 * default-branch pipeline whose cyclonedx reports were applied (null: no SBOM yet).
 */
export async function dependencyPipelineId(db: Db, projectId: number): Promise<number | null> {
  const row = await db
    .selectFrom('security_reports')
    .select((eb) => eb.fn.max('pipeline_id').as('pipeline_id'))
    .where('project_id', '=', projectId)
    .where('report_type', '=', 'cyclonedx')
    .where('applied', '=', 1)
    .executeTakeFirst();
  return row?.pipeline_id ?? null;
}

/** A project's dependency list (its latest default-branch SBOMs' components), by name, filtered by package manager. */
export async function listDependencies(db: Db, projectId: number, q: DependencyListQuery, page: PageRequest): Promise<Page<DependencyRow>> {
  const pipelineId = await dependencyPipelineId(db, projectId);
  if (pipelineId === null) return new Page([], page.page, page.perPage, 0);
  let query = db.selectFrom('dependencies').selectAll().where('pipeline_id', '=', pipelineId);
  if (q.package_manager?.length) query = query.where('package_manager', 'in', q.package_manager);
  return offsetPage(db, query.orderBy('name').orderBy('version').orderBy('id'), page);
}

/** The project's open vulnerabilities of these packages (dependency and container scanning), by package name and version. */
export async function vulnerabilitiesOfPackages(db: Db, projectId: number, names: string[]): Promise<Map<string, { id: number; title: string; severity: string }[]>> {
  const out = new Map<string, { id: number; title: string; severity: string }[]>();
  if (!names.length) return out;
  const rows = await db
    .selectFrom('vulnerabilities')
    .select(['id', 'title', 'severity', 'package_name', 'package_version'])
    .where('project_id', '=', projectId)
    .where('package_name', 'in', [...new Set(names)])
    .where('state', 'in', ['detected', 'confirmed'])
    .execute();
  for (const r of rows) {
    const key = `${r.package_name}@${r.package_version ?? ''}`;
    out.set(key, [...(out.get(key) ?? []), { id: r.id, title: r.title, severity: r.severity }]);
  }
  return out;
}
