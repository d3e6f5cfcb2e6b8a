import { sql } from 'kysely';
import type { Db } from '../../../db/index.ts';
import type { ExportKind, ExportRow } from '../../../db/schema.ts';
import type { DependencyExportRow, ExportTool, VulnerabilityExportRow } from './rows.ts';
import { httpUrl } from '../../../../../shared/src/links.ts';
import type { Actor } from '../../../auth/actor.ts';
import { readableProjectIds } from '../../../policies/readable.ts';
import type { ProjectReadAction } from '../../../policies/index.ts';
import type { VulnerabilityFilters } from '../../../../../shared/src/vulnerabilities.ts';
import { whereFilters } from '../vulnerabilities.ts';

/**
 * The rows an export reads, in keyset pages (by id): one query per page, a page handed on
 * only when the writer asks for it, so memory holds a page or two whatever the size of the
 * export, on SQLite and PostgreSQL alike (no cursor held open, no whole result read). The
 * findings and components tables belong to the vulnerabilities area (migration 010); this
 * module is the one place that reads them for exports.
 *
 * Small pages keep a page's rows and its text young: they die in V8's young generation
 * instead of being promoted, which is what made the heap grow to ~100 MB with pages of 2,000
 * (measured on SQLite: 2,000 rows a page peaked at 102 MB of heap, 250 at 32 MB, and ran
 * faster). On PostgreSQL the driver's parsing of each result keeps the peak near 100 MB, the
 * same for 100,000 rows as for 1,000,000.
 */
const PAGE_SIZE = 250;

/** An export of its author's security dashboard: of no one project, group or pipeline. */
export const isDashboard = (e: { project_id?: number | null; group_id?: number | null; pipeline_id?: number | null }) =>
  (e.project_id ?? null) === null && (e.group_id ?? null) === null && (e.pipeline_id ?? null) === null;

/** The read an export's kind needs on each project it covers. */
export const exportRead = (kind: ExportKind): ProjectReadAction => (kind === 'vulnerability' ? 'read_vulnerability' : 'read_dependency');

/**
 * The projects an export covers, as a subquery of project ids: of its project, pipeline, group
 * or (a dashboard export) the projects recorded when it was asked for, and of those only the ones
 * whose vulnerabilities or dependencies its author may read now (`author`), as their own routes decide.
 */
export function exportProjects(db: Db, exp: Pick<ExportRow, 'id' | 'kind' | 'project_id' | 'group_id' | 'pipeline_id'>, author: Actor) {
  const q = db.selectFrom('projects').select('projects.id').where('projects.id', 'in', readableProjectIds(db, author, exportRead(exp.kind)));
  if (exp.project_id !== null) return q.where('projects.id', '=', exp.project_id);
  if (exp.pipeline_id !== null) return q.where('projects.id', 'in', db.selectFrom('pipelines').select('project_id').where('id', '=', exp.pipeline_id));
  if (exp.group_id !== null) {
    return q
      .innerJoin('groups', 'groups.id', 'projects.namespace_id')
      .where(sql<boolean>`groups.traversal LIKE (SELECT traversal FROM groups AS top WHERE top.id = ${exp.group_id}) || '%'`);
  }
  return q.where('projects.id', 'in', db.selectFrom('export_projects').select('project_id').where('export_id', '=', exp.id));
}

/** The export's author as the rules see them (who they are now: an administrator, external…); null once deleted. */
export async function exportAuthor(db: Db, exp: Pick<ExportRow, 'author_id'>): Promise<Actor | null> {
  const user = await db.selectFrom('users').selectAll().where('id', '=', exp.author_id).executeTakeFirst();
  return user ? { user, via: 'session', scopes: [] } : null;
}

/**
 * A dashboard export keeps, of the projects it covered when asked for, those its author may still
 * read as its job starts: reading and downloading it later checks each of them (services/exports.ts).
 */
export async function narrowCoveredProjects(db: Db, exp: ExportRow, author: Actor): Promise<void> {
  if (!isDashboard(exp)) return;
  await db.deleteFrom('export_projects').where('export_id', '=', exp.id).where('project_id', 'not in', readableProjectIds(db, author, exportRead(exp.kind))).execute();
}

const parseJson = <T>(v: unknown, fallback: T): T => {
  if (typeof v !== 'string') return (v as T) ?? fallback;
  try {
    return JSON.parse(v) as T;
  } catch {
    return fallback;
  }
};

