import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { Db } from '../db/index.ts';
import type { Config } from '../config.ts';
import type { Vault } from '../auth/vault.ts';
import type { FileStore } from '../files/index.ts';
import { reachSettings } from '../services/registry/virtual-registries.ts';
import { packageCaller, pull, registryToPull, relativePath, type PresentedCredentials, type Pulled } from '../services/registry/virtual-registries-cache.ts';
import { DomainError, notFound } from '../util/errors.ts';
import { ApiError, asApiError } from './errors.ts';
import { basicCredentials } from './smart-http.ts';

/** Where Maven is pointed (a settings.xml mirror's URL is this with the registry's id). */
export const PULL_THROUGH_MOUNT = '/api/v4/virtual_registries/packages/maven';

/** Maven sends its credentials only when asked: a 401 asks for Basic. */
const CHALLENGE = { 'WWW-Authenticate': 'Basic realm="Gatehouse virtual registry"' };

function presented(req: Request): PresentedCredentials {
  const auth = req.get('authorization') ?? '';
  const bearer = /^bearer\s+(.+)$/i.exec(auth)?.[1]?.trim();
  return {
    token: req.get('private-token')?.trim() || bearer,
    jobToken: req.get('job-token')?.trim(),
    deployToken: req.get('deploy-token')?.trim(),
    basic: basicCredentials(req),
  };
}

/**
 * `GET /api/v4/virtual_registries/packages/maven/:id/*path`: the platform's download endpoint
 * of a Maven virtual registry, which Maven resolves dependencies through (a HEAD is answered as
 * the GET, without the body). Its own Express route, as git's smart HTTP is: the path is a
 * Maven path of any depth, which the declared routes do not take.
 */
export function virtualRegistryDownloads(deps: { db: Db; config: Config; vault: Vault; files: FileStore }): RequestHandler {
  const router = Router().get(`${PULL_THROUGH_MOUNT}/:id/*path`, async (req, res, next) => {
    let pulling = false;
    try {
      const caller = await packageCaller(deps.db, presented(req));
      const id = /^\d{1,10}$/.test(String(req.params.id)) ? Number(req.params.id) : NaN;
      if (!(id <= 2_147_483_647)) throw notFound('Registry');
      const registry = await registryToPull(deps.db, caller, id);
      const path = relativePath([(req.params as { path?: string[] }).path ?? []].flat());
      const reach = await reachSettings(deps.db, deps.config.virtualRegistry.timeoutMs);
      const pulled = await pull({ db: deps.db, files: deps.files, vault: deps.vault, reach, maxFileBytes: deps.config.virtualRegistry.maxFileBytes }, registry, path);
      pulling = true;
      await answer(req, res, pulled);
    } catch (e) {
      const err = asApiError(e, req);
      if (err && err.status === 401) return next(new ApiError(401, err.body, { ...err.headers, ...CHALLENGE }));
      // Cut short (the upstream stalled, or the file passed the size limit): a transfer under way
      // breaks, one not yet begun is the upstream's failure.
      if (res.headersSent) return void res.destroy();
      if (pulling) for (const name of ['Content-Type', 'Content-Length', 'ETag', 'X-Checksum-Sha1', 'X-Checksum-Md5']) res.removeHeader(name);
      if (pulling && !err) return next(new ApiError(502, { message: `502 Bad Gateway - ${(e as Error).message}` }));
      next(e);
    }
  });
  // GET and HEAD only: a router answers OPTIONS itself ("GET, HEAD" as text) for any path its
  // routes match, which here would be every route of the management API under the same prefix.
  return (req, res, next) => (req.method === 'GET' || req.method === 'HEAD' ? router(req, res, next) : next());
}

/**
 * Passes the bytes on but the last piece, which goes once `until` settles: the caller has the
 * whole file only once it is cached, so Maven's next request (its checksum) finds it there.
 */
function holdingLast(until: Promise<unknown>): Transform {
  let held: Buffer | undefined;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      const previous = held;
      held = chunk;
      done(null, previous);
    },
    flush(done) {
      const last = () => done(null, held);
      until.then(last, last);
    },
  });
}

/** Headers as they are: Express's `set` would add a charset to the file's type. */
function setHeaders(res: Response, headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
}

async function answer(req: Request, res: Response, pulled: Pulled): Promise<void> {
  if (pulled.kind === 'missing') throw new DomainError('not_found', '404 Not Found');
  if (pulled.kind === 'unavailable') throw new ApiError(502, { message: `502 Bad Gateway - no upstream could give the file: ${pulled.reasons.join('; ')}` });
  if (pulled.kind === 'cached') {
    const { entry, file, size } = pulled;
    const etag = `"${entry.file_sha1}"`;
    setHeaders(res, { 'Content-Type': entry.content_type, ETag: etag, 'X-Checksum-Sha1': entry.file_sha1, 'X-Checksum-Md5': entry.file_md5 });
    if (req.get('if-none-match') === etag) {
      file.destroy();
      res.status(304).end();
      return;
    }
    res.setHeader('Content-Length', String(size));
    if (req.method === 'HEAD') {
      file.destroy();
      res.status(200).end();
      return;
    }
    res.status(200);
    await pipeline(file, res);
    return;
  }
  res.setHeader('Content-Type', pulled.contentType);
  if (pulled.contentLength !== undefined) res.setHeader('Content-Length', String(pulled.contentLength));
  if (pulled.sha1) res.setHeader('X-Checksum-Sha1', pulled.sha1);
  if (pulled.md5) res.setHeader('X-Checksum-Md5', pulled.md5);
  res.status(200);
  if (req.method === 'HEAD') {
    // The file is still stored; only this caller's copy is dropped.
    pulled.body.destroy();
    res.end();
    return;
  }
  await pipeline(pulled.body, holdingLast(pulled.stored), res);
}
