import crypto from 'node:crypto';
import express, { type Request, type RequestHandler, type Router } from 'express';
import type { Logger } from 'pino';
import { refUpdateRefusals } from './push-checks.ts';
import { recordPush, type PushedTo } from './push-events.ts';
import { parseRefUpdates } from './push-git.ts';
import { QUARANTINE_VARIABLES } from './hook-script.ts';
import type { WriterRole } from './protected-refs.ts';

/**
 * The channel between git's hooks and the server that spawned git. A push gets a random
 * one-time secret, handed to git http-backend in its environment and remembered here with
 * the push's project and pusher; the repository's hooks (git/hook-script.ts) post git's ref
 * updates and quarantine variables back to this server with that secret.
 * The server answers whether the push may go on and why not: the hook prints the reasons,
 * which git shows on its `remote:` lines.
 */
export const HOOK_PATH = '/-/internal/git-hook';

/** A push under way: where it goes and who pushes (services/push-events.ts), and their role, which protected branches and tags read. */
export interface PushSession extends PushedTo {
  role: WriterRole;
}

/** Pushes under way in this process, by their secret. The hook calls back the process that spawned git, so memory is enough. */
const sessions = new Map<string, PushSession>();

/** Opens a push's session: the environment git http-backend passes down to the hooks, and the function that ends it. */
export function openPushSession(session: PushSession, hookUrl: string): { env: Record<string, string>; close: () => void } {
  const secret = crypto.randomBytes(32).toString('base64url');
  sessions.set(secret, session);
  return {
    env: { GATEHOUSE_HOOK_URL: hookUrl, GATEHOUSE_HOOK_SECRET: secret, GATEHOUSE_NODE: process.execPath },
    close: () => sessions.delete(secret),
  };
}

/** The URL the hooks call: this server, at the address and port the push came in at (so whatever address it listens on). */
export function hookUrlFor(req: Request): string {
  const host = req.socket.localAddress ?? '127.0.0.1';
  return `http://${host.includes(':') ? `[${host}]` : host}:${req.socket.localPort}${HOOK_PATH}`;
}

/** A call from this machine: over loopback, or to the address it came from (the server's own). */
const fromThisMachine = (req: Request) => {
  const remote = req.socket.remoteAddress ?? '';
  return /^(127\.|::1$|::ffff:127\.)/.test(remote) || remote === req.socket.localAddress;
};

/**
 * The internal endpoint the hooks call: only from this machine's loopback, only with a live
 * push's secret. Never under /api/v4 and not in the route table; the secret travels in a
 * header that the request log does not record.
 */
export function hookEndpoint(deps: { logger: Logger }): Router {
  const router = express.Router();
  const handle: RequestHandler = async (req, res) => {
    const secret = req.get('gatehouse-hook-secret') ?? '';
    const session = fromThisMachine(req) ? sessions.get(secret) : undefined;
    if (!session) return void res.status(404).json({ message: '404 Not Found' });
    const body = (req.body ?? {}) as { kind?: string; updates?: string; quarantine?: Record<string, string> };
    const updates = parseRefUpdates(String(body.updates ?? ''));
    try {
      if (body.kind === 'pre-receive') {
        const env = Object.fromEntries(QUARANTINE_VARIABLES.flatMap((name) => (typeof body.quarantine?.[name] === 'string' ? [[name, body.quarantine[name]]] : [])));
        // git http-backend runs with every other ref hidden (git/smart-http.ts): it refuses those refs itself.
        const reasons = await refUpdateRefusals({ ...session, write: { role: session.role, via: 'push' } }, updates, { env, gitRefusesHiddenRefs: true });
        return void res.json({ ok: reasons.length === 0, messages: reasons });
      }
      if (body.kind === 'post-receive') {
        await recordPush(session, updates);
        return void res.json({ ok: true, messages: [] });
      }
      res.status(400).json({ message: 'kind must be pre-receive or post-receive' });
    } catch (err) {
      deps.logger.error({ err, project: session.project.id }, `git ${String(body.kind)} hook failed`);
      res.status(500).json({ ok: false, messages: ['The push could not be checked: an internal error occurred.'] });
    }
  };
  router.post(HOOK_PATH, express.json({ limit: '16mb' }), handle);
  return router;
}

