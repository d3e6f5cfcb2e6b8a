import type { Db } from '../../db/index.ts';
import type { GroupRow, ProjectRow } from '../../db/schema.ts';
import type { Actor } from '../../auth/actor.ts';
import { ACCESS_LEVELS } from '../../../../shared/src/roles.ts';
import { canGroup, canInstance, canProject } from '../../policies/index.ts';
import { badRequest, notFound } from '../../util/errors.ts';
import { nowIso } from '../../util/time.ts';
import { findGroupWithLevel, moveProjectPaths, siblingPathTaken } from './groups.ts';
import { fireSystemHookEvent } from '../webhooks/hook-delivery.ts';
import { systemProjectPayload } from '../webhooks/system-hook-payloads.ts';

/**
 * Transfers (spec: projects' PUT /projects/:id/transfer, groups' POST /groups/:id/transfer), as
 * the platform's transfer services: the same checks in the same order, refusals answered as
 * its 400s with its sentences, and every row that holds a path (the moved group's, its
 * subgroups', their projects') rewritten in one transaction. Repositories live on disk by
 * project id (git/repositories.ts), so nothing moves there.
 */

const VISIBILITY_RANK: Record<string, number> = { private: 0, internal: 10, public: 20 };
const narrower = (a: string, b: string) => (VISIBILITY_RANK[a] <= VISIBILITY_RANK[b] ? a : b);
/** The visibilities more open than `level`. */
const moreOpenThan = (level: string) => Object.keys(VISIBILITY_RANK).filter((v) => VISIBILITY_RANK[v] > VISIBILITY_RANK[level]);

/** The target namespace of a project transfer, by id or full path: one the caller cannot see is the platform's 404. */
export async function namespaceForTransfer(db: Db, actor: Actor, idOrPath: string): Promise<{ group: GroupRow; level: number }> {
  const found = await findGroupWithLevel(db, idOrPath.trim(), actor.user?.id);
  if (!found || !canGroup(actor, 'read_group', found)) throw notFound('Namespace');
  return found;
}

/** The project's refusal as the platform's API words it (its errors hash, inspected). */
const projectRefusal = (sentence: string) => badRequest(`Failed to transfer project {:new_namespace=>[${JSON.stringify(sentence)}]}`);

/** Whether a project has images in the container registry (their names hold its path). */
async function hasRegistryImages(db: Db, projectIds: number[]): Promise<boolean> {
  if (!projectIds.length) return false;
  return !!(await db.selectFrom('container_repositories').select('id').where('project_id', 'in', projectIds).executeTakeFirst());
}

export async function transferProject(db: Db, actor: Actor, subject: { project: ProjectRow; group: GroupRow; level: number }, target: { group: GroupRow; level: number }): Promise<{ project: ProjectRow; group: GroupRow }> {
  const { project } = subject;
  const to = target.group;
  if (to.id === project.namespace_id) throw projectRefusal('Project is already in this namespace.');
  if (!canProject(actor, 'change_namespace', subject)) throw projectRefusal("You don't have permission to transfer this project.");
  if (!canGroup(actor, 'create_project', target)) throw projectRefusal("You don't have permission to transfer projects into that namespace.");
  const lower = project.path.toLowerCase();
  const clash = await db
    .selectFrom('projects')
    .select('id')
    .where('namespace_id', '=', to.id)
    .where((eb) => eb.or([eb(eb.fn('lower', ['path']), '=', lower), eb('name', '=', project.name)]))
    .executeTakeFirst();
  const groupClash = await db.selectFrom('groups').select('id').where('parent_id', '=', to.id).where((eb) => eb(eb.fn('lower', ['path']), '=', lower)).executeTakeFirst();
  if (clash || groupClash) throw projectRefusal('Project with same name or path in target namespace already exists');
  if (await hasRegistryImages(db, [project.id])) throw projectRefusal('Project cannot be transferred, because image tags are present in its container registry');

  const oldPath = project.path_with_namespace;
  return db.transaction().execute(async (trx) => {
    await trx
      .updateTable('projects')
      .set({ namespace_id: to.id, path_with_namespace: `${to.full_path}/${project.path}`, visibility: narrower(project.visibility, to.visibility) })
      .where('id', '=', project.id)
      .execute();
    const moved = await trx.selectFrom('projects').selectAll().where('id', '=', project.id).executeTakeFirstOrThrow();
    await fireSystemHookEvent(trx, systemProjectPayload('project_transfer', moved, to, { old_path_with_namespace: oldPath }));
    return { project: moved, group: to };
  });
}

