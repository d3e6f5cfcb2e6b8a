import { sql } from 'kysely';
import { preparedByShape, type Db } from '../../db/index.ts';
import type { GroupRow, ProjectRow } from '../../db/schema.ts';
import type { Actor } from '../../auth/actor.ts';
import type { GroupProjectListQuery, ProjectCreateBody, ProjectUpdateBody } from '../../../../shared/src/projects.ts';
import { ancestorIds } from '../../policies/access.ts';
import { getSettings } from '../instance/application-settings.ts';
import { badRequest, validationFailed } from '../../util/errors.ts';
import { resolveCommit } from '../git/branches.ts';
import { offsetPage, type Page, type PageRequest } from '../../db/pagination.ts';
import { nowIso, today } from '../../util/time.ts';
import { toColumns } from '../../util/rows.ts';
import { projectMember, projectVisibility, projectVisibleWhere, visibleProjectsOf, type ProjectVisibility } from '../../policies/visibility.ts';
import { copyGroupPushRule } from '../git/group-push-rules.ts';
import { fireHookEvent, fireSystemHookEvent } from '../webhooks/hook-delivery.ts';
import { systemProjectPayload } from '../webhooks/system-hook-payloads.ts';
import { projectPayload } from '../webhooks/hook-payloads.ts';

/** The projects of `ids` (repeats left out), by id: one query for a page of rows of several projects. */
export async function projectsById(db: Db, ids: number[]): Promise<Map<number, ProjectRow>> {
  const wanted = [...new Set(ids)];
  if (!wanted.length) return new Map();
  return new Map((await db.selectFrom('projects').selectAll().where('id', 'in', wanted).execute()).map((p) => [p.id, p]));
}

export async function findProject(db: Db, idOrPath: string | undefined): Promise<{ project: ProjectRow; group: GroupRow } | undefined> {
  if (!idOrPath) return undefined;
  let q = db.selectFrom('projects').selectAll();
  if (/^\d+$/.test(idOrPath)) {
    const id = Number(idOrPath);
    if (!Number.isSafeInteger(id) || id > 2_147_483_647) return undefined;
    q = q.where('id', '=', id);
  } else {
    q = q.where((eb) => eb(eb.fn('lower', ['path_with_namespace']), '=', idOrPath.toLowerCase()));
  }
  const project = await q.executeTakeFirst();
  if (!project) return undefined;
  const group = await db.selectFrom('groups').selectAll().where('id', '=', project.namespace_id).executeTakeFirstOrThrow();
  return { project, group };
}

const VISIBILITY_RANK: Record<string, number> = { private: 0, internal: 10, public: 20 };

