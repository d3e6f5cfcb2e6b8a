import type { Db } from '../db/index.ts';
import type { GroupRow, MilestoneRow, ProjectRow } from '../db/schema.ts';
import type { Actor } from '../auth/actor.ts';
import { isAdmin } from '../auth/actor.ts';
import { ACCESS_LEVELS } from '../../../shared/src/roles.ts';
import { offsetPage, type Page, type PageRequest } from '../db/pagination.ts';
import { issueViews, type IssueView } from './issues.ts';
import { mergeRequestViews, type MergeRequestView } from './merge-requests.ts';

/** An item of a group milestone with the project it lives in (its presenter builds URLs from it). */
export type WithProject<V> = V & { project: ProjectRow; namespace: GroupRow };

/**
 * The projects of the group itself (the platform leaves subgroups' out of these lists) that the
 * caller may read: all of them for members of the group, the public (and, signed in, internal)
 * ones for others.
 */
function readableProjects(db: Db, group: GroupRow, actor: Actor, level: number) {
  let q = db.selectFrom('projects').select('id').where('namespace_id', '=', group.id);
  if (!isAdmin(actor) && level < ACCESS_LEVELS.guest) q = q.where('visibility', 'in', actor.user ? ['public', 'internal'] : ['public']);
  return q;
}

async function attachProjects<V>(db: Db, group: GroupRow, views: V[], projectOf: (v: V) => number): Promise<WithProject<V>[]> {
  if (!views.length) return [];
  const projects = await db.selectFrom('projects').selectAll().where('id', 'in', [...new Set(views.map(projectOf))]).execute();
  const byId = new Map(projects.map((p) => [p.id, p]));
  return views.map((v) => ({ ...v, project: byId.get(projectOf(v))!, namespace: group }));
}

/** The milestone's issues; confidential ones only for Reporters and up (as the issue list shows them). */
export async function milestoneIssues(db: Db, group: GroupRow, milestone: MilestoneRow, actor: Actor, level: number, page: PageRequest): Promise<Page<WithProject<IssueView>>> {
  let q = db.selectFrom('issues').selectAll().where('milestone_id', '=', milestone.id).where('project_id', 'in', readableProjects(db, group, actor, level));
  if (!isAdmin(actor) && level < ACCESS_LEVELS.reporter) q = q.where('confidential', '=', 0);
  const rows = await offsetPage(q.orderBy('id'), page);
  return rows.mapAsync(async (items) => attachProjects(db, group, await issueViews(db, items), (v) => v.issue.project_id));
}

/** The milestone's merge requests, of the projects whose code the caller may read. */
export async function milestoneMergeRequests(db: Db, group: GroupRow, milestone: MilestoneRow, actor: Actor, level: number, page: PageRequest): Promise<Page<WithProject<MergeRequestView>>> {
  let projects = readableProjects(db, group, actor, level);
  // Merge requests are read like the code: Reporters and up of a private project.
  if (!isAdmin(actor) && level < ACCESS_LEVELS.reporter) projects = projects.where('visibility', 'in', actor.user ? ['public', 'internal'] : ['public']);
  const rows = await offsetPage(db.selectFrom('merge_requests').selectAll().where('milestone_id', '=', milestone.id).where('project_id', 'in', projects).orderBy('id'), page);
  return rows.mapAsync(async (items) => attachProjects(db, group, await mergeRequestViews(db, items), (v) => v.mr.project_id));
}
