import type { Db } from '../db/index.ts';
import type { Actor } from '../auth/actor.ts';
import type { ProjectRow } from '../db/schema.ts';
import { nowIso } from '../util/time.ts';
import { offsetPage, type Page, type PageRequest } from '../db/pagination.ts';
import { findProject } from './projects.ts';
import { projectAccessLevel } from './access.ts';
import { canProject } from '../policies/index.ts';
import { forbidden, notFound } from './errors.ts';

export interface DashboardEntry {
  project: ProjectRow;
  added_at: string;
}

const dashboardQuery = (db: Db, userId: number) =>
  db
    .selectFrom('security_dashboard_projects as d')
    .innerJoin('projects as p', 'p.id', 'd.project_id')
    .selectAll('p')
    .select('d.created_at as added_at')
    .where('d.user_id', '=', userId)
    .orderBy('p.path_with_namespace');
const entry = ({ added_at, ...project }: ProjectRow & { added_at: string }): DashboardEntry => ({ project, added_at });

/** The projects the user put on their instance security dashboard, by full path. */
export async function dashboardProjects(db: Db, userId: number, page: PageRequest): Promise<Page<DashboardEntry>> {
  return (await offsetPage(dashboardQuery(db, userId), page)).map(entry);
}

/** The ids of the dashboard's projects whose vulnerabilities the user may still read (exports use this). */
export async function readableDashboardProjectIds(db: Db, actor: Actor): Promise<number[]> {
  if (!actor.user) return [];
  const ids: number[] = [];
  for (const { project } of (await dashboardQuery(db, actor.user.id).execute()).map(entry)) {
    const found = await findProject(db, String(project.id));
    if (!found) continue;
    const level = await projectAccessLevel(db, actor.user.id, found.project, found.group);
    if (canProject(actor, 'read_vulnerability', { ...found, level })) ids.push(project.id);
  }
  return ids;
}

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
