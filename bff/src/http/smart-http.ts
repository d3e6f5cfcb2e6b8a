import { spawn } from 'node:child_process';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { Logger } from 'pino';
import type { Db } from '../db/index.ts';
import type { Config } from '../config.ts';
import { findProject } from '../services/groups/projects.ts';
import { ensureRepository, RepositoryMissingError } from '../services/git/repositories.ts';
import { hookEndpoint, hookUrlFor, openPushSession } from '../services/git/hook-channel.ts';
import { BAD_CREDENTIALS, gitAccess, gitCaller, type GitService } from '../services/access/git-access.ts';
import { HIDDEN_REFS_GIT_CONFIG } from '../services/git/push-checks.ts';

/** `/<full path>.git/info/refs?service=…`, `/<full path>.git/git-upload-pack`, `…/git-receive-pack`. */
export const GIT_PATH = /^\/(.+?)\.git\/(info\/refs|git-upload-pack|git-receive-pack)$/;
const SERVICES: Record<string, GitService> = { 'git-upload-pack': 'upload', 'git-receive-pack': 'receive' };

const NOT_FOUND = 'The project you were looking for could not be found or you don\'t have permission to view it.';
const CHALLENGE = { 'WWW-Authenticate': 'Basic realm="Gatehouse"' };

export function basicCredentials(req: Request): { username: string; password: string } | undefined {
  const m = /^basic\s+(.+)$/i.exec(req.get('authorization') ?? '');
  if (!m) return undefined;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** A malformed percent-encoding names no project (not a 500). */
function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return '';
  }
}

const refuse = (res: Response, status: number, message: string, headers: Record<string, string> = {}) =>
  res.status(status).set({ ...headers, 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }).send(`${message}\n`);

/**
 * Git's smart HTTP protocol at the platform's URL shape, served by the system's
 * `git http-backend`: the request body streams into it and its answer streams back, so a push
 * of any size never sits in memory. Who may clone and push is decided here, before git runs.
 */
export function gitHttp(deps: { db: Db; config: Config; logger: Logger }): Router {
  return Router().use(hookEndpoint(deps)).use(serveGit(deps));
}

