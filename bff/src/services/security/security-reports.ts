import crypto from 'node:crypto';
import fs from 'node:fs';
import { pipeline as streamPipeline } from 'node:stream/promises';
import type { Db } from '../../db/index.ts';
import type { PipelineRow, ProjectRow, SecurityReportRow } from '../../db/schema.ts';
import type { FindingReportType, SecurityReportType } from '../../../../shared/src/security-reports.ts';
import { tooLarge, validationFailed } from '../../util/errors.ts';
import { nowIso } from '../../util/time.ts';
import { ByteBudget } from '../../util/byte-budget.ts';
import { reportFindings, type Finding, type Scanner } from './reports/findings.ts';
import { sbomComponents, sbomTools, type Component, type SbomTool } from './reports/sbom.ts';
import { recordTransition } from './vulnerabilities.ts';
import { DEFAULT_BRANCH } from '../git/repositories.ts';

/** The report schemas' validators (ajv, the CycloneDX library: about 0.3 s of CPU), loaded by the first upload rather than by every server's start. */
const reportValidation = () => import('./reports/validate.ts');

export interface ReportUpload {
  project: ProjectRow;
  pipeline: PipelineRow;
  reportType: SecurityReportType;
  /** The uploaded file on disk (streamed there; never held whole in memory). */
  filePath: string;
  uploaderId: number | null;
}

/** Rows written per statement: well under SQLite's and PostgreSQL's parameter limits. */
const CHUNK = 200;
const chunks = <T>(list: T[], size = CHUNK) => Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, (i + 1) * size));

async function fileDigest(file: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  await streamPipeline(fs.createReadStream(file), hash);
  return hash.digest('hex');
}

const invalid = (messages: string[]) => validationFailed({ file: messages });

/**
 * The largest report taken: the platform's default maximum artifacts size (100 MB, its
 * `max_artifacts_size`), answered past it as the platform answers an artifact too large, 413.
 * A report is parsed whole (no streaming JSON parser is at hand), which costs several times its
 * size: 100 MiB of SAST report took the server 450 MB more with 2,000 findings, 1.3 GB with 250,000.
 */
export const REPORT_MAX_BYTES = 100 * 1024 * 1024;

/**
 * Reports parsed at once in this process hold at most one largest report's bytes of files
 * between them, so that what parsing holds stays that of one largest report however many
 * arrive together: small reports go side by side, a large one waits for room.
 */
const parsing = new ByteBudget(REPORT_MAX_BYTES);

