import type { Db } from '../../db/index.ts';
import type { GroupRow, IssueLinkRow, IssueRow, ProjectRow } from '../../db/schema.ts';
import type { IssueLinkType } from '../../../../shared/src/issue-links.ts';
import type { Actor } from '../../auth/actor.ts';
import { canProject } from '../../policies/index.ts';
import { conflict, badRequest, notFound } from '../../util/errors.ts';
import { nowIso } from '../../util/time.ts';
import { findProject } from '../groups/projects.ts';
import { projectAccessLevel } from '../../policies/access.ts';
import { findIssueByIid, issueViews, type IssueView } from './issues.ts';

/** An issue with where it lives, as the presenter needs it. */
export interface PlacedIssue {
  view: IssueView;
  project: ProjectRow;
  group: GroupRow;
}

/** Whether the caller may see an issue (its project, and a confidential issue's own rule). */
export type IssueVisibility = (where: { project: ProjectRow; group: GroupRow; level: number }, issue: IssueRow) => Promise<boolean>;

/** `is_blocked_by` is `blocks` the other way round; the platform stores links so. */
export const normalized = (source: number, target: number, type: IssueLinkType) =>
  type === 'is_blocked_by' ? { source_id: target, target_id: source, link_type: 'blocks' } : { source_id: source, target_id: target, link_type: type };

/** The link's type as seen from one of its issues. */
export const typeFrom = (link: IssueLinkRow, issueId: number): IssueLinkType =>
  link.link_type === 'blocks' && link.target_id === issueId ? 'is_blocked_by' : (link.link_type as IssueLinkType);

async function place(db: Db, actor: Actor, canSee: IssueVisibility, issues: IssueRow[]): Promise<Map<number, PlacedIssue>> {
  const out = new Map<number, PlacedIssue>();
  const views = await issueViews(db, issues);
  const projects = new Map<number, { project: ProjectRow; group: GroupRow; level: number } | null>();
  for (const view of views) {
    const pid = view.issue.project_id;
    if (!projects.has(pid)) {
      const found = await findProject(db, String(pid));
      const level = found ? await projectAccessLevel(db, actor.user?.id, found.project, found.group) : 0;
      projects.set(pid, found && canProject(actor, 'read_project', { ...found, level }) ? { ...found, level } : null);
    }
    const where = projects.get(pid);
    if (where && (await canSee(where, view.issue))) out.set(view.issue.id, { view, project: where.project, group: where.group });
  }
  return out;
}

const linksOf = (db: Db, issue: IssueRow) => db.selectFrom('issue_links').selectAll().where((eb) => eb.or([eb('source_id', '=', issue.id), eb('target_id', '=', issue.id)]));

/** The issues linked to `issue` that the caller may see, by link creation time. */
export async function listLinks(db: Db, actor: Actor, canSee: IssueVisibility, issue: IssueRow): Promise<{ link: IssueLinkRow; other: PlacedIssue; type: IssueLinkType }[]> {
  const links = await linksOf(db, issue).orderBy('created_at').orderBy('id').execute();
  const otherIds = links.map((l) => (l.source_id === issue.id ? l.target_id : l.source_id));
  const others = otherIds.length ? await db.selectFrom('issues').selectAll().where('id', 'in', otherIds).execute() : [];
  const placed = await place(db, actor, canSee, others);
  return links.flatMap((link, i) => {
    const other = placed.get(otherIds[i]);
    return other ? [{ link, other, type: typeFrom(link, issue.id) }] : [];
  });
}

/** A link of `issue` whose other issue the caller may see, both sides placed. */
export async function findLink(db: Db, actor: Actor, canSee: IssueVisibility, issue: IssueRow, id: number) {
  const link = await linksOf(db, issue).where('id', '=', id).executeTakeFirst();
  // As the platform's IssueLink.find: a missing one is its generic 404.
  if (!link) throw notFound();
  const rows = await db.selectFrom('issues').selectAll().where('id', 'in', [link.source_id, link.target_id]).execute();
  const placed = await place(db, actor, canSee, rows);
  const source = placed.get(link.source_id);
  const target = placed.get(link.target_id);
  if (!source || !target) throw notFound();
  return { link, source, target };
}

const NO_MATCH = 'No matching issue found. Make sure that you are adding a valid issue URL.';

/** Links `issue` to the target; the caller must be allowed to update the target's project issues too. */
export async function createLink(db: Db, actor: Actor, canSee: IssueVisibility, issue: IssueRow, body: { target_project_id: string; target_issue_iid: number; link_type?: IssueLinkType }) {
  const found = await findProject(db, body.target_project_id);
  const level = found ? await projectAccessLevel(db, actor.user?.id, found.project, found.group) : 0;
  if (!found || !canProject(actor, 'read_project', { ...found, level })) throw notFound('Project');
  const target = await findIssueByIid(db, found.project.id, body.target_issue_iid).catch(() => undefined);
  if (!target || !(await canSee({ ...found, level }, target)) || !canProject(actor, 'admin_issue', { ...found, level })) throw notFound(NO_MATCH.replace(/\.$/, ''));
  if (target.id === issue.id) throw badRequest('Cannot link an issue to itself');
  const exists = await linksOf(db, issue).where((eb) => eb.or([eb('source_id', '=', target.id), eb('target_id', '=', target.id)])).executeTakeFirst();
  if (exists) throw conflict('Issue(s) already assigned');
  const now = nowIso();
  const row = await db
    .insertInto('issue_links')
    .values({ ...normalized(issue.id, target.id, body.link_type ?? 'relates_to'), created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return findLink(db, actor, canSee, issue, row.id);
}

export async function deleteLink(db: Db, link: IssueLinkRow): Promise<void> {
  await db.deleteFrom('issue_links').where('id', '=', link.id).execute();
}
