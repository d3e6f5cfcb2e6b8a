import { sql, type ExpressionBuilder } from 'kysely';
import { prepared, type Db } from '../../db/index.ts';
import type { Database, GroupRow, GroupsTable } from '../../db/schema.ts';
import { columnsOf } from '../../db/columns.ts';
import type { Actor } from '../../auth/actor.ts';
import type { GroupCreateBody, GroupListQuery, GroupUpdateBody } from '../../../../shared/src/groups.ts';
import { ACCESS_LEVELS } from '../../../../shared/src/roles.ts';
import { DEFAULT_BRANCH_PROTECTION_DEFAULTS } from '../../../../shared/src/protected-branches.ts';
import { newToken } from '../../auth/secrets.ts';
import { forbidden, validationFailed, notFound } from '../../util/errors.ts';
import { customAttributeCondition } from '../instance/custom-attributes.ts';
import { getSettings } from '../instance/application-settings.ts';
import { canGroup, canInstance } from '../../policies/index.ts';
import { keysetPage, preparedOffsetPage, type Page, type PageRequest } from '../../db/pagination.ts';
import { nowIso, today } from '../../util/time.ts';
import { groupMembership, groupVisibleWhere, inTreesLike, memberTraversals, treePattern, visibleLevels } from '../../policies/visibility.ts';
import { matchesPattern, searchPattern } from '../../db/search.ts';
import { inTraversal } from '../../db/dialect.ts';
import { fireHookEvent, fireSystemHookEvent } from '../webhooks/hook-delivery.ts';
import { systemGroupPayload } from '../webhooks/system-hook-payloads.ts';
import { subgroupPayload } from '../webhooks/hook-payloads.ts';

export { DEFAULT_BRANCH_PROTECTION_DEFAULTS };

/** Validated input as columns of groups: a body key without a column fails the type check. */
const groupColumns = columnsOf<GroupsTable>();

/** What `:id` names: a numeric ID (at most 2³¹−1) or a (URL-decoded) full path, matched case-insensitively. */
function groupKey(idOrPath: string | undefined): { by: 'id' | 'path'; key: number | string } | undefined {
  if (!idOrPath) return undefined;
  if (!/^\d+$/.test(idOrPath)) return { by: 'path', key: idOrPath.toLowerCase() };
  const id = Number(idOrPath);
  return Number.isSafeInteger(id) && id <= 2_147_483_647 ? { by: 'id', key: id } : undefined;
}

const groupNamed = (by: 'id' | 'path', key: number | string) => (eb: ExpressionBuilder<Database, 'groups'>) =>
  by === 'id' ? eb('groups.id', '=', key as number) : eb(eb.fn('lower', ['groups.full_path']), '=', key as string);

const groupBy = (by: 'id' | 'path') =>
  prepared((db, v: { key: number | string }) => db.selectFrom('groups').selectAll().where(groupNamed(by, v.key)), { keep: true });
const findGroupBy = { id: groupBy('id'), path: groupBy('path') };

export async function findGroup(db: Db, idOrPath: string | undefined): Promise<GroupRow | undefined> {
  const named = groupKey(idOrPath);
  return named && (await findGroupBy[named.by](db, named))[0];
}

/** The group and the highest role of the user through a membership of it or of an ancestor, not expired. */
const groupWithLevelBy = (by: 'id' | 'path') =>
  prepared((db, v: { key: number | string; userId: number; today: string }) =>
    db
      .selectFrom('groups')
      .selectAll()
      // Last, so that removing it leaves the row the object the other queries return.
      .select((eb) =>
        eb
          .selectFrom('members as m')
          .select((e) => e.fn.max('m.access_level').as('level'))
          .where('m.source_type', '=', 'group')
          .where(inTraversal(db, 'm.source_id', 'groups.traversal'))
          .where('m.user_id', '=', v.userId)
          .where((e) => e.or([e('m.expires_at', 'is', null), e('m.expires_at', '>', v.today)]))
          .as('caller_level'),
      )
      .where(groupNamed(by, v.key)),
    { keep: true },
  );
const findGroupWithLevelBy = { id: groupWithLevelBy('id'), path: groupWithLevelBy('path') };

