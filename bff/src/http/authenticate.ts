import type { Request } from 'express';
import { parse as parseCookies } from 'cookie';
import type { Db } from '../db/index.ts';
import type { Config } from '../config.ts';
import { anonymous, type Actor } from '../auth/actor.ts';
import { safeEqual } from '../auth/secrets.ts';
import { actorForToken } from '../services/access/authentication.ts';
import { actorForSession } from '../services/access/session.ts';
import { ApiError } from './errors.ts';
import { unauthorized } from '../util/errors.ts';

export const SESSION_COOKIE = 'gatehouse_session';
export const CLEAR_SESSION_COOKIE = `${SESSION_COOKIE}=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax`;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The credential a request carries: PRIVATE-TOKEN, Bearer, private_token/access_token query. */
export function presentedToken(req: Request): string | undefined {
  const header = req.get('private-token');
  if (header) return header.trim();
  const auth = req.get('authorization');
  if (auth && /^bearer\s+/i.test(auth)) return auth.replace(/^bearer\s+/i, '').trim();
  for (const key of ['private_token', 'access_token']) {
    const v = req.query[key];
    if (typeof v === 'string' && v) return v;
  }
  return undefined;
}

/**
 * Resolves the caller once per request. A presented token that cannot be used answers 401
 * even where anonymous access would be allowed, as the platform does. A session cookie
 * counts only on safe methods, or with the session's CSRF token in X-CSRF-Token.
 */
export async function authenticate(req: Request, db: Db, config: Config): Promise<Actor> {
  const cached = (req as Request & { actor?: Actor }).actor;
  if (cached) return cached;
  let actor = anonymous;
  const token = presentedToken(req);
  if (token !== undefined) {
    const result = await actorForToken(db, token);
    if (typeof result === 'string') throw unauthorized();
    actor = result;
  } else {
    const sessionId = parseCookies(req.get('cookie') ?? '')[SESSION_COOKIE];
    if (sessionId) {
      const fromSession = await actorForSession(db, { hours: config.sessionHours, maxFailures: config.signInMaxFailures }, sessionId);
      // An ended session is said so, and its cookie cleared: the console then asks to sign in
      // again instead of quietly showing the anonymous view.
      if (!fromSession) throw new ApiError(401, { message: '401 Unauthorized - the session has ended' }, { 'Set-Cookie': CLEAR_SESSION_COOKIE });
      if (!SAFE_METHODS.has(req.method) && !safeEqual(req.get('x-csrf-token') ?? '', fromSession.session!.csrfToken)) {
        throw new ApiError(403, { message: '403 Forbidden - missing or invalid CSRF token' });
      }
      actor = fromSession;
    }
  }
  (req as Request & { actor?: Actor }).actor = actor;
  return actor;
}
