import type { Db } from '../../db/index.ts';
import type { Actor } from '../../auth/actor.ts';
import type { ProjectRow, UserRow } from '../../db/schema.ts';
import { nowIso } from '../../util/time.ts';
import { offsetPage, type Page, type PageRequest } from '../../db/pagination.ts';
import { findProject } from '../groups/projects.ts';
import { projectAccessLevel } from '../../policies/access.ts';
import { canProject } from '../../policies/index.ts';
import { forbidden, notFound } from '../../util/errors.ts';
import { readableProjectIds } from '../../policies/readable.ts';

export interface DashboardEntry {
  project: ProjectRow;
  added_at: string;
}

/**
 * The projects of the user's dashboard whose vulnerabilities they may read now: one they lost
 * access to stays on the list (it comes back with the access) but is neither shown nor exported.
 */
const dashboardQuery = (db: Db, actor: Actor & { user: UserRow }) =>
  db
    .selectFrom('security_dashboard_projects as d')
    .innerJoin('projects as p', 'p.id', 'd.project_id')
    .selectAll('p')
    .select('d.created_at as added_at')
    .where('d.user_id', '=', actor.user.id)
    .where('d.project_id', 'in', readableProjectIds(db, actor, 'read_vulnerability'));
const entry = ({ added_at, ...project }: ProjectRow & { added_at: string }): DashboardEntry => ({ project, added_at });

/** The projects on the user's instance security dashboard that they may still read, by full path. */
export async function dashboardProjects(db: Db, actor: Actor & { user: UserRow }, page: PageRequest): Promise<Page<DashboardEntry>> {
  return (await offsetPage(db, dashboardQuery(db, actor).orderBy('p.path_with_namespace'), page)).map(entry);
}

/** The ids of the dashboard's projects whose vulnerabilities the user may read now (what a dashboard export covers), as a subquery. */
export const readableDashboardProjectIds = (db: Db, actor: Actor & { user: UserRow }) => dashboardQuery(db, actor).clearSelect().select('d.project_id');

/** Puts a project on the user's dashboard (once); only one whose vulnerabilities they may read. */
export async function addDashboardProject(db: Db, actor: Actor & { user: NonNullable<Actor['user']> }, projectId: number): Promise<DashboardEntry> {
  const found = await findProject(db, String(projectId));
  const level = found ? await projectAccessLevel(db, actor.user.id, found.project, found.group) : 0;
  if (!found || !canProject(actor, 'read_project', { ...found, level })) throw notFound('Project');
  if (!canProject(actor, 'read_vulnerability', { ...found, level })) throw forbidden('you may not read this project’s vulnerabilities');
  await db
    .insertInto('security_dashboard_projects')
    .values({ user_id: actor.user.id, project_id: projectId, created_at: nowIso() })
    .onConflict((oc) => oc.columns(['user_id', 'project_id']).doNothing())
    .execute();
  const row = await db.selectFrom('security_dashboard_projects').select('created_at').where('user_id', '=', actor.user.id).where('project_id', '=', projectId).executeTakeFirstOrThrow();
  return { project: found.project, added_at: row.created_at };
}

export async function removeDashboardProject(db: Db, userId: number, projectId: number): Promise<void> {
  const res = await db.deleteFrom('security_dashboard_projects').where('user_id', '=', userId).where('project_id', '=', projectId).executeTakeFirst();
  if (Number(res.numDeletedRows) === 0) throw notFound('Project');
}