/**
 * The group named by `:id` with the caller's effective role in it (as groupAccessLevel
 * reckons it), in one query: every group route loads both before anything else.
 */
export async function findGroupWithLevel(db: Db, idOrPath: string | undefined, userId: number | undefined): Promise<{ group: GroupRow; level: number } | undefined> {
  const named = groupKey(idOrPath);
  if (!named) return undefined;
  if (userId === undefined) {
    const [group] = await findGroupBy[named.by](db, named);
    return group && { group, level: 0 };
  }
  const [row] = await findGroupWithLevelBy[named.by](db, { ...named, userId, today: today() });
  return row && withoutLevel(row);
}

/**
 * The row as the group and the caller's level. A kept row (frozen, shared by every caller)
 * is split once; a fresh one loses its last property in place, which keeps V8's fast object
 * (a rest copy would copy 55 fields).
 */
function withoutLevel(row: GroupRow & { caller_level: number | null }): { group: GroupRow; level: number } {
  const level = Number(row.caller_level ?? 0);
  if (!Object.isFrozen(row)) {
    delete (row as { caller_level?: unknown }).caller_level;
    return { group: row, level };
  }
  let split = splitKeptRows.get(row);
  if (!split) {
    const { caller_level: _, ...group } = row;
    splitKeptRows.set(row, (split = { group: Object.freeze(group), level }));
  }
  return split;
}
const splitKeptRows = new WeakMap<object, { group: GroupRow; level: number }>();

const VISIBILITY_RANK: Record<string, number> = { private: 0, internal: 10, public: 20 };

/**
 * What a list shows of each group: the list item's fields, and the traversal its statistics
 * need. A list reads only these, about half of a group's columns (reading a column of a row
 * costs as much as finding the row).
 */
export const GROUP_LIST_COLUMNS = [
  'id',
  'name',
  'path',
  'description',
  'visibility',
  'share_with_group_lock',
  'require_two_factor_authentication',
  'two_factor_grace_period',
  'project_creation_level',
  'auto_devops_enabled',
  'subgroup_creation_level',
  'emails_enabled',
  'mentions_disabled',
  'lfs_enabled',
  'math_rendering_limits_enabled',
  'lock_math_rendering_limits_enabled',
  'default_branch',
  'default_branch_protection',
  'default_branch_protection_defaults',
  'avatar_upload_id',
  'request_access_enabled',
  'repository_storage',
  'full_name',
  'full_path',
  'file_template_project_id',
  'parent_id',
  'created_at',
  'ip_restriction_ranges',
  'shared_runners_setting',
  'marked_for_deletion_on',
  'archived',
  'traversal',
] as const satisfies readonly (keyof GroupRow)[];
export type GroupListRow = Pick<GroupRow, (typeof GROUP_LIST_COLUMNS)[number]>;

/**
 * GET /groups: what the caller may see, filtered, sorted, and paginated by offset or keyset.
 * The list's form (GroupListShape) is decided from the caller and the filters, its values
 * gathered apart (GroupListValues), so that each form is compiled once (preparedByShape).
 */
