import type { Request } from 'express';
import { parse as parseCookies } from 'cookie';
import type { Db } from '../db/index.ts';
import type { Config } from '../config.ts';
import { anonymous, isAdmin, type Actor } from '../auth/actor.ts';
import { safeEqual } from '../auth/secrets.ts';
import { actorForToken } from '../services/access/authentication.ts';
import { actorForSession } from '../services/access/session.ts';
import { findUser, findUserByUsername } from '../services/access/users.ts';
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

/**
 * Whom a request names to act as: its `sudo` parameter (query or body), else its `Sudo`
 * header, as on the platform. Undefined when it names no one.
 */
export function sudoIdentifier(req: Request): string | undefined {
  const fromParams = (value: unknown): string | undefined => {
    if (Array.isArray(value)) return fromParams(value.at(-1));
    return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
  };
  const body = req.body as Record<string, unknown> | undefined;
  return fromParams(req.query.sudo) ?? fromParams(body && typeof body === 'object' ? body.sudo : undefined) ?? req.get('sudo');
}

const SUDO_SCOPE_MISSING = {
  error: 'insufficient_scope',
  error_description: 'The request requires higher privileges than provided by the access token.',
  scope: 'sudo',
};

/**
 * Sudo, as the platform has it: an administrator calling with an access token that has the
 * `sudo` scope acts as the user the request names (by id, or username whatever its case), for
 * everything the call does (permissions, authorship, events). Anyone else who names a user is
 * refused with the platform's answers, in its order: 401 without a credential, 403 for a
 * non-administrator, for a console session, for a token without the scope; 404 for no such user.
 */
export async function actingAs(req: Request, db: Db, actor: Actor): Promise<Actor> {
  const identifier = sudoIdentifier(req);
  if (identifier === undefined) return actor;
  if (!actor.user) throw unauthorized();
  if (!isAdmin(actor)) throw new ApiError(403, { message: '403 Forbidden - Must be admin to use sudo' });
  if (actor.via !== 'token') throw new ApiError(403, { message: '403 Forbidden - Must be authenticated using an OAuth or Personal Access Token to use sudo' });
  if (!actor.scopes.includes('sudo')) throw new ApiError(403, SUDO_SCOPE_MISSING);
  const byId = /^\d+$/.test(identifier);
  const user = byId
    ? identifier.length <= 10 && Number(identifier) <= 2_147_483_647
      ? await findUser(db, Number(identifier))
      : undefined
    : await findUserByUsername(db, identifier);
  if (!user) throw new ApiError(404, { message: `404 User with ID or username '${identifier}' Not Found` });
  return { ...actor, user, sudoBy: actor.user };
}