/** A finding's location as one line: file and lines, image, or URL. */
function locationText(loc: Record<string, unknown>): string {
  if (typeof loc.file === 'string') {
    const lines = loc.start_line ? `:${loc.start_line}${loc.end_line && loc.end_line !== loc.start_line ? `-${loc.end_line}` : ''}` : '';
    return `${loc.file}${lines}`;
  }
  if (typeof loc.image === 'string') return String(loc.image);
  if (typeof loc.hostname === 'string') return `${loc.hostname}${typeof loc.path === 'string' ? loc.path : ''}`;
  return Object.keys(loc).length ? JSON.stringify(loc) : '';
}

const stamp = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;

/** The covered projects' ids: read once, then each project's findings in id order (an index range each). */
const idsOf = async (q: { execute(): Promise<{ id: number }[]> }) => (await q.execute()).map((r) => r.id).sort((a, b) => a - b);

/** The report filters a vulnerability export was asked with (stored by migration 037); none: every finding. */
export const exportFilters = (exp: Pick<ExportRow, 'filters'>): VulnerabilityFilters => parseJson<VulnerabilityFilters | null>(exp.filters, null) ?? {};

export async function* vulnerabilityPages(db: Db, exp: ExportRow, author: Actor): AsyncGenerator<VulnerabilityExportRow[]> {
  const filters = exportFilters(exp);
  for (const projectId of await idsOf(exportProjects(db, exp, author))) yield* projectVulnerabilityPages(db, projectId, filters);
}

async function* projectVulnerabilityPages(db: Db, projectId: number, filters: VulnerabilityFilters): AsyncGenerator<VulnerabilityExportRow[]> {
  let after = 0;
  for (;;) {
    const batch = await whereFilters(db.selectFrom('vulnerabilities as v'), filters, 'v')
      .innerJoin('projects as p', 'p.id', 'v.project_id')
      .innerJoin('groups as g', 'g.id', 'p.namespace_id')
      .select([
        'v.id',
        'v.title',
        'v.description',
        'v.solution',
        'v.severity',
        'v.state',
        'v.report_type',
        'v.scanner_name',
        'v.identifiers',
        'v.location',
        'v.location_path',
        'v.cvss',
        'v.dismissal_reason',
        'v.detected_at',
        'p.name as project_name',
        'p.path_with_namespace as full_path',
        'g.name as group_name',
      ])
      .where('v.project_id', '=', projectId)
      .where('v.id', '>', after)
      .orderBy('v.id')
      .limit(PAGE_SIZE)
      .execute();
    if (!batch.length) return;
    const first = batch[0].id;
    const last = batch[batch.length - 1].id;
    // The page's id range of this project, not a list of its ids: the same three parameters on
    // every page, so PostgreSQL prepares the query once (an IN list of a page's ids is parsed
    // and planned anew each time, most of an export's time there).
    const transitions = await db
      .selectFrom('vulnerability_state_transitions as t')
      .innerJoin('vulnerabilities as tv', 'tv.id', 't.vulnerability_id')
      .leftJoin('users as u', 'u.id', 't.author_id')
      .select(['t.vulnerability_id', 't.from_state', 't.to_state', 't.comment', 't.dismissal_reason', 't.created_at', 'u.username'])
      .where('t.vulnerability_id', '>=', first)
      .where('t.vulnerability_id', '<=', last)
      .where('tv.project_id', '=', projectId)
      .orderBy('t.vulnerability_id')
      .orderBy('t.id')
      .execute();
    const activity = new Map<number, { lines: string[]; comments: string[] }>();
    for (const t of transitions) {
      const a = activity.get(t.vulnerability_id) ?? { lines: [], comments: [] };
      const who = t.username ?? 'a deleted user';
      a.lines.push(`${stamp(t.created_at)} ${who} changed the status from ${t.from_state} to ${t.to_state}${t.dismissal_reason ? ` (${t.dismissal_reason})` : ''}`);
      if (t.comment) a.comments.push(`${stamp(t.created_at)} ${who}: ${t.comment}`);
      activity.set(t.vulnerability_id, a);
    }
    after = last;
    yield batch.map((b) => {
      const a = activity.get(b.id);
      const cvss = parseJson<{ vector?: string; vendor?: string }[]>(b.cvss, []);
      return {
        id: b.id,
        group_name: b.group_name,
        project_name: b.project_name,
        full_path: b.full_path,
        tool: b.report_type,
        scanner_name: b.scanner_name,
        status: b.state,
        title: b.title,
        description: b.description ?? '',
        additional_info: b.solution ?? '',
        severity: b.severity,
        identifiers: parseJson<{ type?: string; name?: string }[]>(b.identifiers, []).map((i) => ({ type: String(i.type ?? ''), name: String(i.name ?? '') })),
        detected_at: b.detected_at,
        location: b.location_path ?? locationText(parseJson<Record<string, unknown>>(b.location, {})),
        activity: a?.lines.join('\n') ?? '',
        comments: a?.comments.join('\n') ?? '',
        cvss_vectors: Array.isArray(cvss) ? cvss.map((c) => (c.vendor ? `${c.vendor}=${c.vector ?? ''}` : String(c.vector ?? ''))).join(', ') : '',
        dismissal_reason: b.dismissal_reason ?? '',
      };
    });
  }
}