export async function listGroups(
  db: Db,
  actor: Actor,
  q: GroupListQuery,
  page: PageRequest,
  opts: { parentId?: number; descendantsOf?: Pick<GroupRow, 'id' | 'traversal'> } = {},
): Promise<Page<GroupListRow>> {
  const admin = actor.user?.is_admin === 1;
  const user = actor.user;
  // The subgroups (or descendants) of one group list every visible one unless membership is asked for.
  const allAvailable = q.all_available ?? (admin || opts.parentId !== undefined || opts.descendantsOf !== undefined);
  // Membership filters: owned and min_access_level take precedence over all_available. Each
  // implies visibility; otherwise the visibility rules apply, and administrators see every
  // group (their memberships matter only when they ask for them).
  let reach: GroupListShape['reach'];
  let trees: string[] = [];
  if (user && q.owned) reach = 'owned';
  else if (user && q.min_access_level !== undefined) [reach, trees] = ['trees', await memberTraversals(db, user.id, q.min_access_level)];
  else if (user && !allAvailable) [reach, trees] = ['trees', await memberTraversals(db, user.id)];
  else if (admin) reach = 'all';
  else [reach, trees] = ['visible', user ? await memberTraversals(db, user.id) : []];

  const custom = admin && q.custom_attributes ? Object.entries(q.custom_attributes) : [];
  const shape: GroupListShape = {
    parent: opts.parentId !== undefined,
    descendants: opts.descendantsOf !== undefined,
    reach,
    levels: reach === 'visible' ? visibleLevels(actor) : [],
    trees: trees.length,
    skip: q.skip_groups?.length ?? 0,
    search: Boolean(q.search),
    visibility: Boolean(q.visibility),
    topLevelOnly: Boolean(q.top_level_only),
    storage: Boolean(q.repository_storage && admin),
    markedOn: Boolean(q.marked_for_deletion_on),
    active: q.active,
    archived: q.archived,
    custom: custom.length,
    orderBy: q.order_by === 'path' ? 'path' : q.order_by === 'id' ? 'id' : 'name',
    dir: q.sort === 'desc' ? 'desc' : 'asc',
  };
  const values: GroupListValues = {
    parentId: opts.parentId ?? opts.descendantsOf?.id ?? 0,
    tree: opts.descendantsOf ? treePattern(opts.descendantsOf.traversal) : '',
    userId: user?.id ?? 0,
    trees: trees.map(treePattern),
    skip: q.skip_groups ?? [],
    search: q.search ? searchPattern(q.search) : '',
    visibility: q.visibility ?? '',
    storage: q.repository_storage ?? '',
    markedOn: q.marked_for_deletion_on ?? '',
    today: today(),
    custom,
  };
  if (q.pagination === 'keyset') {
    const column = shape.orderBy;
    return keysetPage(groupList(db, values, shape), { column, dir: shape.dir, cursor: q.cursor, perPage: page.perPage, valueOf: (g) => g[column] });
  }
  return groupListPage(db, shape, values, page);
}

/** The form of a group list: which conditions it has, how many values each list of them holds, its order. */
interface GroupListShape {
  parent: boolean;
  /** Every group under the one of parentId (GET /groups/:id/descendant_groups). */
  descendants: boolean;
  /** owned: groups the user owns; trees: those in the user's trees; visible: by visibility or in the trees; all: every group. */
  reach: 'owned' | 'trees' | 'visible' | 'all';
  levels: string[];
  trees: number;
  skip: number;
  search: boolean;
  visibility: boolean;
  topLevelOnly: boolean;
  storage: boolean;
  markedOn: boolean;
  active: boolean | undefined;
  archived: boolean | undefined;
  custom: number;
  orderBy: 'name' | 'path' | 'id';
  dir: 'asc' | 'desc';
}

