import type { Db } from '../db/index.ts';
import type { GroupRow, ProjectRow } from '../db/schema.ts';
import { today } from '../util/time.ts';

/** IDs of a group and its ancestors, root first, read from its traversal path. */
export const ancestorIds = (group: Pick<GroupRow, 'traversal'>): number[] =>
  group.traversal.split('/').filter(Boolean).map(Number);

/** The effective role of a user in a group: the highest of its own and inherited memberships. */
export async function groupAccessLevel(db: Db, userId: number | undefined, group: Pick<GroupRow, 'traversal'>): Promise<number> {
  if (userId === undefined) return 0;
  const row = await db
    .selectFrom('members')
    .select((eb) => eb.fn.max('access_level').as('level'))
    .where('source_type', '=', 'group')
    .where('source_id', 'in', ancestorIds(group))
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', today())]))
    .executeTakeFirst();
  return Number(row?.level ?? 0);
}

export async function projectAccessLevel(
  db: Db,
  userId: number | undefined,
  project: Pick<ProjectRow, 'id'>,
  namespace: Pick<GroupRow, 'traversal'>,
): Promise<number> {
  if (userId === undefined) return 0;
  const direct = await db
    .selectFrom('members')
    .select((eb) => eb.fn.max('access_level').as('level'))
    .where('source_type', '=', 'project')
    .where('source_id', '=', project.id)
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', today())]))
    .executeTakeFirst();
  return Math.max(Number(direct?.level ?? 0), await groupAccessLevel(db, userId, namespace));
}
