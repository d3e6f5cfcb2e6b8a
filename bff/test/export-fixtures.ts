import crypto from 'node:crypto';
import type { Insertable } from 'kysely';
import type { Db } from '../src/db/index.ts';
import type { DependenciesTable, VulnerabilitiesTable } from '../src/db/schema.ts';
import { isPostgres } from '../src/db/dialect.ts';

/**
 * Findings and components written straight into the vulnerabilities area's tables, in
 * multi-row inserts: what export tests and the export benchmark read, made fast (the upload
 * path is that area's to test).
 */
const SEVERITIES = [
  ['critical', 7],
  ['high', 6],
  ['medium', 5],
  ['low', 4],
  ['info', 2],
  ['unknown', 0],
] as const;

async function insertChunked<T>(db: Db, rows: T[], insert: (trx: Db, part: T[]) => Promise<unknown>) {
  // Under the engines' bound-parameter limits (SQLite 32,766; PostgreSQL 65,535).
  const size = isPostgres(db) ? 2000 : 1000;
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += size) await insert(trx, rows.slice(i, i + size));
  });
}

export async function insertFindings(db: Db, projectId: number, count: number, attrs: Partial<Insertable<VulnerabilitiesTable>> = {}): Promise<void> {
  const now = new Date().toISOString();
  const salt = crypto.randomBytes(4).toString('hex');
  const BLOCK = 20_000;
  for (let start = 0; start < count; start += BLOCK) {
    const rows: Insertable<VulnerabilitiesTable>[] = [];
    for (let i = start; i < Math.min(count, start + BLOCK); i++) {
      const [severity, level] = SEVERITIES[i % SEVERITIES.length];
      rows.push({
        project_id: projectId,
        uuid: `${salt}-${i}`,
        report_type: 'sast',
        title: `Use of eval in handler ${i}`,
        description: 'User input reaches eval(), which runs it as code.',
        solution: 'Parse the input instead of evaluating it.',
        severity,
        severity_level: level,
        scanner_external_id: 'semgrep',
        scanner_name: 'Semgrep',
        location: JSON.stringify({ file: `src/handler-${i}.js`, start_line: 10, end_line: 12 }),
        location_path: `src/handler-${i}.js:10`,
        identifiers: JSON.stringify([
          { type: 'cwe', name: 'CWE-95', value: '95', url: 'https://cwe.mitre.org/data/definitions/95.html' },
          { type: 'semgrep_id', name: 'eval-detected', value: 'eval-detected', url: null },
        ]),
        state: 'detected',
        detected_at: now,
        created_at: now,
        updated_at: now,
        ...attrs,
      });
    }
    await insertChunked(db, rows, (trx, part) => trx.insertInto('vulnerabilities').values(part).execute());
  }
}

/** A pipeline of the project with an applied SBOM of `count` components: the project's dependency list. */
export async function insertComponents(db: Db, projectId: number, count: number): Promise<{ pipelineId: number }> {
  const now = new Date().toISOString();
  const last = await db.selectFrom('pipelines').select((eb) => eb.fn.max('iid').as('iid')).where('project_id', '=', projectId).executeTakeFirst();
  const pipeline = await db
    .insertInto('pipelines')
    .values({ project_id: projectId, iid: Number(last?.iid ?? 0) + 1, sha: '0'.repeat(40), before_sha: '0'.repeat(40), ref: 'main', status: 'success', source: 'external', created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const report = await db
    .insertInto('security_reports')
    .values({ project_id: projectId, pipeline_id: pipeline.id, report_type: 'cyclonedx', digest: crypto.randomBytes(32).toString('hex'), components_count: count, applied: 1, uploaded_by_id: null, created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const rows: Insertable<DependenciesTable>[] = Array.from({ length: count }, (_, i) => ({
    project_id: projectId,
    pipeline_id: pipeline.id,
    report_id: report.id,
    name: `package-${i}`,
    version: `1.${i % 100}.0`,
    package_manager: 'npm',
    purl: `pkg:npm/package-${i}@1.${i % 100}.0`,
    purl_type: 'npm',
    component_type: 'library',
    licenses: JSON.stringify([{ spdx_identifier: 'MIT', name: 'MIT License', url: 'https://spdx.org/licenses/MIT.html' }]),
    input_file_path: 'package-lock.json',
    created_at: now,
  }));
  await insertChunked(db, rows, (trx, part) => trx.insertInto('dependencies').values(part).execute());
  return { pipelineId: pipeline.id };
}