/** The values of a group list's conditions (those its shape leaves out are not read). */
interface GroupListValues extends Record<string, unknown> {
  parentId: number;
  /** The LIKE pattern of the tree whose descendants are listed (treePattern). */
  tree: string;
  userId: number;
  /** LIKE patterns of the user's trees (treePattern). */
  trees: string[];
  skip: number[];
  /** A searchPattern. */
  search: string;
  visibility: string;
  storage: string;
  markedOn: string;
  /** The day memberships are in force on (owned). */
  today: string;
  custom: [key: string, value: string][];
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

function groupList(db: Db, v: GroupListValues, s: GroupListShape) {
  let query = db.selectFrom('groups');
  if (s.parent) query = query.where('parent_id', '=', v.parentId);
  if (s.descendants) query = query.where('traversal', 'like', v.tree).where('id', '!=', v.parentId);
  const trees = range(s.trees).map((i) => v.trees[i]!);
  if (s.reach === 'owned') {
    query = query.where((eb) => groupMembership(eb, v.userId, ACCESS_LEVELS.owner, v.today));
  } else if (s.reach === 'trees') {
    query = query.where((eb) => inTreesLike(eb, trees));
  } else if (s.reach === 'visible') {
    query = query.where((eb) => groupVisibleWhere(eb, s.levels, trees));
  }
  if (s.skip) query = query.where('id', 'not in', range(s.skip).map((i) => v.skip[i]!));
  // As the platform's group search with parents: the full path and full name match too, so
  // `acme/plat` finds acme's subgroup platform.
  if (s.search) query = query.where(matchesPattern(['groups.full_path', 'groups.full_name'], v.search));
  if (s.visibility) query = query.where('visibility', '=', v.visibility);
  if (s.topLevelOnly) query = query.where('parent_id', 'is', null);
  if (s.storage) query = query.where('repository_storage', '=', v.storage);
  if (s.markedOn) query = query.where('marked_for_deletion_on', '=', v.markedOn);
  if (s.active === true) query = query.where('archived', '=', 0).where('marked_for_deletion_on', 'is', null);
  if (s.active === false) query = query.where((eb) => eb.or([eb('archived', '=', 1), eb('marked_for_deletion_on', 'is not', null)]));
  if (s.archived !== undefined) query = query.where('archived', '=', s.archived ? 1 : 0);
  for (const i of range(s.custom)) query = query.where(customAttributeCondition(db, 'group', 'groups.id', v.custom[i]![0], v.custom[i]![1]));
  return query.select(GROUP_LIST_COLUMNS);
}
/** Kept (db/index.ts, prepared) while groups, projects and members do not change, unless a filter reads another table (custom attributes). */
const groupListPage = preparedOffsetPage((db, v: GroupListValues, s: GroupListShape) => groupList(db, v, s).orderBy(s.orderBy, s.dir).orderBy('id', s.dir), { keep: true });

export async function siblingPathTaken(db: Db, parentId: number | null, path: string, exceptId?: number): Promise<boolean> {
  let q = db
    .selectFrom('groups')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['path']), '=', path.toLowerCase()));
  q = parentId === null ? q.where('parent_id', 'is', null) : q.where('parent_id', '=', parentId);
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  if (await q.executeTakeFirst()) return true;
  if (parentId !== null) {
    // A project in the parent with that path would clash with the subgroup's full path.
    const project = await db
      .selectFrom('projects')
      .select('id')
      .where('namespace_id', '=', parentId)
      .where((eb) => eb(eb.fn('lower', ['path']), '=', path.toLowerCase()))
      .executeTakeFirst();
    if (project) return true;
  }
  return false;
}

/** A subgroup may not be more visible than its parent, nor a group less visible than its children. */
async function checkVisibility(db: Db, group: Pick<GroupRow, 'id'> | null, parent: GroupRow | null, visibility: string): Promise<void> {
  if (parent && VISIBILITY_RANK[visibility] > VISIBILITY_RANK[parent.visibility]) {
    throw validationFailed({ visibility: [`${visibility} is not allowed since the parent group has a ${parent.visibility} visibility.`] });
  }
  if (group) {
    const allowed = Object.keys(VISIBILITY_RANK).filter((v) => VISIBILITY_RANK[v] > VISIBILITY_RANK[visibility]);
    const child = await db
      .selectFrom('groups')
      .select('id')
      .where('parent_id', '=', group.id)
      .where('visibility', 'in', allowed.length ? allowed : ['-'])
      .executeTakeFirst();
    const project = await db
      .selectFrom('projects')
      .select('id')
      .where('namespace_id', '=', group.id)
      .where('visibility', 'in', allowed.length ? allowed : ['-'])
      .executeTakeFirst();
    if (child || project) {
      throw validationFailed({ visibility: [`${visibility} is not allowed since there are subgroups or projects with a higher visibility.`] });
    }
  }
}

/** A new group's visibility (the body's, or its parent's, or the instance default), once it and its path are allowed. */
export async function checkNewGroup(db: Db, body: Pick<GroupCreateBody, 'path' | 'visibility'>, parent: GroupRow | null): Promise<string> {
  const visibility = body.visibility ?? (parent ? parent.visibility : (await getSettings(db)).default_group_visibility);
  await checkVisibility(db, null, parent, visibility);
  if (await siblingPathTaken(db, parent?.id ?? null, body.path)) throw validationFailed({ path: ['has already been taken'] });
  return visibility;
}

/**
 * Inserts a group checked by checkNewGroup in the caller's transaction, its creator (when
 * there is one) its Owner, and tells the parent's hooks. Also what an import makes its groups with.
 */
