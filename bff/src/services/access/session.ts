import crypto from 'node:crypto';
import type { Db } from '../../db/index.ts';
import type { Actor } from '../../auth/actor.ts';
import type { UserRow } from '../../db/schema.ts';
import { newToken, tokenDigest, verifyPassword } from '../../auth/secrets.ts';
import { isoPlus, nowIso } from '../../util/time.ts';
import { hit, clear } from '../rate-limits.ts';
import { tooManyRequests, unauthorized } from '../../util/errors.ts';

export interface SessionOptions {
  hours: number;
  maxFailures: number;
}

const FAILURE_WINDOW_MS = 10 * 60_000;
/** One address may try several accounts (people behind one proxy), so its limit is wider. */
const ADDRESS_FACTOR = 5;

/** The sign-in limits in force, as the admin area shows them (they come from the configuration). */
export const signInLimits = (opts: SessionOptions) => ({
  max_failures_per_user: opts.maxFailures,
  max_failures_per_address: opts.maxFailures * ADDRESS_FACTOR,
  window_minutes: FAILURE_WINDOW_MS / 60_000,
  session_hours: opts.hours,
});

/**
 * A username and password, checked under the sign-in limits that the console and git over
 * HTTP share. Failed attempts are counted per username and per client address; past the limit
 * the answer is 429 until the window (10 minutes) passes, whether or not the password is right.
 */
export async function verifySignIn(db: Db, maxFailures: number, username: string, password: string, clientIp: string): Promise<UserRow> {
  const limits = [
    { key: `signin:user:${username.toLowerCase()}`, max: maxFailures },
    { key: `signin:ip:${clientIp}`, max: maxFailures * ADDRESS_FACTOR },
  ];
  const keys = limits.map((l) => l.key);
  for (const { key, max } of limits) {
    const state = await hit(db, key, FAILURE_WINDOW_MS, 0);
    if (state.count >= max) throw tooManyRequests(state.retryAfterSeconds);
  }
  const user = await db
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['username']), '=', username.toLowerCase()))
    .executeTakeFirst();
  const ok = await verifyPassword(password, user?.password_digest);
  if (!ok || !user || user.state !== 'active' || user.bot) {
    for (const key of keys) await hit(db, key, FAILURE_WINDOW_MS, 1);
    throw unauthorized('invalid username or password');
  }
  await clear(db, keys[0]);
  return user;
}

/** Console sign-in: the password checked under the limits, then a session. */
export async function signIn(db: Db, opts: SessionOptions, username: string, password: string, clientIp: string) {
  const user = await verifySignIn(db, opts.maxFailures, username, password, clientIp);
  const id = newToken('');
  const csrfToken = crypto.randomBytes(24).toString('base64url');
  const now = nowIso();
  const expiresAt = isoPlus(opts.hours * 3_600_000);
  await db
    .insertInto('sessions')
    .values({ id_digest: tokenDigest(id), user_id: user.id, csrf_token: csrfToken, created_at: now, expires_at: expiresAt, last_seen_at: now })
    .execute();
  await db.updateTable('users').set({ last_sign_in_at: now }).where('id', '=', user.id).execute();
  return { id, user, csrfToken, expiresAt };
}

/** The actor behind a session cookie; the session slides forward while it is used. */
export async function actorForSession(db: Db, opts: SessionOptions, sessionId: string): Promise<Actor | null> {
  const idDigest = tokenDigest(sessionId);
  const session = await db.selectFrom('sessions').selectAll().where('id_digest', '=', idDigest).executeTakeFirst();
  const now = nowIso();
  if (!session || session.expires_at <= now) return null;
  const user = await db.selectFrom('users').selectAll().where('id', '=', session.user_id).executeTakeFirst();
  if (!user || user.state !== 'active') return null;
  let expiresAt = session.expires_at;
  if (Date.parse(now) - Date.parse(session.last_seen_at) > 60_000) {
    expiresAt = isoPlus(opts.hours * 3_600_000);
    await db.updateTable('sessions').set({ last_seen_at: now, expires_at: expiresAt }).where('id_digest', '=', idDigest).execute();
  }
  return { user, via: 'session', scopes: ['api'], session: { idDigest, csrfToken: session.csrf_token, expiresAt } };
}

export async function signOut(db: Db, idDigest: string): Promise<void> {
  await db.deleteFrom('sessions').where('id_digest', '=', idDigest).execute();
}

export async function purgeExpiredSessions(db: Db): Promise<number> {
  const res = await db.deleteFrom('sessions').where('expires_at', '<=', nowIso()).executeTakeFirst();
  return Number(res.numDeletedRows);
}
