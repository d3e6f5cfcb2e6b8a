import crypto from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { GroupRow, TokenRow } from '../../db/schema.ts';
import type { Actor } from '../../auth/actor.ts';
import type { GroupAccessTokenCreateBody, GroupAccessTokenListQuery } from '../../../../shared/src/group-access-tokens.ts';
import { ACCESS_LEVELS } from '../../../../shared/src/roles.ts';
import { forbidden, notAllowed, notFound, unauthorized, validationFailed } from '../../util/errors.ts';
import { offsetPage, type Page, type PageRequest } from '../../db/pagination.ts';
import { insertUser } from './users.ts';
import { matchesSearch } from '../../db/search.ts';
import { nowIso, today } from '../../util/time.ts';
import { json } from '../../util/rows.ts';
import { createPersonalAccessToken, replaceToken } from './personal-access-tokens.ts';
import { canGroup } from '../../policies/index.ts';
import { fireHookEvent } from '../webhooks/hook-delivery.ts';
import { accessTokenPayload } from '../webhooks/hook-payloads.ts';

/** A group access token: the bot's personal access token and the bot's role in the group. */
export interface GroupAccessTokenRecord {
  token: TokenRow;
  accessLevel: number;
  groupId: number;
}

function baseQuery(db: Db, group: GroupRow) {
  return db
    .selectFrom('personal_access_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .leftJoin('members as m', (j) => j.onRef('m.user_id', '=', 'u.id').on('m.source_type', '=', 'group').on('m.source_id', '=', group.id))
    .where('u.bot_group_id', '=', group.id)
    .selectAll('t')
    .select((eb) => eb.fn.coalesce('m.access_level', sql<number>`0`).as('access_level'));
}

const toRecord = (group: GroupRow) => (row: TokenRow & { access_level: number }): GroupAccessTokenRecord => {
  const { access_level, ...token } = row;
  return { token: token as TokenRow, accessLevel: Number(access_level), groupId: group.id };
};

const SORTS: Record<string, [string, 'asc' | 'desc']> = {
  created_asc: ['t.created_at', 'asc'],
  created_desc: ['t.created_at', 'desc'],
  expires_asc: ['t.expires_at', 'asc'],
  expires_desc: ['t.expires_at', 'desc'],
  last_used_asc: ['t.last_used_at', 'asc'],
  last_used_desc: ['t.last_used_at', 'desc'],
  name_asc: ['t.name', 'asc'],
  name_desc: ['t.name', 'desc'],
};

export async function listGroupAccessTokens(db: Db, group: GroupRow, q: GroupAccessTokenListQuery, page: PageRequest): Promise<Page<GroupAccessTokenRecord>> {
  let query = baseQuery(db, group);
  const iso = (v: string) => new Date(v).toISOString();
  if (q.created_after) query = query.where('t.created_at', '>=', iso(q.created_after));
  if (q.created_before) query = query.where('t.created_at', '<=', iso(q.created_before));
  if (q.expires_after) query = query.where('t.expires_at', '>=', q.expires_after);
  if (q.expires_before) query = query.where('t.expires_at', '<=', q.expires_before);
  if (q.last_used_after) query = query.where('t.last_used_at', '>=', iso(q.last_used_after));
  if (q.last_used_before) query = query.where('t.last_used_at', '<=', iso(q.last_used_before));
  if (q.revoked !== undefined) query = query.where('t.revoked', '=', q.revoked ? 1 : 0);
  if (q.search) query = query.where(matchesSearch(['t.name'], q.search));
  const now = today();
  if (q.state === 'active') query = query.where('t.revoked', '=', 0).where((eb) => eb.or([eb('t.expires_at', 'is', null), eb('t.expires_at', '>', now)]));
  if (q.state === 'inactive') query = query.where((eb) => eb.or([eb('t.revoked', '=', 1), eb('t.expires_at', '<=', now)]));
  const [column, dir] = SORTS[q.sort ?? 'created_desc'];
  return (await offsetPage(db, query.orderBy(sql.ref(column), dir).orderBy('t.id', dir), page)).map(toRecord(group));
}

export async function getGroupAccessToken(db: Db, group: GroupRow, id: number): Promise<GroupAccessTokenRecord> {
  const row = await baseQuery(db, group).where('t.id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Token');
  return toRecord(group)(row);
}

/** Creates the bot user, its membership at the token's role, and the token (plaintext returned once). */
export async function createGroupAccessToken(
  db: Db,
  actor: Actor,
  group: GroupRow,
  body: GroupAccessTokenCreateBody,
): Promise<GroupAccessTokenRecord & { plaintext: string }> {
  const accessLevel = body.access_level ?? ACCESS_LEVELS.maintainer;
  const created = await db.transaction().execute(async (trx) => {
    const now = nowIso();
    const suffix = crypto.randomBytes(4).toString('hex');
    const username = `group_${group.id}_bot_${suffix}`;
    // A bot signs in with its token only: it has no password.
    const bot = await insertUser(trx, { username, name: body.name, email: `${username}@noreply.gatehouse.invalid`, bot: 1, can_create_group: 0, bot_group_id: group.id });
    await trx
      .insertInto('members')
      .values({ source_type: 'group', source_id: group.id, user_id: bot.id, access_level: accessLevel, created_by_id: actor.user?.id ?? null, created_at: now, updated_at: now })
      .execute();
    const { token, plaintext } = await createPersonalAccessToken(trx, bot.id, {
      name: body.name,
      description: body.description,
      scopes: body.scopes,
      expires_at: body.expires_at,
    });
    await trx.updateTable('personal_access_tokens').set({ family_id: token.id }).where('id', '=', token.id).execute();
    await announce(trx, group, 'access_token_created', token);
    return { token: { ...token, family_id: token.id }, accessLevel, groupId: group.id, plaintext };
  });
  return created;
}

/** Token changes are resource access token events for the hooks of the group and its ancestors. */
async function announce(db: Db, group: GroupRow, event: string, token: TokenRow) {
  await fireHookEvent(db, group, 'resource_access_token_events', accessTokenPayload(event, group, token));
}

/** The token that authenticated this request, if it is an access token of `group`. */
async function callingGroupToken(db: Db, actor: Actor, group: GroupRow): Promise<GroupAccessTokenRecord> {
  if (actor.via !== 'token' || !actor.token || !actor.user?.bot) {
    throw notAllowed('the token used is not a group access token');
  }
  if (actor.user.bot_group_id !== group.id) throw unauthorized();
  return getGroupAccessToken(db, group, actor.token.id);
}

/**
 * Rotation, as the spec's state table has it: the old token is revoked at once and a new one
 * of the same family is returned with its plaintext. Rotating a token that is already revoked
 * is reuse: every active token of its family is revoked and the call fails with 401.
 */
export async function rotateGroupAccessToken(
  db: Db,
  actor: Actor,
  group: GroupRow,
  callerLevel: number,
  tokenId: number | 'self',
  expiresAt: string | undefined,
): Promise<GroupAccessTokenRecord & { plaintext: string }> {
  let current: GroupAccessTokenRecord;
  if (tokenId === 'self') {
    current = await callingGroupToken(db, actor, group);
    const scopes = json<string[]>(current.token.scopes, []);
    if (!scopes.includes('api') && !scopes.includes('self_rotate')) throw forbidden('this token may not rotate itself (it needs the api or self_rotate scope)');
  } else {
    // A group access token may rotate only itself; others rotate with a personal access token.
    if (actor.user?.bot) throw unauthorized();
    if (actor.via === 'token' && !actor.scopes.includes('api')) throw forbidden('insufficient_scope: rotating another token needs the api scope');
    const admin = actor.user?.is_admin === 1;
    // The spec answers 401 to a caller without access (the error mapping tells a console
    // session 403, since there a 401 means "signed out").
    if (!canGroup(actor, 'admin_group', { group, level: callerLevel })) throw unauthorized();
    try {
      current = await getGroupAccessToken(db, group, tokenId);
    } catch (e) {
      if (admin) throw e;
      throw unauthorized();
    }
  }
  const old = current.token;
  if (old.revoked) {
    await revokeFamily(db, old);
    throw unauthorized();
  }
  if (old.expires_at !== null && old.expires_at <= today()) throw unauthorized();
  const rotated = await db.transaction().execute(async (trx) => {
    const { token, plaintext } = await replaceToken(trx, old, expiresAt);
    await announce(trx, group, 'access_token_rotated', token);
    return { token, accessLevel: current.accessLevel, groupId: group.id, plaintext };
  });
  return rotated;
}

async function revokeFamily(db: Db, token: TokenRow): Promise<void> {
  const family = token.family_id ?? token.id;
  await db
    .updateTable('personal_access_tokens')
    .set({ revoked: 1 })
    .where((eb) => eb.or([eb('family_id', '=', family), eb('id', '=', family)]))
    .where('revoked', '=', 0)
    .execute();
}

export async function revokeGroupAccessToken(db: Db, group: GroupRow, tokenId: number): Promise<void> {
  const { token } = await getGroupAccessToken(db, group, tokenId);
  if (token.revoked) throw validationFailed({ token: ['is already revoked'] });
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('personal_access_tokens').set({ revoked: 1 }).where('id', '=', token.id).execute();
    await announce(trx, group, 'access_token_revoked', token);
  });
}