export async function insertGroup(
  trx: Db,
  creator: { id: number } | null,
  body: GroupCreateBody,
  parent: GroupRow | null,
  visibility: string,
  extra: { import_status?: GroupRow['import_status'] } = {},
): Promise<GroupRow> {
  const now = nowIso();
  const inserted = await trx
    .insertInto('groups')
    .values({
      ...groupColumns({
        project_creation_level: body.project_creation_level,
        subgroup_creation_level: body.subgroup_creation_level,
        request_access_enabled: body.request_access_enabled,
        lfs_enabled: body.lfs_enabled,
        emails_enabled: body.emails_enabled,
      }),
      name: body.name,
      path: body.path,
      full_name: parent ? `${parent.full_name} / ${body.name}` : body.name,
      full_path: parent ? `${parent.full_path}/${body.path}` : body.path,
      parent_id: parent?.id ?? null,
      traversal: '',
      description: body.description ?? '',
      visibility,
      default_branch: body.default_branch ?? null,
      default_branch_protection_defaults: JSON.stringify(DEFAULT_BRANCH_PROTECTION_DEFAULTS),
      runners_token: newToken('GR1348941'),
      created_at: now,
      updated_at: now,
      ...(extra.import_status ? { import_status: extra.import_status } : {}),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const traversal = `${parent?.traversal ?? '/'}${inserted.id}/`;
  await trx.updateTable('groups').set({ traversal }).where('id', '=', inserted.id).execute();
  // The creator owns what they create.
  if (creator) {
    await trx
      .insertInto('members')
      .values({ source_type: 'group', source_id: inserted.id, user_id: creator.id, access_level: ACCESS_LEVELS.owner, created_by_id: creator.id, created_at: now, updated_at: now })
      .execute();
  }
  const group = await trx.selectFrom('groups').selectAll().where('id', '=', inserted.id).executeTakeFirstOrThrow();
  // The event is queued in the same transaction: the group and its deliveries exist together or not at all.
  if (parent) await fireHookEvent(trx, parent, 'subgroup_events', subgroupPayload('subgroup_create', parent, group));
  await fireSystemHookEvent(trx, systemGroupPayload('group_create', group));
  return group;
}

export async function createGroup(db: Db, creator: { id: number }, body: GroupCreateBody, parent: GroupRow | null): Promise<GroupRow> {
  const visibility = await checkNewGroup(db, body, parent);
  return db.transaction().execute((trx) => insertGroup(trx, creator, body, parent, visibility));
}

/** Fields only an administrator may change. */
const ADMIN_ONLY_FIELDS = ['shared_runners_minutes_limit', 'extra_shared_runners_minutes_limit'] as const;
/** Fields that exist only on top-level groups. */
const TOP_LEVEL_FIELDS = [
  'prevent_sharing_groups_outside_hierarchy',
  'unique_project_download_limit',
  'unique_project_download_limit_interval_in_seconds',
  'unique_project_download_limit_allowlist',
  'unique_project_download_limit_alertlist',
  'auto_ban_user_on_excessive_projects_download',
  'web_based_commit_signing_enabled',
] as const;

/**
 * PUT /groups/:id. Validates the rules that need the database, then writes every change,
 * including the renamed paths of descendants and their projects, in one transaction.
 */
export async function updateGroup(db: Db, actor: Actor, group: GroupRow, body: GroupUpdateBody): Promise<GroupRow> {
  const errors: Record<string, string[]> = {};
  const admin = actor.user?.is_admin === 1;
  for (const f of ADMIN_ONLY_FIELDS) if (body[f] !== undefined && !admin) errors[f] = ['can only be changed by an administrator'];
  if (group.parent_id !== null) {
    for (const f of TOP_LEVEL_FIELDS) if (body[f] !== undefined) errors[f] = ['is only available on top-level groups'];
  }
  if (body.unique_project_download_limit_alertlist?.length) {
    const found = await db.selectFrom('users').select('id').where('id', 'in', body.unique_project_download_limit_alertlist).execute();
    const missing = body.unique_project_download_limit_alertlist.filter((id) => !found.some((u) => u.id === id));
    if (missing.length) errors.unique_project_download_limit_alertlist = [`contains unknown user IDs: ${missing.join(', ')}`];
  }
  if (body.unique_project_download_limit_allowlist?.length) {
    const names = body.unique_project_download_limit_allowlist.map((n) => n.toLowerCase());
    const found = await db.selectFrom('users').select('username').where((eb) => eb(eb.fn('lower', ['username']), 'in', names)).execute();
    const missing = names.filter((n) => !found.some((u) => u.username.toLowerCase() === n));
    if (missing.length) errors.unique_project_download_limit_allowlist = [`contains unknown usernames: ${missing.join(', ')}`];
  }
  if (body.file_template_project_id != null) {
    const project = await db
      .selectFrom('projects')
      .innerJoin('groups', 'groups.id', 'projects.namespace_id')
      .select('projects.id')
      .where('projects.id', '=', body.file_template_project_id)
      .where('groups.traversal', 'like', `${group.traversal}%`)
      .executeTakeFirst();
    if (!project) errors.file_template_project_id = ['must be a project in this group or its subgroups'];
  }
  if (body.path !== undefined && body.path.toLowerCase() !== group.path.toLowerCase() && (await siblingPathTaken(db, group.parent_id, body.path, group.id))) {
    errors.path = ['has already been taken'];
  }
  if (Object.keys(errors).length) throw validationFailed(errors);

  const parent = group.parent_id === null ? null : ((await db.selectFrom('groups').selectAll().where('id', '=', group.parent_id).executeTakeFirst()) ?? null);
  if (body.visibility !== undefined && body.visibility !== group.visibility) await checkVisibility(db, group, parent, body.visibility);

  const { avatar: _avatar, emails_disabled, default_branch_protection_defaults, ...fields } = body;
  const patch = {
    ...groupColumns(fields),
    ...(emails_disabled !== undefined && body.emails_enabled === undefined ? groupColumns({ emails_enabled: !emails_disabled }) : {}),
    ...(default_branch_protection_defaults
      ? groupColumns({
          default_branch_protection_defaults: { ...DEFAULT_BRANCH_PROTECTION_DEFAULTS, ...JSON.parse(group.default_branch_protection_defaults), ...default_branch_protection_defaults },
        })
      : {}),
  };
  if (Object.keys(patch).length === 0) return group;

  const name = body.name ?? group.name;
  const path = body.path ?? group.path;
  const fullName = parent ? `${parent.full_name} / ${name}` : name;
  const fullPath = parent ? `${parent.full_path}/${path}` : path;

  return db.transaction().execute(async (trx) => {
    await trx
      .updateTable('groups')
      .set({ ...patch, full_name: fullName, full_path: fullPath, updated_at: nowIso() })
      .where('id', '=', group.id)
      .execute();
    if (fullPath !== group.full_path || fullName !== group.full_name) {
      await renameDescendants(trx, group, fullPath, fullName);
    }
    return trx.selectFrom('groups').selectAll().where('id', '=', group.id).executeTakeFirstOrThrow();
  });
}

/** Rewrites full paths and names under a renamed group, prefix by prefix. */
async function renameDescendants(trx: Db, group: GroupRow, fullPath: string, fullName: string): Promise<void> {
  const descendants = await trx
    .selectFrom('groups')
    .select(['id', 'full_path', 'full_name'])
    .where('traversal', 'like', `${group.traversal}_%`)
    .execute();
  for (const d of descendants) {
    await trx
      .updateTable('groups')
      .set({
        full_path: fullPath + d.full_path.slice(group.full_path.length),
        full_name: fullName + d.full_name.slice(group.full_name.length),
      })
      .where('id', '=', d.id)
      .execute();
  }
  const projects = await trx
    .selectFrom('projects')
    .innerJoin('groups', 'groups.id', 'projects.namespace_id')
    .select(['projects.id', 'projects.path_with_namespace'])
    .where('groups.traversal', 'like', `${group.traversal}%`)
    .execute();
  await moveProjectPaths(trx, projects, group.full_path, fullPath);
}

/** Rewrites the full paths of projects under a group whose full path went from `from` to `to` (a rename or a transfer). */
export async function moveProjectPaths(trx: Db, projects: { id: number; path_with_namespace: string }[], from: string, to: string): Promise<void> {
  for (const p of projects) {
    await trx
      .updateTable('projects')
      .set({ path_with_namespace: to + p.path_with_namespace.slice(from.length) })
      .where('id', '=', p.id)
      .execute();
  }
}

/** Removes a group with its subgroups, projects, memberships and uploads, all or nothing. */
export async function deleteGroup(db: Db, group: GroupRow): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const groupIds = (await trx.selectFrom('groups').select('id').where('traversal', 'like', `${group.traversal}%`).execute()).map((g) => g.id);
    const projectIds = (await trx.selectFrom('projects').select('id').where('namespace_id', 'in', groupIds).execute()).map((p) => p.id);
    await trx.deleteFrom('members').where('source_type', '=', 'group').where('source_id', 'in', groupIds).execute();
    await trx.deleteFrom('invitations').where('source_type', '=', 'group').where('source_id', 'in', groupIds).execute();
    await trx.deleteFrom('custom_attributes').where('model_type', '=', 'group').where('model_id', 'in', groupIds).execute();
    await trx.deleteFrom('uploads').where('model_type', '=', 'group').where('model_id', 'in', groupIds).execute();
    if (projectIds.length) {
      await trx.deleteFrom('members').where('source_type', '=', 'project').where('source_id', 'in', projectIds).execute();
      await trx.deleteFrom('invitations').where('source_type', '=', 'project').where('source_id', 'in', projectIds).execute();
      await trx.deleteFrom('custom_attributes').where('model_type', '=', 'project').where('model_id', 'in', projectIds).execute();
      await trx.deleteFrom('projects').where('id', 'in', projectIds).execute();
    }
    // Deepest first, so no row ever points at a removed parent.
    const ordered = await trx.selectFrom('groups').select('id').where('id', 'in', groupIds).orderBy(sql`length(traversal)`, 'desc').execute();
    for (const g of ordered) await trx.deleteFrom('groups').where('id', '=', g.id).execute();
    const parent = await trx.selectFrom('groups').selectAll().where('id', '=', group.parent_id ?? -1).executeTakeFirst();
    if (parent) await fireHookEvent(trx, parent, 'subgroup_events', subgroupPayload('subgroup_destroy', parent, group));
    await fireSystemHookEvent(trx, systemGroupPayload('group_destroy', group));
  });
}

