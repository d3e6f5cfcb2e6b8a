import { Router, type Request } from 'express';
import type { Db } from '../db/index.ts';
import type { Config } from '../config.ts';
import { gitCaller } from '../services/access/git-access.ts';
import { issueToken, type Refusal, type TokenServiceSettings } from '../services/registry/token-service.ts';
import { signingKey } from '../services/registry/signing.ts';
import { basicCredentials } from './smart-http.ts';

const STATUS: Record<Refusal['code'], number> = { UNAUTHORIZED: 401, DENIED: 403, UNAVAILABLE: 404, UNSUPPORTED: 404 };

/**
 * Every scope asked: one `scope` parameter per repository, or several in one separated by spaces
 * (as the registry's own challenges list them).
 */
function scopesOf(req: Request): string[] {
  const raw = req.query.scope;
  const list = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
  return list
    .filter((s): s is string => typeof s === 'string')
    .flatMap((s) => s.split(/\s+/))
    .filter(Boolean)
    .slice(0, 32);
}

/**
 * `GET /jwt/auth`: the token service of the container registry, at the platform's path (the
 * registry's `auth.token.realm`). Its answers are the Docker token protocol's: `{"token": …}`,
 * or `{"errors": [{"code", "message"}]}` with 401, 403 or 404. The signing key is read here, at
 * start, so a missing or unreadable key stops the start rather than the first push.
 */
export function registryAuth(deps: { db: Db; config: Config }): Router {
  const registry = deps.config.registry;
  const settings: TokenServiceSettings | undefined = registry ? { issuer: registry.issuer, key: signingKey(registry.keyPath) } : undefined;
  return Router().get('/jwt/auth', async (req, res, next) => {
    try {
      const caller = await gitCaller(deps.db, basicCredentials(req), { maxFailures: deps.config.signInMaxFailures, clientIp: req.ip ?? req.socket.remoteAddress ?? 'unknown' });
      const service = typeof req.query.service === 'string' ? req.query.service : undefined;
      const outcome = await issueToken(deps.db, settings, { service, scopes: scopesOf(req), caller });
      res.set('Cache-Control', 'no-store');
      if ('token' in outcome) {
        res.status(200).json({ token: outcome.token });
        return;
      }
      if (outcome.code === 'UNAUTHORIZED') res.set('WWW-Authenticate', 'Basic realm="Gatehouse"');
      res.status(STATUS[outcome.code]).json({ errors: [outcome] });
    } catch (e) {
      next(e);
    }
  });
}