export async function createProject(db: Db, creator: { id: number }, namespace: GroupRow, body: ProjectCreateBody): Promise<ProjectRow> {
  const path = body.path ?? body.name!.trim().toLowerCase().replace(/[^a-z0-9_.-]+/g, '-').replace(/^[-.]+|[-.]+$/g, '');
  const name = body.name ?? body.path!;
  const errors: Record<string, string[]> = {};
  if (!path) errors.path = ["can't be blank"];
  // As for group paths: a repository URL is the path plus .git, so these endings would be ambiguous.
  else if (/\.(git|atom)$/i.test(path)) errors.path = ['cannot end in .git or .atom'];
  // Unasked, the instance's default, at most the group's (so a default never refuses a project).
  const fallback = (await getSettings(db)).default_project_visibility;
  const visibility = body.visibility ?? (VISIBILITY_RANK[fallback] > VISIBILITY_RANK[namespace.visibility] ? namespace.visibility : fallback);
  if (VISIBILITY_RANK[visibility] > VISIBILITY_RANK[namespace.visibility]) {
    errors.visibility = [`${visibility} is not allowed in a ${namespace.visibility} group.`];
  }
  const clash = await db
    .selectFrom('projects')
    .select('id')
    .where('namespace_id', '=', namespace.id)
    .where((eb) => eb(eb.fn('lower', ['path']), '=', path.toLowerCase()))
    .executeTakeFirst();
  const groupClash = await db
    .selectFrom('groups')
    .select('id')
    .where('parent_id', '=', namespace.id)
    .where((eb) => eb(eb.fn('lower', ['path']), '=', path.toLowerCase()))
    .executeTakeFirst();
  if (clash || groupClash) errors.path = ['has already been taken'];
  const nameClash = await db.selectFrom('projects').select('id').where('namespace_id', '=', namespace.id).where('name', '=', name).executeTakeFirst();
  if (nameClash) errors.name = ['has already been taken'];
  if (Object.keys(errors).length) throw validationFailed(errors);
  const now = nowIso();
  const { namespace_id: _ns, name: _n, path: _p, topics, initialize_with_readme: _readme, ...flags } = body;
  return db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('projects')
      .values({
        ...toColumns(flags),
        name,
        path,
        namespace_id: namespace.id,
        path_with_namespace: `${namespace.full_path}/${path}`,
        description: body.description ?? null,
        visibility,
        topics: JSON.stringify(topics ?? []),
        creator_id: creator.id,
        created_at: now,
        last_activity_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const project = await trx.selectFrom('projects').selectAll().where('id', '=', inserted.id).executeTakeFirstOrThrow();
    const owner = (await trx.selectFrom('users').selectAll().where('id', '=', creator.id).executeTakeFirst()) ?? null;
    await copyGroupPushRule(trx, namespace, project);
    await fireHookEvent(trx, namespace, 'project_events', projectPayload('project_create', project, namespace, owner));
    await fireSystemHookEvent(trx, systemProjectPayload('project_create', project, namespace, { owners: owner ? [owner] : [] }));
    return project;
  });
}

/**
 * PUT /projects/:id: the given settings, checked as on creation (a name unique in its group, a
 * visibility its group allows), written in one statement; nothing is written when one is refused.
 */
/** A default branch must be a branch of the repository, as on the platform. */
export async function requireBranch(dir: string, name: string): Promise<void> {
  if (!(await resolveCommit(dir, `refs/heads/${name}`))) throw badRequest(`Could not set the default branch. Do you have a branch named '${name}' in your repository?`);
}

export async function updateProject(db: Db, project: ProjectRow, namespace: GroupRow, body: ProjectUpdateBody): Promise<ProjectRow> {
  const errors: Record<string, string[]> = {};
  if (body.visibility && VISIBILITY_RANK[body.visibility] > VISIBILITY_RANK[namespace.visibility]) {
    errors.visibility_level = [`${body.visibility} is not allowed in a ${namespace.visibility} group.`];
  }
  if (body.name !== undefined && body.name !== project.name) {
    const nameClash = await db.selectFrom('projects').select('id').where('namespace_id', '=', namespace.id).where('name', '=', body.name).where('id', '!=', project.id).executeTakeFirst();
    if (nameClash) errors.name = ['has already been taken'];
  }
  if (Object.keys(errors).length) throw validationFailed(errors);
  const changes = toColumns(body);
  if (Object.keys(changes).length) await db.updateTable('projects').set(changes).where('id', '=', project.id).execute();
  return db.selectFrom('projects').selectAll().where('id', '=', project.id).executeTakeFirstOrThrow();
}

/**
 * GET /projects, and GET /groups/:id/projects with `inGroup`: the group's projects, its
 * subgroups' too with include_subgroups, its ancestors' with include_ancestor_groups.
 */