function serveGit(deps: { db: Db; config: Config; logger: Logger }): RequestHandler {
  return async (req, res, next) => {
    const m = GIT_PATH.exec(req.path);
    if (!m) return next();
    const [, fullPath, action] = m;
    // One `service` parameter naming one of the two smart services, nothing else (`service[]=…` or a repeated one is an array).
    const asked = action === 'info/refs' ? req.query.service : action;
    const service = typeof asked === 'string' && Object.hasOwn(SERVICES, asked) ? SERVICES[asked] : undefined;
    if ((action === 'info/refs') !== (req.method === 'GET') ) return refuse(res, 405, 'Method not allowed');

    const caller = await gitCaller(deps.db, basicCredentials(req), { maxFailures: deps.config.signInMaxFailures, clientIp: req.ip ?? req.socket.remoteAddress ?? 'unknown' });
    if (caller === BAD_CREDENTIALS) {
      return refuse(res, 401, 'HTTP Basic: Access denied. If a password was provided for Git authentication, it was not accepted: use a personal access token with the read_repository or write_repository scope.', CHALLENGE);
    }
    // Only the smart protocol: the dumb one would list refs and serve files without these checks. As
    // on the platform: anonymous callers are asked to sign in, others get its 403 (its first line).
    if (!service) {
      if (caller.kind === 'anonymous') return refuse(res, 401, 'HTTP Basic: Access denied', CHALLENGE);
      return refuse(res, 403, "The command you're trying to execute is not allowed.\nOnly git's smart HTTP protocol is served: service=git-upload-pack or service=git-receive-pack (git 1.6.6 or later).");
    }
    const found = await findProject(deps.db, safeDecode(fullPath));
    const { access, role } = found ? await gitAccess(deps.db, caller, found.project, found.group, service) : { access: 'hidden' as const, role: 0 };
    const allowed = service === 'receive' ? access === 'write' : access !== 'none' && access !== 'hidden';
    if (!allowed) {
      // Anonymous callers are asked to sign in (git then prompts); others are told what is wrong.
      if (caller.kind === 'anonymous') return refuse(res, 401, 'HTTP Basic: Access denied', CHALLENGE);
      if (access === 'hidden') return refuse(res, 404, NOT_FOUND);
      return refuse(res, 403, service === 'receive' ? 'You are not allowed to push code to this project.' : 'You are not allowed to download code from this project.');
    }

    const { project, group } = found!;
    let dir: string;
    try {
      dir = await ensureRepository(deps.db, deps.config.repositoriesDir, project);
    } catch (e) {
      if (!(e instanceof RepositoryMissingError)) throw e;
      // Never an empty clone, nor a push starting a second history: git shows this text.
      deps.logger.error(e.details, e.message);
      return refuse(res, 500, 'The repository of this project is missing from the server\'s storage. An administrator must restore it (or give every instance the same GATEHOUSE_REPOSITORIES_DIR).');
    }
    // A push gets a session its hooks report to (git/hook-channel.ts), for as long as git runs.
    const push =
      action === 'git-receive-pack'
        ? openPushSession(
            {
              db: deps.db,
              dir,
              baseUrl: deps.config.externalUrl ?? `${req.protocol}://${req.get('host')}`,
              project,
              group,
              user: caller.kind === 'user' ? caller.actor.user! : null,
              role,
            },
            hookUrlFor(req),
          )
        : undefined;
    const child = spawn('git', ['http-backend'], {
      env: {
        PATH: process.env.PATH,
        GIT_PROJECT_ROOT: dir,
        GIT_HTTP_EXPORT_ALL: '1',
        PATH_INFO: `/${action}`,
        REQUEST_METHOD: req.method,
        // The service checked above and nothing else: git reads only this (a request it could read otherwise never reaches it).
        QUERY_STRING: action === 'info/refs' ? `service=${asked as string}` : '',
        CONTENT_TYPE: req.get('content-type') ?? '',
        ...(req.get('content-encoding') ? { HTTP_CONTENT_ENCODING: req.get('content-encoding') } : {}),
        ...(req.get('git-protocol') ? { GIT_PROTOCOL: req.get('git-protocol') } : {}),
        REMOTE_USER: caller.kind === 'user' ? caller.actor.user!.username : caller.kind === 'deploy_token' ? caller.token.username : '',
        REMOTE_ADDR: req.socket.remoteAddress ?? '',
        // Pushes reach branches and tags only: git refuses any other ref before the hooks run.
        ...(service === 'receive' ? HIDDEN_REFS_GIT_CONFIG : {}),
        ...push?.env,
      },
    });
    child.on('close', () => push?.close());
    req.pipe(child.stdin);
    child.stdin.on('error', () => {});
    child.stderr.on('data', (chunk: Buffer) => deps.logger.warn({ project: project.id, git: chunk.toString().trim() }, 'git http-backend'));
    streamCgiResponse(child.stdout, res);
    child.on('error', (err) => {
      deps.logger.error({ err }, 'git http-backend could not run');
      if (!res.headersSent) refuse(res, 500, 'The repository cannot be served: is git installed?');
    });
    // A client that goes away stops the work.
    res.on('close', () => {
      if (child.exitCode === null) child.kill();
    });
  };
}

/** A CGI answer: header lines (Status among them), a blank line, then the body, streamed. */
function streamCgiResponse(out: NodeJS.ReadableStream, res: Response) {
  let head = Buffer.alloc(0);
  let headed = false;
  const onData = (chunk: Buffer) => {
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf('\r\n\r\n');
    if (end < 0) return;
    headed = true;
    out.removeListener('data', onData);
    let status = 200;
    for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim();
      const value = line.slice(colon + 1).trim();
      if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10) || 200;
      else if (name) res.setHeader(name, value);
    }
    res.status(status);
    const rest = head.subarray(end + 4);
    if (rest.length) res.write(rest);
    out.pipe(res);
  };
  out.on('data', onData);
  // git said nothing at all (it could not start, or died): the gateway failed.
  out.on('end', () => {
    if (!headed) res.status(502).end();
  });
}
