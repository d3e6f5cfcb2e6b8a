import { sql, type SelectQueryBuilder } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { Database, GroupRow, ProjectRow, UserRow, VulnerabilityRow, VulnerabilityTransitionRow } from '../../db/schema.ts';
import type { Actor } from '../../auth/actor.ts';
import { readableProjectIds } from '../../policies/readable.ts';
import { readableDashboardProjectIds } from './security-dashboard.ts';
import { offsetPage, type Page, type PageRequest } from '../../db/pagination.ts';
import type { DismissalReason, VulnerabilityFilters, VulnerabilityListQuery, VulnerabilityState } from '../../../../shared/src/vulnerabilities.ts';
import { nowIso } from '../../util/time.ts';
import { notFound } from '../../util/errors.ts';

export interface NewTransition {
  vulnerabilityId: number;
  projectId: number;
  from: string;
  to: string;
  /** null: a pipeline moved it. */
  authorId: number | null;
  comment?: string | null;
  dismissalReason?: string | null;
  pipelineId?: number | null;
  now: string;
}

/** One state move in the vulnerability's history (the CSV's Comments and Dismissal Reason read these). */
export async function recordTransition(trx: Db, t: NewTransition): Promise<void> {
  await trx
    .insertInto('vulnerability_state_transitions')
    .values({
      vulnerability_id: t.vulnerabilityId,
      project_id: t.projectId,
      from_state: t.from,
      to_state: t.to,
      author_id: t.authorId,
      comment: t.comment ?? null,
      dismissal_reason: t.dismissalReason ?? null,
      pipeline_id: t.pipelineId ?? null,
      created_at: t.now,
    })
    .execute();
}

/**
 * The report's filters on a query of the vulnerabilities table (named `table` in it): the
 * report, its group twin and the exports all filter through this one function, so an export
 * holds exactly what the report listed.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function whereFilters<QB extends SelectQueryBuilder<Database, any, any>>(query: QB, f: VulnerabilityFilters, table: 'vulnerabilities' | 'v' = 'vulnerabilities'): QB {
  const column = (name: string) => sql.ref(`${table}.${name}`);
  let q = query;
  if (f.severity?.length) q = q.where(column('severity'), 'in', f.severity) as QB;
  if (f.state?.length) q = q.where(column('state'), 'in', f.state) as QB;
  if (f.report_type?.length) q = q.where(column('report_type'), 'in', f.report_type) as QB;
  if (f.scanner?.length) q = q.where(column('scanner_external_id'), 'in', f.scanner) as QB;
  return q;
}

/** The filters worth keeping: none of the lists empty; null when nothing is left (every finding). */
export function storedFilters(f: VulnerabilityFilters | undefined): VulnerabilityFilters | null {
  if (!f) return null;
  const kept = Object.fromEntries(Object.entries(f).filter(([, v]) => Array.isArray(v) && v.length > 0)) as VulnerabilityFilters;
  return Object.keys(kept).length ? kept : null;
}

/** A project's vulnerabilities, most severe first then newest, filtered by severity, state, report type and scanner. */
export async function listVulnerabilities(db: Db, projectId: number, q: VulnerabilityListQuery, page: PageRequest): Promise<Page<VulnerabilityRow>> {
  const query = whereFilters(db.selectFrom('vulnerabilities').selectAll().where('project_id', '=', projectId), q);
  return offsetPage(db, query.orderBy('severity_level', 'desc').orderBy('id', 'desc'), page);
}

/** A vulnerability with the project it is in and that project's group: what a list spanning projects shows. */
export interface VulnerabilityInProject {
  vulnerability: VulnerabilityRow;
  project: ProjectRow;
  group: GroupRow;
}

/**
 * The vulnerabilities of every project of a group and its subgroups whose vulnerabilities the
 * actor may read (as each project's own report decides), most severe first then newest, each
 * with its project.
 */
export async function listGroupVulnerabilities(db: Db, actor: Actor, group: Pick<GroupRow, 'id'>, q: VulnerabilityListQuery, page: PageRequest): Promise<Page<VulnerabilityInProject>> {
  const inTree = db
    .selectFrom('projects')
    .innerJoin('groups', 'groups.id', 'projects.namespace_id')
    .select('projects.id')
    .where(sql<boolean>`groups.traversal LIKE (SELECT traversal FROM groups AS top WHERE top.id = ${group.id}) || '%'`)
    .where('projects.id', 'in', readableProjectIds(db, actor, 'read_vulnerability'));
  return listInProjects(db, inTree, q, page);
}

