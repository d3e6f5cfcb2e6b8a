import { sql } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../db/index.ts';
import type { TokenRow } from '../db/schema.ts';
import type { Actor } from '../auth/actor.ts';
import type { personalAccessTokenCreateBody, personalAccessTokenListQuery } from '../../../shared/src/personal-access-tokens.ts';
import { newToken, tokenDigest } from '../auth/secrets.ts';
import { canInstance } from '../policies/index.ts';
import { notFound, unauthorized, validationFailed } from './errors.ts';
import { offsetPage, type Page, type PageRequest } from '../db/pagination.ts';
import { addDays, nowIso, today } from '../util/time.ts';

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
  return offsetPage(query.selectAll().orderBy('id', 'desc'), page);
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