export async function listProjects(db: Db, actor: Actor, q: GroupProjectListQuery, page: PageRequest, inGroup?: GroupRow): Promise<Page<ProjectRow>> {
  let query = visibleProjectsOf(db.selectFrom('projects'), actor);
  if (inGroup) {
    const ancestors = q.include_ancestor_groups ? ancestorIds(inGroup) : [inGroup.id];
    query = query.where((eb) =>
      q.include_subgroups
        ? eb.or([
            eb('namespace_id', 'in', ancestors),
            eb('namespace_id', 'in', eb.selectFrom('groups').select('groups.id').where('groups.traversal', 'like', `${inGroup.traversal}%`)),
          ])
        : eb('namespace_id', 'in', ancestors),
    );
  }
  if (q.with_issues_enabled) query = query.where('issues_enabled', '=', 1);
  if (q.with_merge_requests_enabled) query = query.where('merge_requests_enabled', '=', 1);
  const user = actor.user;
  if (user && (q.membership || q.min_access_level !== undefined)) {
    query = query.where((eb) => projectMember(eb, user.id, q.min_access_level ?? 0));
  }
  if (user && q.owned) query = query.where('creator_id', '=', user.id);
  if (q.search) {
    const term = `%${q.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) =>
      eb.or([
        eb(eb.fn('lower', ['name']), 'like', sql<string>`${term} ESCAPE '\\'`),
        eb(eb.fn('lower', ['path_with_namespace']), 'like', sql<string>`${term} ESCAPE '\\'`),
      ]),
    );
  }
  if (q.visibility) query = query.where('visibility', '=', q.visibility);
  if (q.archived !== undefined) query = query.where('archived', '=', q.archived ? 1 : 0);
  // As the platform: by similarity without a search is by name, ascending unless asked otherwise.
  if (q.order_by === 'similarity') return offsetPage(db, query.selectAll().orderBy('name', 'asc').orderBy('id', q.sort ?? 'asc'), page);
  const orderBy = q.order_by === 'updated_at' ? 'last_activity_at' : (q.order_by ?? 'created_at');
  const dir = q.sort ?? 'desc';
  return offsetPage(db, query.selectAll().orderBy(orderBy, dir).orderBy('id', dir), page);
}

/**
 * Projects directly in a group that the caller may see, at most `limit` (the group detail's
 * cap). `level`, the caller's role in the group where it was loaded with it, spares the query
 * the search of the group tree (see projectVisibleTo).
 */
export async function projectsOfGroup(db: Db, actor: Actor, groupId: number, limit = 100, level?: number): Promise<ProjectRow[]> {
  return projectsOfGroupBy(db, projectVisibility(actor, level), { groupId, limit, userId: actor.user?.id ?? 0, today: today() });
}
/** One prepared query per visibility shape (a handful: see ProjectVisibility). */
const projectsOfGroupBy = preparedByShape(
  (db, v: { groupId: number; limit: number; userId: number; today: string }, shape: ProjectVisibility) =>
    db
      .selectFrom('projects')
      .selectAll()
      .where('namespace_id', '=', v.groupId)
      .where((eb) => projectVisibleWhere(eb, shape, v.userId, v.today))
      .orderBy('id')
      .limit(v.limit),
  { keep: true },
);

/** The namespace of each project by ID; `known` groups (the group whose projects these are) are not read again. */
export async function namespacesOf(db: Db, projects: ProjectRow[], known: GroupRow[] = []): Promise<Map<number, GroupRow>> {
  const found = new Map(known.map((g) => [g.id, g]));
  const ids = [...new Set(projects.map((p) => p.namespace_id))].filter((id) => !found.has(id));
  if (ids.length) for (const g of await db.selectFrom('groups').selectAll().where('id', 'in', ids).execute()) found.set(g.id, g);
  return found;
}

export async function deleteProject(db: Db, project: ProjectRow, namespace: GroupRow): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('members').where('source_type', '=', 'project').where('source_id', '=', project.id).execute();
    await trx.deleteFrom('invitations').where('source_type', '=', 'project').where('source_id', '=', project.id).execute();
    await trx.deleteFrom('custom_attributes').where('model_type', '=', 'project').where('model_id', '=', project.id).execute();
    await trx.deleteFrom('projects').where('id', '=', project.id).execute();
    await fireHookEvent(trx, namespace, 'project_events', projectPayload('project_destroy', project, namespace, null));
    await fireSystemHookEvent(trx, systemProjectPayload('project_destroy', project, namespace));
  });
}
