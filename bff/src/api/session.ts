import { Router, type Request, type Response } from 'express';
import { signInBody, type SessionInfo } from '../../../shared/src/session.ts';
import type { Db } from '../db/index.ts';
import type { Config } from '../config.ts';
import type { UserRow } from '../db/schema.ts';
import { signIn, signOut } from '../services/access/session.ts';
import { authenticate, SESSION_COOKIE } from '../http/authenticate.ts';
import { ApiError, asApiError, fromZodError } from '../http/errors.ts';
import { unauthorized } from '../util/errors.ts';
import { bool } from '../util/rows.ts';

/**
 * The console's own endpoints (not part of the platform API): sign in, who am I, sign out.
 * The session lives in the database; the browser holds only an httpOnly cookie and reads the
 * CSRF token it must echo on writes from GET /api/console/session.
 */
export function sessionRouter(db: Db, config: Config): Router {
  const router = Router();
  const opts = { hours: config.sessionHours, maxFailures: config.signInMaxFailures };
  const secureCookie = config.externalUrl?.startsWith('https://') ?? false;

  const info = (user: UserRow, csrfToken: string, expiresAt: string): SessionInfo => ({
    user: { id: user.id, username: user.username, name: user.name, is_admin: bool(user.is_admin), avatar_url: null },
    csrf_token: csrfToken,
    expires_at: expiresAt,
  });

  router.get('/session', async (req: Request, res: Response) => {
    const actor = await authenticate(req, db, config);
    if (actor.via !== 'session' || !actor.user) throw unauthorized();
    res.set('Cache-Control', 'no-store').json(info(actor.user, actor.session!.csrfToken, actor.session!.expiresAt));
  });

  router.post('/session', async (req: Request, res: Response) => {
    // Only JSON is accepted: a cross-site form cannot send it, which guards sign-in against CSRF.
    if (!req.is('application/json')) throw new ApiError(415, { message: '415 Unsupported Media Type - send JSON' });
    const parsed = signInBody.safeParse(req.body);
    if (!parsed.success) throw fromZodError(parsed.error);
    const s = await signIn(db, opts, parsed.data.username, parsed.data.password, req.ip ?? req.socket.remoteAddress ?? 'unknown');
    res.cookie(SESSION_COOKIE, s.id, {
      httpOnly: true,
      sameSite: 'lax',
      secure: secureCookie,
      path: '/',
      maxAge: config.sessionHours * 3_600_000,
    });
    res.status(201).set('Cache-Control', 'no-store').json(info(s.user, s.csrfToken, s.expiresAt));
  });

  router.delete('/session', async (req: Request, res: Response) => {
    try {
      const actor = await authenticate(req, db, config);
      if (actor.via === 'session' && actor.session) await signOut(db, actor.session.idDigest);
    } catch (e) {
      // Signing out of a session that has already ended is not an error; a missing CSRF token is.
      if (asApiError(e)?.status !== 401) throw e;
    }
    res.clearCookie(SESSION_COOKIE, { path: '/' }).status(204).end();
  });

  return router;
}