/** Findings by severity (of those the export's filters keep), for the PDF's summary. */
export async function severityCounts(db: Db, exp: ExportRow, author: Actor): Promise<Record<string, number>> {
  const rows = await whereFilters(db.selectFrom('vulnerabilities'), exportFilters(exp))
    .select((eb) => ['severity', eb.fn.countAll<number>().as('n')])
    .where('project_id', 'in', exportProjects(db, exp, author))
    .groupBy('severity')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.severity, Number(r.n)]));
}

/**
 * The pipelines whose components an export lists: the pipeline itself, or each covered
 * project's dependency pipeline (its latest default-branch pipeline with an applied SBOM).
 */
function dependencyPipelines(db: Db, exp: ExportRow, author: Actor) {
  if (exp.pipeline_id !== null) return db.selectFrom('pipelines').select('id').where('id', '=', exp.pipeline_id).where('project_id', 'in', exportProjects(db, exp, author));
  return db
    .selectFrom('security_reports')
    .select((eb) => eb.fn.max('pipeline_id').$notNull().as('id'))
    .where('project_id', 'in', exportProjects(db, exp, author))
    .where('report_type', '=', 'cyclonedx')
    .where('applied', '=', 1)
    .groupBy('project_id');
}

/** The tools the SBOMs of the export's pipelines name, in upload order (repeats are the writer's to drop). */
export async function dependencyTools(db: Db, exp: ExportRow, author: Actor): Promise<ExportTool[]> {
  const reports = await db
    .selectFrom('security_reports')
    .select('sbom_tools')
    .where('report_type', '=', 'cyclonedx')
    .where('pipeline_id', 'in', dependencyPipelines(db, exp, author))
    .where('sbom_tools', 'is not', null)
    .orderBy('id')
    .execute();
  return reports.flatMap((r) => parseJson<ExportTool[]>(r.sbom_tools, []));
}

export async function* dependencyPages(db: Db, exp: ExportRow, author: Actor): AsyncGenerator<DependencyExportRow[]> {
  for (const pipelineId of await idsOf(dependencyPipelines(db, exp, author))) yield* pipelineDependencyPages(db, pipelineId);
}

async function* pipelineDependencyPages(db: Db, pipelineId: number): AsyncGenerator<DependencyExportRow[]> {
  let after = 0;
  for (;;) {
    const batch = await db
      .selectFrom('dependencies as d')
      .innerJoin('projects as p', 'p.id', 'd.project_id')
      .select(['d.id', 'd.name', 'd.version', 'd.package_manager', 'd.input_file_path', 'd.purl', 'd.component_type', 'd.licenses', 'p.path_with_namespace as project_full_path'])
      .where('d.pipeline_id', '=', pipelineId)
      .where('d.id', '>', after)
      .orderBy('d.id')
      .limit(PAGE_SIZE)
      .execute();
    if (!batch.length) return;
    after = batch[batch.length - 1].id;
    yield batch.map((b) => ({
      id: b.id,
      name: b.name,
      version: b.version ?? '',
      packager: b.package_manager ?? '',
      location: b.input_file_path ?? '',
      purl: b.purl,
      component_type: b.component_type,
      licenses: parseJson<{ spdx_identifier?: string | null; name?: string | null; url?: string | null }[]>(b.licenses, []).map((l) => ({
        spdx_identifier: l.spdx_identifier ?? null,
        name: l.name ?? l.spdx_identifier ?? '',
        url: httpUrl(l.url),
      })),
      project_full_path: b.project_full_path,
    }));
  }
}
