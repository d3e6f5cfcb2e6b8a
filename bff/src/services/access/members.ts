import { sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { GroupRow, MemberRow, SourceType, UserRow } from '../../db/schema.ts';
import type { Actor } from '../../auth/actor.ts';
import { ACCESS_LEVELS } from '../../../../shared/src/roles.ts';
import { conflict, forbidden, notFound, validationFailed } from '../../util/errors.ts';
import { offsetPage, type Page, type PageRequest } from '../../db/pagination.ts';
import { nowIso, today } from '../../util/time.ts';
import { ancestorIds } from '../../policies/access.ts';
import { canInstance } from '../../policies/index.ts';
import { fireHookEvent } from '../webhooks/hook-delivery.ts';
import { memberPayload } from '../webhooks/hook-payloads.ts';

/** A group or project whose members are managed; projects inherit from their namespace's tree. */
export interface MemberSource {
  type: SourceType;
  id: number;
  /** The group itself, or the project's namespace: where inherited memberships come from. */
  group: GroupRow;
}

export interface MemberWithUser {
  member: MemberRow;
  user: UserRow;
  createdBy: UserRow | null;
}

/** The sources whose memberships count for `source`, itself included. */
function inheritedSources(source: MemberSource): { type: SourceType; ids: number[] }[] {
  const groups = { type: 'group' as const, ids: ancestorIds(source.group) };
  return source.type === 'project' ? [{ type: 'project', ids: [source.id] }, groups] : [groups];
}

/** A function, not a constant: the date is today's at each query, not the day the server started. */
const notExpired = () => sql<boolean>`(members.expires_at IS NULL OR members.expires_at > ${today()})`;

async function attachUsers(db: Db, members: MemberRow[]): Promise<MemberWithUser[]> {
  const ids = [...new Set(members.flatMap((m) => (m.created_by_id ? [m.user_id, m.created_by_id] : [m.user_id])))];
  const users = ids.length ? await db.selectFrom('users').selectAll().where('id', 'in', ids).execute() : [];
  const byId = new Map(users.map((u) => [u.id, u]));
  return members.map((member) => ({ member, user: byId.get(member.user_id)!, createdBy: member.created_by_id ? (byId.get(member.created_by_id) ?? null) : null }));
}

/**
 * GET …/members (direct) and …/members/all (direct and inherited, the highest level of each
 * user). `query` matches name or username.
 */
export async function listMembers(
  db: Db,
  source: MemberSource,
  opts: { inherited: boolean; query?: string; userIds?: number[] },
  page: PageRequest,
): Promise<Page<MemberWithUser>> {
  const sources = opts.inherited ? inheritedSources(source) : [{ type: source.type, ids: [source.id] }];
  let q = db
    .selectFrom('members')
    .innerJoin('users', 'users.id', 'members.user_id')
    .where((eb) => eb.or(sources.map((s) => eb.and([eb('members.source_type', '=', s.type), eb('members.source_id', 'in', s.ids)]))))
    .where(notExpired());
  if (opts.query) {
    const term = `%${opts.query.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) =>
      eb.or([
        eb(eb.fn('lower', ['users.username']), 'like', sql<string>`${term} ESCAPE '\\'`),
        eb(eb.fn('lower', ['users.name']), 'like', sql<string>`${term} ESCAPE '\\'`),
      ]),
    );
  }
  if (opts.userIds?.length) q = q.where('members.user_id', 'in', opts.userIds);
  // One row per user, ranked in the database: the highest level wins, then the oldest membership.
  const ranked = q.select(['members.id as member_id', sql<number>`row_number() over (partition by members.user_id order by members.access_level desc, members.id)`.as('rank')]);
  const best = db.selectFrom(ranked.as('r')).innerJoin('members', 'members.id', 'r.member_id').where('r.rank', '=', 1).selectAll('members').orderBy('members.id');
  return (await offsetPage(db, best, page)).mapAsync((rows) => attachUsers(db, rows));
}

export async function getMember(db: Db, source: MemberSource, userId: number, inherited: boolean): Promise<MemberWithUser> {
  const page = await listMembers(db, source, { inherited, userIds: [userId] }, { page: 1, perPage: 1, limit: 1, offset: 0 });
  if (!page.items.length) throw notFound('Member');
  return page.items[0];
}

export function checkExpiry(expiresAt: string | null | undefined) {
  if (expiresAt && expiresAt <= today()) throw validationFailed({ expires_at: ['cannot be a date in the past'] });
}

/** Only an Owner (or an administrator) may grant, change or remove the Owner role. */
export function checkGrant(actor: Actor, actorLevel: number, ...levels: number[]) {
  if (canInstance(actor, 'admin_instance')) return;
  if (levels.some((l) => l > actorLevel)) throw forbidden('you cannot grant or manage a role above your own');
}

async function ownerCount(db: Db, source: MemberSource): Promise<number> {
  const row = await db
    .selectFrom('members')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('source_type', '=', source.type)
    .where('source_id', '=', source.id)
    .where('access_level', '=', ACCESS_LEVELS.owner)
    // An Owner whose membership has expired no longer owns anything.
    .where(notExpired())
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * A membership below one inherited from an ancestor group would have no effect; the platform
 * refuses it, when adding and when changing a role.
 */
async function checkInheritedFloor(db: Db, source: MemberSource, userId: number, level: number): Promise<void> {
  const ancestors = ancestorIds(source.group).filter((id) => !(source.type === 'group' && id === source.id));
  if (!ancestors.length) return;
  const inherited = await db
    .selectFrom('members')
    .innerJoin('groups', 'groups.id', 'members.source_id')
    .select(['members.access_level', 'groups.full_path'])
    .where('members.source_type', '=', 'group')
    .where('members.source_id', 'in', ancestors)
    .where('members.user_id', '=', userId)
    .where(notExpired())
    .orderBy('members.access_level', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (inherited && level < inherited.access_level) {
    throw validationFailed({ access_level: [`should be greater than or equal to ${inherited.access_level} inherited membership from group ${inherited.full_path}`] });
  }
}

export async function addMember(
  db: Db,
  actor: Actor,
  actorLevel: number,
  source: MemberSource,
  body: { user_id: number; access_level: number; expires_at?: string | null },
): Promise<MemberWithUser> {
  const user = await db.selectFrom('users').selectAll().where('id', '=', body.user_id).executeTakeFirst();
  if (!user) throw notFound('User');
  checkGrant(actor, actorLevel, body.access_level);
  checkExpiry(body.expires_at);
  const existing = await db
    .selectFrom('members')
    .select('id')
    .where('source_type', '=', source.type)
    .where('source_id', '=', source.id)
    .where('user_id', '=', user.id)
    .executeTakeFirst();
  if (existing) throw conflict('Member already exists');
  await checkInheritedFloor(db, source, user.id, body.access_level);
  const now = nowIso();
  // The membership and its member event are written together; of two requests adding the
  // same member at once, the unique constraint lets one through.
  return db.transaction().execute(async (trx) => {
    await trx
      .insertInto('members')
      .values({ source_type: source.type, source_id: source.id, user_id: user.id, access_level: body.access_level, expires_at: body.expires_at ?? null, created_by_id: actor.user?.id ?? null, created_at: now, updated_at: now })
      .execute();
    const added = await getMember(trx, source, user.id, false);
    await announce(trx, source, 'user_add_to_group', added);
    return added;
  });
}

/**
 * A membership an invitation turns into when its address's user is created: no actor to check,
 * the inviter's checks were made when inviting. A user who is already a member keeps the higher level.
 */
export async function addInvitedMember(
  db: Db,
  source: MemberSource,
  userId: number,
  invite: { access_level: number; expires_at: string | null; created_by_id: number | null },
): Promise<void> {
  const existing = await db.selectFrom('members').select(['id', 'access_level']).where('source_type', '=', source.type).where('source_id', '=', source.id).where('user_id', '=', userId).executeTakeFirst();
  if (existing) {
    if (existing.access_level < invite.access_level) await db.updateTable('members').set({ access_level: invite.access_level, updated_at: nowIso() }).where('id', '=', existing.id).execute();
    return;
  }
  const now = nowIso();
  await db
    .insertInto('members')
    .values({ source_type: source.type, source_id: source.id, user_id: userId, access_level: invite.access_level, expires_at: invite.expires_at, created_by_id: invite.created_by_id, created_at: now, updated_at: now })
    .execute();
  await announce(db, source, 'user_add_to_group', await getMember(db, source, userId, false));
}

/** Group membership changes are member events for the hooks of the group and its ancestors. */
async function announce(db: Db, source: MemberSource, event: 'user_add_to_group' | 'user_update_for_group' | 'user_remove_from_group', m: MemberWithUser) {
  if (source.type !== 'group') return;
  await fireHookEvent(db, source.group, 'member_events', memberPayload(event, source.group, m.user, m.member));
}

export async function updateMember(
  db: Db,
  actor: Actor,
  actorLevel: number,
  source: MemberSource,
  userId: number,
  body: { access_level: number; expires_at?: string | null },
): Promise<MemberWithUser> {
  const current = await getMember(db, source, userId, false);
  checkGrant(actor, actorLevel, body.access_level, current.member.access_level);
  checkExpiry(body.expires_at);
  await checkInheritedFloor(db, source, userId, body.access_level);
  if (source.type === 'group' && current.member.access_level === ACCESS_LEVELS.owner && body.access_level < ACCESS_LEVELS.owner && (await ownerCount(db, source)) <= 1) {
    throw validationFailed({ access_level: ['cannot be lowered: the group must keep at least one Owner'] });
  }
  return db.transaction().execute(async (trx) => {
    await trx
      .updateTable('members')
      .set({ access_level: body.access_level, ...(body.expires_at !== undefined ? { expires_at: body.expires_at } : {}), updated_at: nowIso() })
      .where('id', '=', current.member.id)
      .execute();
    const updated = await getMember(trx, source, userId, false);
    await announce(trx, source, 'user_update_for_group', updated);
    return updated;
  });
}

export async function removeMember(db: Db, actor: Actor, actorLevel: number, source: MemberSource, userId: number): Promise<void> {
  const current = await getMember(db, source, userId, false);
  const self = actor.user?.id === userId;
  if (!self) checkGrant(actor, actorLevel, current.member.access_level);
  if (source.type === 'group' && current.member.access_level === ACCESS_LEVELS.owner && (await ownerCount(db, source)) <= 1) {
    throw forbidden('the last Owner of a group cannot be removed');
  }
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('members').where('id', '=', current.member.id).execute();
    await announce(trx, source, 'user_remove_from_group', current);
  });
}
