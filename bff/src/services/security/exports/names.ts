import type { Db } from '../../../db/index.ts';
import type { ExportRow } from '../../../db/schema.ts';

const EXTENSIONS: Record<string, string> = {
  csv: '.csv',
  pdf: '.pdf',
  dependency_list: '.json',
  json_array: '.json',
  sbom: '.cdx.json',
  cyclonedx_1_6_json: '.cdx.json',
};
export const CONTENT_TYPES: Record<string, string> = {
  csv: 'text/csv; charset=utf-8',
  pdf: 'application/pdf',
  dependency_list: 'application/json',
  json_array: 'application/json',
  // As the platform serves them (by the .json extension); clients compare the header whole.
  sbom: 'application/json',
  cyclonedx_1_6_json: 'application/json',
};

/** The download's file name: what it is, what it covers, when it was asked for. */
export function exportFileName(exp: Pick<ExportRow, 'kind' | 'format' | 'created_at'>, subject: string): string {
  const what = exp.kind === 'vulnerability' ? 'vulnerabilities' : exp.format === 'sbom' || exp.format === 'cyclonedx_1_6_json' ? 'sbom' : 'dependencies';
  const slug = subject.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '');
  const stamp = exp.created_at.slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
  return `${[what, slug, stamp].filter(Boolean).join('_')}${EXTENSIONS[exp.format] ?? '.dat'}`;
}

/** What an export covers, in words: "acme/website", "group acme", "pipeline #12 of acme/website", "your security dashboard". */
export async function exportTitle(db: Db, exp: Pick<ExportRow, 'project_id' | 'group_id' | 'pipeline_id'>): Promise<string> {
  if (exp.project_id !== null) {
    const p = await db.selectFrom('projects').select('path_with_namespace').where('id', '=', exp.project_id).executeTakeFirst();
    return p?.path_with_namespace ?? `project ${exp.project_id}`;
  }
  if (exp.group_id !== null) {
    const g = await db.selectFrom('groups').select('full_path').where('id', '=', exp.group_id).executeTakeFirst();
    return `group ${g?.full_path ?? exp.group_id}`;
  }
  if (exp.pipeline_id !== null) {
    const p = await db
      .selectFrom('pipelines')
      .innerJoin('projects', 'projects.id', 'pipelines.project_id')
      .select(['pipelines.id', 'projects.path_with_namespace'])
      .where('pipelines.id', '=', exp.pipeline_id)
      .executeTakeFirst();
    return p ? `pipeline #${p.id} of ${p.path_with_namespace}` : `pipeline ${exp.pipeline_id}`;
  }
  return 'your security dashboard';
}