export const AVATAR_MAX_BYTES = 200 * 1024;
export const AVATAR_TYPES: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/x-icon': 'ico',
  'image/vnd.microsoft.icon': 'ico',
  'image/bmp': 'bmp',
  'image/tiff': 'tiff',
};

/**
 * Recognises an image by its first bytes, not by what the client claims: each of the formats the
 * platform takes for an avatar (its SAFE_IMAGE_EXT: png, jpg, jpeg, gif, bmp, tiff, ico, webp).
 */
export function sniffImage(buf: Buffer): string | undefined {
  if (buf.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return 'image/jpeg';
  if (buf.subarray(0, 6).toString('ascii') === 'GIF87a' || buf.subarray(0, 6).toString('ascii') === 'GIF89a') return 'image/gif';
  if (buf.subarray(0, 4).toString('ascii') === 'RIFF' && buf.subarray(8, 12).toString('ascii') === 'WEBP') return 'image/webp';
  if (buf[0] === 0 && buf[1] === 0 && buf[2] === 1 && buf[3] === 0) return 'image/x-icon';
  if (buf.subarray(0, 2).toString('ascii') === 'BM') return 'image/bmp';
  // TIFF in either byte order: II with 42 little-endian, MM with 42 big-endian.
  if (buf.subarray(0, 4).equals(Buffer.from([0x49, 0x49, 0x2a, 0x00])) || buf.subarray(0, 4).equals(Buffer.from([0x4d, 0x4d, 0x00, 0x2a]))) return 'image/tiff';
  return undefined;
}

export async function setGroupAvatar(db: Db, group: GroupRow, file: { buffer: Buffer; originalname: string }): Promise<void> {
  const type = sniffImage(file.buffer);
  if (!type) throw validationFailed({ avatar: ['file format is not supported. Please try one of the following supported formats: png, jpg, jpeg, gif, bmp, tiff, ico, webp'] });
  if (file.buffer.length > AVATAR_MAX_BYTES) throw validationFailed({ avatar: ['is too big (should be at most 200 KiB)'] });
  const base = file.originalname.replace(/[^A-Za-z0-9_.-]/g, '_').replace(/\.[^.]*$/, '').slice(0, 100) || 'avatar';
  await db.transaction().execute(async (trx) => {
    const upload = await trx
      .insertInto('uploads')
      .values({ model_type: 'group', model_id: group.id, filename: `${base}.${AVATAR_TYPES[type]}`, content_type: type, size: file.buffer.length, data: file.buffer, created_at: nowIso() })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx.updateTable('groups').set({ avatar_upload_id: upload.id, updated_at: nowIso() }).where('id', '=', group.id).execute();
    await trx.deleteFrom('uploads').where('model_type', '=', 'group').where('model_id', '=', group.id).where('id', '!=', upload.id).execute();
  });
}

export async function removeGroupAvatar(db: Db, group: GroupRow): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('groups').set({ avatar_upload_id: null, updated_at: nowIso() }).where('id', '=', group.id).execute();
    await trx.deleteFrom('uploads').where('model_type', '=', 'group').where('model_id', '=', group.id).execute();
  });
}