/** The group's refusal as the platform's API words it. */
const groupRefusal = (sentence: string) => badRequest(`Transfer failed: ${sentence}`);

export async function transferGroup(db: Db, actor: Actor, group: GroupRow, target: { group: GroupRow; level: number } | null): Promise<GroupRow> {
  const parent = target?.group ?? null;
  if (!parent && group.parent_id === null) throw groupRefusal('Group is already a root group.');
  if (parent && parent.id === group.parent_id) throw groupRefusal('Group is already associated to the parent group.');
  const allowed = target ? canGroup(actor, 'create_subgroup', target) : canInstance(actor, 'create_group');
  if (!allowed) throw groupRefusal("You don't have enough permissions.");
  if (await siblingPathTaken(db, parent?.id ?? null, group.path, group.id)) throw groupRefusal('The parent group already has a subgroup or a project with the same path.');
  const tree = `${group.traversal}%`;
  const projectIds = (
    await db.selectFrom('projects').innerJoin('groups', 'groups.id', 'projects.namespace_id').select('projects.id').where('groups.traversal', 'like', tree).execute()
  ).map((p) => p.id);
  if (await hasRegistryImages(db, projectIds)) {
    throw groupRefusal(
      'Cannot update the path because there are projects under this group that contain Docker images in their Container Registry. Please remove the images from your projects first and try again.',
    );
  }
  if (parent && parent.traversal.startsWith(group.traversal)) throw groupRefusal('Cannot transfer group to one of its subgroup.');

  const fullPath = parent ? `${parent.full_path}/${group.path}` : group.path;
  const fullName = parent ? `${parent.full_name} / ${group.name}` : group.name;
  const traversal = `${parent?.traversal ?? '/'}${group.id}/`;
  return db.transaction().execute(async (trx) => {
    const now = nowIso();
    // The group and every subgroup: their place in the tree, full paths and names.
    const groups = await trx.selectFrom('groups').select(['id', 'traversal', 'full_path', 'full_name', 'visibility']).where('traversal', 'like', tree).execute();
    for (const g of groups) {
      await trx
        .updateTable('groups')
        .set({
          traversal: traversal + g.traversal.slice(group.traversal.length),
          full_path: fullPath + g.full_path.slice(group.full_path.length),
          full_name: fullName + g.full_name.slice(group.full_name.length),
          ...(parent && VISIBILITY_RANK[g.visibility] > VISIBILITY_RANK[parent.visibility] ? { visibility: parent.visibility } : {}),
          ...(g.id === group.id ? { parent_id: parent?.id ?? null, updated_at: now } : {}),
        })
        .where('id', '=', g.id)
        .execute();
    }
    // Their projects' full paths, and visibilities the new parent does not allow narrowed to it.
    const projects = await trx
      .selectFrom('projects')
      .select(['id', 'path_with_namespace'])
      .where('id', 'in', projectIds.length ? projectIds : [-1])
      .execute();
    await moveProjectPaths(trx, projects, group.full_path, fullPath);
    if (parent && projectIds.length) {
      await trx.updateTable('projects').set({ visibility: parent.visibility }).where('id', 'in', projectIds).where('visibility', 'in', moreOpenThan(parent.visibility)).execute();
    }
    // A group made top-level keeps an Owner: the one who moved it, when it has none.
    if (!parent) {
      const owner = await trx
        .selectFrom('members')
        .select('id')
        .where('source_type', '=', 'group')
        .where('source_id', '=', group.id)
        .where('access_level', '>=', ACCESS_LEVELS.owner)
        .executeTakeFirst();
      if (!owner && actor.user) {
        await trx
          .insertInto('members')
          .values({ source_type: 'group', source_id: group.id, user_id: actor.user.id, access_level: ACCESS_LEVELS.owner, created_by_id: actor.user.id, created_at: now, updated_at: now })
          .execute();
      }
    }
    return trx.selectFrom('groups').selectAll().where('id', '=', group.id).executeTakeFirstOrThrow();
  });
}