/** The report as JSON, or a 400 naming why it is not; 413 past REPORT_MAX_BYTES. */
async function readJson(file: string): Promise<Record<string, unknown>> {
  if ((await fs.promises.stat(file)).size > REPORT_MAX_BYTES) throw tooLarge();
  const text = await fs.promises.readFile(file, 'utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw invalid([`is not valid JSON: ${(e as Error).message}`]);
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw invalid(['must be a JSON object']);
  return json as Record<string, unknown>;
}

/**
 * What a valid report brings, read in a function of its own so that the parsed document is
 * gone (for the collector) once its findings or components are taken. A document nested too
 * deeply to walk (validation and serialisation recurse) is refused, never a 500.
 */
type ReportContent = { kind: 'sbom'; specVersion: string; components: Component[]; tools: SbomTool[] } | { kind: 'findings'; version: string | null; scanner: Scanner; findings: Finding[] };

async function reportContent(upload: ReportUpload): Promise<ReportContent> {
  const json = await readJson(upload.filePath);
  try {
    if (upload.reportType === 'cyclonedx') {
      const errors = await (await reportValidation()).cyclonedxErrors(json);
      if (errors.length) throw invalid(errors);
      return { kind: 'sbom', specVersion: String(json.specVersion), components: sbomComponents(json), tools: sbomTools(json) };
    }
    const errors = (await reportValidation()).securityReportErrors(upload.reportType, json);
    if (errors.length) throw invalid(errors);
    const { scanner, findings } = reportFindings(upload.reportType, json, upload.project.id);
    return { kind: 'findings', version: typeof json.version === 'string' ? json.version : null, scanner, findings };
  } catch (e) {
    if (e instanceof RangeError) throw invalid(['is nested too deeply to be read']);
    throw e;
  }
}

const isDefaultBranchPipeline = (project: ProjectRow, pipeline: PipelineRow) => !pipeline.tag && pipeline.ref === (project.default_branch ?? DEFAULT_BRANCH);

/**
 * Whether a report of this pipeline defines the project's data: its pipeline is on the default
 * branch and no later pipeline has already defined it for the same report type (and scanner).
 */
async function definesProject(db: Db, u: ReportUpload, scannerId: string | null): Promise<boolean> {
  if (!isDefaultBranchPipeline(u.project, u.pipeline)) return false;
  let later = db
    .selectFrom('security_reports')
    .select('id')
    .where('project_id', '=', u.project.id)
    .where('report_type', '=', u.reportType)
    .where('applied', '=', 1)
    .where('pipeline_id', '>', u.pipeline.id);
  if (scannerId !== null) later = later.where('scanner_external_id', '=', scannerId);
  return (await later.executeTakeFirst()) === undefined;
}

/**
 * Validates a report against its published schema and ingests it in one transaction: the
 * report row, and when its pipeline is the project's latest on the default branch, the
 * project's vulnerabilities (findings) or dependencies (components). A repeated upload of the
 * same file to the same pipeline answers the first upload's row and writes nothing.
 */
export async function ingestReport(db: Db, upload: ReportUpload): Promise<SecurityReportRow> {
  const digest = await fileDigest(upload.filePath);
  const existing = () =>
    db
      .selectFrom('security_reports')
      .selectAll()
      .where('pipeline_id', '=', upload.pipeline.id)
      .where('report_type', '=', upload.reportType)
      .where('digest', '=', digest)
      .executeTakeFirst();
  const before = await existing();
  if (before) return before;

  const size = (await fs.promises.stat(upload.filePath)).size;
  return parsing.run(size, async () => {
    // The same file may have been taken while this one waited for room.
    const taken = await existing();
    if (taken) return taken;
    const content = await reportContent(upload);
    try {
      return await writeReport(db, upload, digest, content);
    } catch (e) {
      // The same report uploaded twice at once: the database let one in; the other answers as a repeat would.
      const raced = await existing();
      if (raced) return raced;
      throw e;
    }
  });
}

/** The report row, and the project's vulnerabilities or dependencies where it defines them, in one transaction. */
async function writeReport(db: Db, upload: ReportUpload, digest: string, content: ReportContent): Promise<SecurityReportRow> {
  const now = nowIso();
  const base = { project_id: upload.project.id, pipeline_id: upload.pipeline.id, report_type: upload.reportType, digest, uploaded_by_id: upload.uploaderId, created_at: now };
  if (content.kind === 'sbom') {
    const { components } = content;
    const applied = await definesProject(db, upload, null);
    return await db.transaction().execute(async (trx) => {
      const report = await trx
        .insertInto('security_reports')
        .values({ ...base, schema_version: content.specVersion, components_count: components.length, sbom_tools: JSON.stringify(content.tools), applied: applied ? 1 : 0 })
        .returningAll()
        .executeTakeFirstOrThrow();
      for (const part of chunks(components)) {
        await trx
          .insertInto('dependencies')
          .values(part.map((c) => ({ ...c, project_id: upload.project.id, pipeline_id: upload.pipeline.id, report_id: report.id, created_at: now })))
          .execute();
      }
      return report;
    });
  }

  const type = upload.reportType as FindingReportType;
  const { scanner, findings } = content;
  const applied = await definesProject(db, upload, scanner.external_id);
  return await db.transaction().execute(async (trx) => {
    const report = await trx
      .insertInto('security_reports')
      .values({
        ...base,
        schema_version: content.version,
        scanner_external_id: scanner.external_id,
        scanner_name: scanner.name,
        findings_count: findings.length,
        applied: applied ? 1 : 0,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    if (applied) await applyFindings(trx, upload, type, scanner, findings, now);
    return report;
  });
}

/**
 * The default branch's latest findings of one scanner become the project's: new ones are
 * detected, known ones refreshed (a resolved one seen again is detected again), and the
 * scanner's findings this pipeline no longer reports are resolved on the default branch
 * (detected and confirmed ones move to resolved; dismissed ones keep their dismissal).
 */
async function applyFindings(trx: Db, u: ReportUpload, type: FindingReportType, scanner: Scanner, findings: Finding[], now: string): Promise<void> {
  const projectId = u.project.id;
  const known = new Map<string, { id: number; state: string }>();
  for (const part of chunks(findings.map((f) => f.uuid))) {
    const rows = await trx.selectFrom('vulnerabilities').select(['id', 'uuid', 'state']).where('project_id', '=', projectId).where('uuid', 'in', part).execute();
    for (const r of rows) known.set(r.uuid, r);
  }
  const scannerCols = { scanner_external_id: scanner.external_id, scanner_name: scanner.name, scanner_vendor: scanner.vendor };
  const fresh = findings.filter((f) => !known.has(f.uuid));
  for (const part of chunks(fresh)) {
    await trx
      .insertInto('vulnerabilities')
      .values(
        part.map((f) => ({
          ...f,
          ...scannerCols,
          project_id: projectId,
          state: 'detected',
          detected_at: now,
          first_pipeline_id: u.pipeline.id,
          last_pipeline_id: u.pipeline.id,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
  }
  for (const f of findings) {
    const row = known.get(f.uuid);
    if (!row) continue;
    const redetected = row.state === 'resolved';
    const { uuid: _uuid, ...fields } = f;
    await trx
      .updateTable('vulnerabilities')
      .set({
        ...fields,
        ...scannerCols,
        last_pipeline_id: u.pipeline.id,
        resolved_on_default_branch: 0,
        updated_at: now,
        ...(redetected ? { state: 'detected', resolved_at: null, resolved_by_id: null, detected_at: now } : {}),
      })
      .where('id', '=', row.id)
      .execute();
    if (redetected) await recordTransition(trx, { vulnerabilityId: row.id, projectId, from: 'resolved', to: 'detected', authorId: null, pipelineId: u.pipeline.id, comment: `Detected again in pipeline #${u.pipeline.id}`, now });
  }

  const gone = await trx
    .selectFrom('vulnerabilities')
    .select(['id', 'state'])
    .where('project_id', '=', projectId)
    .where('report_type', '=', type)
    .where('scanner_external_id', '=', scanner.external_id)
    .where('resolved_on_default_branch', '=', 0)
    .where((eb) => eb.or([eb('last_pipeline_id', 'is', null), eb('last_pipeline_id', '<', u.pipeline.id)]))
    .execute();
  for (const part of chunks(gone)) {
    const ids = part.map((r) => r.id);
    await trx.updateTable('vulnerabilities').set({ resolved_on_default_branch: 1, updated_at: now }).where('id', 'in', ids).execute();
    const open = part.filter((r) => r.state === 'detected' || r.state === 'confirmed');
    if (!open.length) continue;
    await trx
      .updateTable('vulnerabilities')
      .set({ state: 'resolved', resolved_at: now, resolved_by_id: null })
      .where('id', 'in', open.map((r) => r.id))
      .execute();
    for (const r of open) {
      await recordTransition(trx, { vulnerabilityId: r.id, projectId, from: r.state, to: 'resolved', authorId: null, pipelineId: u.pipeline.id, comment: `No longer detected in pipeline #${u.pipeline.id}`, now });
    }
  }
}
