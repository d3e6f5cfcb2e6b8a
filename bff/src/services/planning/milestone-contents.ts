import type { Db } from '../../db/index.ts';
import type { GroupRow, MilestoneRow, ProjectRow } from '../../db/schema.ts';
import type { Actor } from '../../auth/actor.ts';
import { offsetPage, type Page, type PageRequest } from '../../db/pagination.ts';
import { issueViews, type IssueView } from './issues.ts';
import { mergeRequestViews, type MergeRequestView } from './merge-requests.ts';
import { issuesReadable, projectsReadable } from '../../policies/readable.ts';

/** An item of a milestone with the project it lives in (its presenter builds URLs from it). */
export type WithProject<V> = V & { project: ProjectRow; namespace: GroupRow };

/** Whose items a milestone's lists show: a group's own projects (the platform leaves subgroups' out), or the one project. */
export interface ContentsOwner {
  group: GroupRow;
  project?: ProjectRow;
}

const ownerProjects = (db: Db, o: ContentsOwner) => {
  const q = db.selectFrom('projects').select('projects.id');
  return o.project ? q.where('projects.id', '=', o.project.id) : q.where('projects.namespace_id', '=', o.group.id);
};

async function attachProjects<V>(db: Db, o: ContentsOwner, views: V[], projectOf: (v: V) => number): Promise<WithProject<V>[]> {
  if (!views.length) return [];
  const projects = await db.selectFrom('projects').selectAll().where('id', 'in', [...new Set(views.map(projectOf))]).execute();
  const byId = new Map(projects.map((p) => [p.id, p]));
  return views.map((v) => ({ ...v, project: byId.get(projectOf(v))!, namespace: o.group }));
}

/** The milestone's issues the caller may see, by the issue list's rule (services/readable.ts). */
export async function milestoneIssues(db: Db, o: ContentsOwner, milestone: MilestoneRow, actor: Actor, level: number, page: PageRequest): Promise<Page<WithProject<IssueView>>> {
  const q = db.selectFrom('issues').selectAll().where('milestone_id', '=', milestone.id).where('project_id', 'in', ownerProjects(db, o)).where(issuesReadable(db, actor, level));
  const rows = await offsetPage(db, q.orderBy('id'), page);
  return rows.mapAsync(async (items) => attachProjects(db, o, await issueViews(db, items), (v) => v.issue.project_id));
}

/** The milestone's merge requests, of the projects whose merge requests the caller may read. */
export async function milestoneMergeRequests(db: Db, o: ContentsOwner, milestone: MilestoneRow, actor: Actor, level: number, page: PageRequest): Promise<Page<WithProject<MergeRequestView>>> {
  const projects = ownerProjects(db, o).where(projectsReadable(actor, 'read_merge_request', level));
  const rows = await offsetPage(db, db.selectFrom('merge_requests').selectAll().where('milestone_id', '=', milestone.id).where('project_id', 'in', projects).orderBy('id'), page);
  return rows.mapAsync(async (items) => attachProjects(db, o, await mergeRequestViews(db, items), (v) => v.mr.project_id));
}