/** The vulnerabilities of the projects on the user's security dashboard that they may read now: what its export covers. */
export const listDashboardVulnerabilities = (db: Db, actor: Actor & { user: UserRow }, q: VulnerabilityListQuery, page: PageRequest) =>
  listInProjects(db, readableDashboardProjectIds(db, actor), q, page);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function listInProjects(db: Db, projectIds: SelectQueryBuilder<Database, any, { project_id: number } | { id: number }>, q: VulnerabilityListQuery, page: PageRequest): Promise<Page<VulnerabilityInProject>> {
  const query = whereFilters(db.selectFrom('vulnerabilities').selectAll().where('project_id', 'in', projectIds), q);
  const found = await offsetPage(db, query.orderBy('severity_level', 'desc').orderBy('id', 'desc'), page);
  return found.mapAsync(async (rows) => {
    const ids = [...new Set(rows.map((r) => r.project_id))];
    const projects = ids.length ? await db.selectFrom('projects').selectAll().where('id', 'in', ids).execute() : [];
    const groupIds = [...new Set(projects.map((p) => p.namespace_id))];
    const groups = groupIds.length ? await db.selectFrom('groups').selectAll().where('id', 'in', groupIds).execute() : [];
    return rows.map((vulnerability) => {
      const project = projects.find((p) => p.id === vulnerability.project_id)!;
      return { vulnerability, project, group: groups.find((g) => g.id === project.namespace_id)! };
    });
  });
}

export async function findVulnerability(db: Db, id: number): Promise<VulnerabilityRow> {
  const row = await db.selectFrom('vulnerabilities').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Vulnerability');
  return row;
}

/** The vulnerability's history, oldest first, with the authors. */
export async function transitionsOf(db: Db, vulnerabilityId: number): Promise<{ transition: VulnerabilityTransitionRow; author: UserRow | null }[]> {
  const rows = await db.selectFrom('vulnerability_state_transitions').selectAll().where('vulnerability_id', '=', vulnerabilityId).orderBy('id').execute();
  const ids = [...new Set(rows.map((r) => r.author_id).filter((id): id is number => id !== null))];
  const users = ids.length ? await db.selectFrom('users').selectAll().where('id', 'in', ids).execute() : [];
  return rows.map((transition) => ({ transition, author: users.find((u) => u.id === transition.author_id) ?? null }));
}

export type VulnerabilityAction = 'confirm' | 'dismiss' | 'resolve' | 'revert';
const TARGET: Record<VulnerabilityAction, VulnerabilityState> = { confirm: 'confirmed', dismiss: 'dismissed', resolve: 'resolved', revert: 'detected' };
/** The activity each move is listed as in the project's events. */
const EVENT_ACTION: Record<VulnerabilityAction, string> = { confirm: 'updated', dismiss: 'closed', resolve: 'closed', revert: 'reopened' };

export interface TransitionRequest {
  action: VulnerabilityAction;
  actor: UserRow;
  comment?: string;
  dismissalReason?: DismissalReason;
}

/**
 * Moves a vulnerability to the action's state, recording who, why and when (a history row and
 * an activity event). `undefined` when it is already there: the platform answers 304 then.
 */
export async function transition(db: Db, v: VulnerabilityRow, r: TransitionRequest): Promise<VulnerabilityRow | undefined> {
  const to = TARGET[r.action];
  if (v.state === to) return undefined;
  const now = nowIso();
  const by = r.actor.id;
  const stamps: Partial<VulnerabilityRow> =
    to === 'confirmed'
      ? { confirmed_at: now, confirmed_by_id: by }
      : to === 'dismissed'
        ? { dismissed_at: now, dismissed_by_id: by, dismissal_reason: r.dismissalReason ?? null }
        : to === 'resolved'
          ? { resolved_at: now, resolved_by_id: by }
          : {};
  // Leaving a state clears its marks, as the platform's revert to detected does.
  const cleared: Partial<VulnerabilityRow> = {
    ...(to !== 'confirmed' ? { confirmed_at: null, confirmed_by_id: null } : {}),
    ...(to !== 'dismissed' ? { dismissed_at: null, dismissed_by_id: null, dismissal_reason: null } : {}),
    ...(to !== 'resolved' ? { resolved_at: null, resolved_by_id: null } : {}),
  };
  return db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('vulnerabilities')
      .set({ ...cleared, ...stamps, state: to, updated_at: now })
      .where('id', '=', v.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordTransition(trx, {
      vulnerabilityId: v.id,
      projectId: v.project_id,
      from: v.state,
      to,
      authorId: by,
      comment: r.comment ?? null,
      dismissalReason: to === 'dismissed' ? (r.dismissalReason ?? null) : null,
      now,
    });
    await trx
      .insertInto('events')
      .values({ project_id: v.project_id, group_id: null, author_id: by, action_name: EVENT_ACTION[r.action], target_type: 'Vulnerability', target_id: v.id, push_data: null, created_at: now })
      .execute();
    return updated;
  });
}
