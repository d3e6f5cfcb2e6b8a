import type { Db } from '../db/index.ts';
import type { Actor } from '../auth/actor.ts';
import { safeEqual, tokenDigest } from '../auth/secrets.ts';
import { nowIso, today } from '../util/time.ts';
import { json } from '../util/rows.ts';

export type TokenProblem = 'unknown' | 'revoked' | 'expired' | 'user_blocked';

/** Resolves a plaintext access token to its actor, or says why it cannot be used. */
export async function actorForToken(db: Db, plaintext: string): Promise<Actor | TokenProblem> {
  const digest = tokenDigest(plaintext);
  const token = await db.selectFrom('personal_access_tokens').selectAll().where('token_digest', '=', digest).executeTakeFirst();
  // The lookup is by digest; comparing the digests again in constant time costs nothing.
  if (!token || !safeEqual(token.token_digest, digest)) return 'unknown';
  if (token.revoked) return 'revoked';
  if (token.expires_at !== null && token.expires_at <= today()) return 'expired';
  const user = await db.selectFrom('users').selectAll().where('id', '=', token.user_id).executeTakeFirst();
  if (!user || user.state !== 'active') return 'user_blocked';
  await touchToken(db, token.id, token.last_used_at);
  return { user, via: 'token', token, scopes: json<string[]>(token.scopes, []) };
}

/** last_used_at is kept to the minute: one write per token per minute at most. */
async function touchToken(db: Db, id: number, lastUsedAt: string | null): Promise<void> {
  const now = nowIso();
  if (lastUsedAt && Date.parse(now) - Date.parse(lastUsedAt) < 60_000) return;
  await db.updateTable('personal_access_tokens').set({ last_used_at: now }).where('id', '=', id).execute();
}
