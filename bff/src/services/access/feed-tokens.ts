import type { Db } from '../../db/index.ts';
import { newToken, tokenDigest } from '../../auth/secrets.ts';
import { nowIso } from '../../util/time.ts';

export const FEED_TOKEN_PREFIX = 'gtft-';

/** A new feed token for the user; the previous one stops working. The plaintext is returned once. */
export async function resetFeedToken(db: Db, userId: number): Promise<{ plaintext: string; created_at: string }> {
  const plaintext = newToken(FEED_TOKEN_PREFIX);
  const created_at = nowIso();
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('feed_tokens').set({ revoked: 1 }).where('user_id', '=', userId).where('revoked', '=', 0).execute();
    await trx.insertInto('feed_tokens').values({ user_id: userId, token_digest: tokenDigest(plaintext), created_at }).execute();
  });
  return { plaintext, created_at };
}
