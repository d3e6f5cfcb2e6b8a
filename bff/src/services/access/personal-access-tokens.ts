import { sql } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../../db/index.ts';
import type { TokenRow } from '../../db/schema.ts';
import type { Actor } from '../../auth/actor.ts';
import type { personalAccessTokenCreateBody, personalAccessTokenListQuery } from '../../../../shared/src/personal-access-tokens.ts';
import { newToken, tokenDigest } from '../../auth/secrets.ts';
import { canInstance } from '../../policies/index.ts';
import { badRequest, forbidden, notAllowed, notFound, unauthorized, validationFailed } from '../../util/errors.ts';
import { offsetPage, type Page, type PageRequest } from '../../db/pagination.ts';
import { addDays, nowIso, today } from '../../util/time.ts';
import { json } from '../../util/rows.ts';

export const TOKEN_PREFIX = 'gtpat-';
/** The platform's maximum lifetime of an access token. */
export const MAX_LIFETIME_DAYS = 365;

export type TokenCreateBody = z.infer<typeof personalAccessTokenCreateBody>;

/** Creates a token for a user and returns the row with its plaintext, which is never stored. */
export async function createPersonalAccessToken(
  db: Db,
  userId: number,
  body: TokenCreateBody,
  opts: { plaintext?: string } = {},
): Promise<{ token: TokenRow; plaintext: string }> {
  const maxDate = addDays(MAX_LIFETIME_DAYS);
  const expiresAt = body.expires_at ?? maxDate;
  if (expiresAt <= today()) throw validationFailed({ expires_at: ['must be in the future'] });
  if (expiresAt > maxDate) throw validationFailed({ expires_at: [`must be before ${maxDate} (at most ${MAX_LIFETIME_DAYS} days)`] });
  // `sudo` is among an administrator's scopes only, as on the platform.
  if (body.scopes.includes('sudo')) {
    const user = await db.selectFrom('users').select('is_admin').where('id', '=', userId).executeTakeFirst();
    if (user?.is_admin !== 1) throw validationFailed({ scopes: ['can only contain available scopes'] });
  }
  const plaintext = opts.plaintext ?? newToken(TOKEN_PREFIX);
  const inserted = await db
    .insertInto('personal_access_tokens')
    .values({
      user_id: userId,
      name: body.name,
      description: body.description ?? null,
      scopes: JSON.stringify([...new Set(body.scopes)]),
      token_digest: tokenDigest(plaintext),
      expires_at: expiresAt,
      revoked: 0,
      created_at: nowIso(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const token = await db.selectFrom('personal_access_tokens').selectAll().where('id', '=', inserted.id).executeTakeFirstOrThrow();
  return { token, plaintext };
}

export const isActive = (t: TokenRow) => !t.revoked && (t.expires_at === null || t.expires_at > today());

export async function listPersonalAccessTokens(
  db: Db,
  actor: Actor,
  q: z.infer<typeof personalAccessTokenListQuery>,
  page: PageRequest,
): Promise<Page<TokenRow>> {
  let query = db.selectFrom('personal_access_tokens');
  // Administrators see everyone's tokens (or one user's with user_id); others only their own,
  // and asking for another user's answers 401, as on the platform (never someone else's list).
  if (!canInstance(actor, 'admin_instance')) {
    if (q.user_id !== undefined && q.user_id !== actor.user!.id) throw unauthorized();
    query = query.where('user_id', '=', actor.user!.id);
  } else if (q.user_id !== undefined) query = query.where('user_id', '=', q.user_id);
  if (q.revoked !== undefined) query = query.where('revoked', '=', q.revoked ? 1 : 0);
  if (q.state === 'active') query = query.where('revoked', '=', 0).where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', today())]));
  if (q.state === 'inactive') query = query.where((eb) => eb.or([eb('revoked', '=', 1), eb('expires_at', '<=', today())]));
  if (q.search) {
    const term = `%${q.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) => eb(eb.fn('lower', ['name']), 'like', sql<string>`${term} ESCAPE '\\'`));
  }
  if (q.created_after) query = query.where('created_at', '>=', new Date(q.created_after).toISOString());
  if (q.created_before) query = query.where('created_at', '<=', new Date(q.created_before).toISOString());
  if (q.last_used_after) query = query.where('last_used_at', '>=', new Date(q.last_used_after).toISOString());
  if (q.last_used_before) query = query.where('last_used_at', '<=', new Date(q.last_used_before).toISOString());
  return offsetPage(db, query.selectAll().orderBy('id', 'desc'), page);
}

/** A token the caller may see: their own, or any for an administrator. `self` is the calling token. */
export async function findVisibleToken(db: Db, actor: Actor, id: number | 'self'): Promise<TokenRow> {
  if (id === 'self') {
    if (!actor.token) throw notFound('Token');
    // Read again: authenticating this very request may just have set last_used_at.
    return (await db.selectFrom('personal_access_tokens').selectAll().where('id', '=', actor.token.id).executeTakeFirst()) ?? actor.token;
  }
  const token = await db.selectFrom('personal_access_tokens').selectAll().where('id', '=', id).executeTakeFirst();
  if (!token || (!canInstance(actor, 'admin_instance') && token.user_id !== actor.user!.id)) throw notFound('Token');
  return token;
}

export async function revokePersonalAccessToken(db: Db, token: TokenRow): Promise<void> {
  if (token.revoked) throw validationFailed({ token: ['is already revoked'] });
  await db.updateTable('personal_access_tokens').set({ revoked: 1 }).where('id', '=', token.id).execute();
}

/**
 * What a token may mint for its own user with POST /user/personal_access_tokens. The platform
 * allows only `k8s_proxy` there, so a leaked token cannot breed a broader one. A person signed in
 * to the console (a session, as on the platform's own settings page) chooses any scope.
 */
export const TOKEN_MINTABLE_SCOPES: readonly string[] = ['k8s_proxy'];
/** The platform's default for self-service tokens: the end of tomorrow, short-lived by default. */
const SELF_SERVICE_DEFAULT_DAYS = 1;

export async function createOwnPersonalAccessToken(db: Db, actor: Actor, body: TokenCreateBody) {
  if (actor.via === 'token' && body.scopes.some((s) => !TOKEN_MINTABLE_SCOPES.includes(s))) {
    throw validationFailed({ scopes: [`does not have a valid value (a token may create tokens with ${TOKEN_MINTABLE_SCOPES.join(', ')} only)`] });
  }
  return createPersonalAccessToken(db, actor.user!.id, { ...body, expires_at: body.expires_at ?? addDays(SELF_SERVICE_DEFAULT_DAYS) });
}

/** What the platform gives a rotated token when no expiry is asked for. */
export const ROTATION_DEFAULT_DAYS = 7;

/**
 * The heart of every rotation (personal and group access tokens): inside the caller's
 * transaction, the old token is revoked and a new one of the same family (name, description,
 * scopes, user) is made. Only one rotation of a token can win: the revocation matches only
 * while the token is still active, and the loser gets a 400.
 */
export async function replaceToken(trx: Db, old: TokenRow, expiresAt = addDays(ROTATION_DEFAULT_DAYS)): Promise<{ token: TokenRow; plaintext: string }> {
  const revoked = await trx.updateTable('personal_access_tokens').set({ revoked: 1 }).where('id', '=', old.id).where('revoked', '=', 0).executeTakeFirst();
  if (Number(revoked.numUpdatedRows) !== 1) throw badRequest('400 Bad request - the token was not rotated');
  const { token, plaintext } = await createPersonalAccessToken(trx, old.user_id, {
    name: old.name,
    description: old.description ?? undefined,
    scopes: json(old.scopes, []),
    expires_at: expiresAt,
  });
  const family = old.family_id ?? old.id;
  await trx.updateTable('personal_access_tokens').set({ family_id: family, previous_token_id: old.id }).where('id', '=', token.id).execute();
  return { token: { ...token, family_id: family, previous_token_id: old.id }, plaintext };
}

/**
 * POST /personal_access_tokens/:id/rotate and …/self/rotate, by the platform's rules: someone
 * else's token (or one that does not exist) answers 401 to a non-administrator, 404 to an
 * administrator; `self` needs a personal access token as the credential (405 otherwise); a token
 * already revoked or expired cannot be rotated (400).
 */
export async function rotatePersonalAccessToken(db: Db, actor: Actor, id: number | 'self', expiresAt: string | undefined) {
  let old: TokenRow;
  if (id === 'self') {
    if (actor.via !== 'token' || !actor.token || actor.user?.bot) throw notAllowed('only a personal access token can rotate itself');
    old = await findVisibleToken(db, actor, 'self');
  } else {
    if (actor.via === 'token' && !actor.scopes.includes('api')) throw forbidden('insufficient_scope: rotating a token by its id needs the api scope');
    try {
      old = await findVisibleToken(db, actor, id);
    } catch (e) {
      if (canInstance(actor, 'admin_instance')) throw e;
      throw unauthorized();
    }
  }
  if (old.revoked) throw badRequest('400 Bad request - token already revoked');
  if (old.expires_at !== null && old.expires_at <= today()) throw badRequest('400 Bad request - token already expired');
  return db.transaction().execute((trx) => replaceToken(trx, old, expiresAt));
}

/** Whose tokens a rotations question may be about: one user's, a group's bots', or anyone's (administrators). */
export type RotationScope = { userId: number } | { botGroupId: number } | 'any';

/**
 * Which of `ids` were rotated, with the token each rotation made and when: a rotated token is the
 * `previous_token_id` of its successor. Ids outside `scope` are left out, as if never asked.
 */
export async function tokenRotations(db: Db, ids: number[], scope: RotationScope, page: PageRequest): Promise<Page<{ id: number; rotated_to: number; rotated_at: string }>> {
  let query = db
    .selectFrom('personal_access_tokens as next')
    .innerJoin('personal_access_tokens as old', 'old.id', 'next.previous_token_id')
    .where('old.id', 'in', ids.length ? ids : [0])
    .select(['old.id as id', 'next.id as rotated_to', 'next.created_at as rotated_at']);
  if (scope !== 'any' && 'userId' in scope) query = query.where('old.user_id', '=', scope.userId);
  if (scope !== 'any' && 'botGroupId' in scope) query = query.innerJoin('users as u', 'u.id', 'old.user_id').where('u.bot_group_id', '=', scope.botGroupId);
  return offsetPage(db, query.orderBy('old.id', 'desc'), page);
}

/** The scope of an actor's rotations question about personal tokens: an administrator's is anyone's, anyone else's their own. */
export const personalRotationScope = (actor: Actor): RotationScope => (canInstance(actor, 'admin_instance') ? 'any' : { userId: actor.user!.id });
