import type { Db } from '../db/index.ts';

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