export async function getGroupAvatar(db: Db, group: GroupRow) {
  if (group.avatar_upload_id === null) throw notFound('Avatar');
  const upload = await db.selectFrom('uploads').selectAll().where('id', '=', group.avatar_upload_id).executeTakeFirst();
  if (!upload) throw notFound('Avatar');
  return upload;
}

/**
 * The group something is being created in (a subgroup's parent, a project's namespace), once
 * the caller may do so: a group they cannot see is refused like a missing one, naming `field`.
 */
export async function groupToCreateIn(
  db: Db,
  actor: Actor,
  groupId: number,
  action: 'create_subgroup' | 'create_project',
  field: 'parent_id' | 'namespace_id',
): Promise<GroupRow> {
  const found = await findGroupWithLevel(db, String(groupId), actor.user?.id);
  if (!found || !canGroup(actor, 'read_group', found)) throw validationFailed({ [field]: ['does not exist'] });
  const { group } = found;
  if (!canGroup(actor, action, found)) {
    throw forbidden(action === 'create_subgroup' ? 'you cannot create subgroups in this group' : 'you cannot create projects in this group');
  }
  return group;
}

/** POST /groups: a subgroup where the parent allows it, a top-level group where the instance does. */
export async function createGroupAs(db: Db, actor: Actor, body: GroupCreateBody): Promise<GroupRow> {
  const parent = body.parent_id == null ? null : await groupToCreateIn(db, actor, body.parent_id, 'create_subgroup', 'parent_id');
  if (!parent && !canInstance(actor, 'create_group')) throw forbidden('you cannot create top-level groups');
  return createGroup(db, actor.user!, body, parent);
}

/** Sizes for `statistics=true`; only uploads are stored today, the rest are 0 until repositories are hosted. */
export async function groupStatistics(db: Db, groups: Pick<GroupRow, 'id' | 'traversal'>[]) {
  const result = new Map<number, number>();
  for (const g of groups) {
    const row = await db
      .selectFrom('uploads')
      .innerJoin('groups', 'groups.id', 'uploads.model_id')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('uploads.size'), sql<number>`0`).as('size'))
      .where('uploads.model_type', '=', 'group')
      .where('groups.traversal', 'like', `${g.traversal}%`)
      .executeTakeFirst();
    result.set(g.id, Number(row?.size ?? 0));
  }
  return result;
}

export async function customAttributesOf(db: Db, modelType: 'user' | 'group' | 'project', ids: number[]) {
  const map = new Map<number, { key: string; value: string }[]>();
  if (!ids.length) return map;
  const rows = await db.selectFrom('custom_attributes').selectAll().where('model_type', '=', modelType).where('model_id', 'in', ids).orderBy('key').execute();
  for (const r of rows) map.set(r.model_id, [...(map.get(r.model_id) ?? []), { key: r.key, value: r.value }]);
  return map;
}

