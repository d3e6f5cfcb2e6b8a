import type { Db } from '../../db/index.ts';
import type { UserRow, VulnerabilityRow, VulnerabilityTransitionRow } from '../../db/schema.ts';
import { offsetPage, type Page, type PageRequest } from '../../db/pagination.ts';
import type { DismissalReason, VulnerabilityListQuery, VulnerabilityState } from '../../../../shared/src/vulnerabilities.ts';
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

/** A project's vulnerabilities, most severe first then newest, filtered by severity, state, report type and scanner. */
export async function listVulnerabilities(db: Db, projectId: number, q: VulnerabilityListQuery, page: PageRequest): Promise<Page<VulnerabilityRow>> {
  let query = db.selectFrom('vulnerabilities').selectAll().where('project_id', '=', projectId);
  if (q.severity?.length) query = query.where('severity', 'in', q.severity);
  if (q.state?.length) query = query.where('state', 'in', q.state);
  if (q.report_type?.length) query = query.where('report_type', 'in', q.report_type);
  if (q.scanner?.length) query = query.where('scanner_external_id', 'in', q.scanner);
  return offsetPage(db, query.orderBy('severity_level', 'desc').orderBy('id', 'desc'), page);
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
