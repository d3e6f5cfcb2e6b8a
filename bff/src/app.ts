import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import { parseForm, parseQuery } from './http/query-string.ts';
import express, { Router } from 'express';
import helmet from 'helmet';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import type { Logger } from 'pino';
import { tableChangesOf, type Db } from './db/index.ts';
import type { Config } from './config.ts';
import type { Vault } from './auth/vault.ts';
import type { FileStore } from './files/index.ts';
import { apiRoutes, routes } from './api/index.ts';
import { openApiDocument } from './api/openapi.ts';
import { sessionRouter } from './api/session.ts';
import { gitHttp } from './http/smart-http.ts';
import { registryAuth } from './http/registry-auth.ts';
import { discoveryKeys } from './api/code-suggestions.ts';
import { virtualRegistryDownloads } from './http/virtual-registries.ts';
import { scimRouter } from './api/scim.ts';
import { MOUNTS, rejectNul, toHandler, urlPathOf } from './http/route.ts';
import { ApiError, renderErrors, unknownRoute, unsupportedMediaType } from './http/errors.ts';
import { badRequest } from './util/errors.ts';
import { staticAssets } from './http/static-assets.ts';
import { appMetrics, mountPattern, setRoutePattern } from './http/metrics.ts';
import { monitoringRouter } from './http/monitoring.ts';
import { databaseCheck, type ReadinessCheck } from './http/readiness.ts';

const BODY_TYPES = ['application/json', 'application/*+json', 'application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'];

export const MAX_URL_LENGTH = 3_500;
/** The largest JSON or form body a declared route takes. */
export const BODY_LIMIT = '4mb';

const hasBody = (req: express.Request) => req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

/** Query parameters that carry a credential, by their decoded name (`private%5Ftoken` is `private_token`). */
const CREDENTIAL_PARAMS = new Set(['private_token', 'access_token', 'job_token', 'feed_token', 'token', 'password', 'client_secret', 'refresh_token', 'code']);

function decodedName(raw: string): string {
  let name = raw.replace(/\+/g, ' ');
  // Decoded until it no longer changes, so no spelling of a name slips through.
  for (let i = 0; i < 4; i++) {
    try {
      const next = decodeURIComponent(name);
      if (next === name) break;
      name = next;
    } catch {
      break;
    }
  }
  return name.trim().toLowerCase().replace(/\[.*$/, '');
}

/** The URL as logged: every credential parameter's value replaced, whatever the spelling of its name. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const pairs = url
    .slice(q + 1)
    .split(/([&;])/)
    .map((part) => {
      const eq = part.indexOf('=');
      return eq > 0 && CREDENTIAL_PARAMS.has(decodedName(part.slice(0, eq))) ? `${part.slice(0, eq)}=[REDACTED]` : part;
    });
  return url.slice(0, q + 1) + pairs.join('');
}

export interface AppDeps {
  db: Db;
  config: Config;
  vault: Vault;
  files: FileStore;
  logger: Logger;
  /** Folder of the built SPA; the console is served from it when present. */
  webDist?: string;
  /** What /-/readiness checks (made in server.ts); the database alone when not given. */
  readinessChecks?: ReadinessCheck[];
}

/**
 * The declared routes (the API under /api/v4, the console's own under /api/console), served
 * straight from node's request event: one radix tree (find-my-way), looked up once per
 * request; body parsing only when a body came. Express would instead walk its router (the
 * prelude, git, then a mounted router's parsers and each of the hundred route layers), which
 * costs a small request as much as all of its own work; a declared route gets Express's
 * request and response (their prototypes, as Express's own init sets them) and nothing else.
 * Matching is as Express's: case-insensitive, a trailing slash ignored, HEAD answered by the
 * GET route, parameters percent-decoded (`acme%2Fplatform` is one parameter); a path that
 * cannot be decoded matches no route. Everything that matches no declaration goes to the
 * Express app: an unknown path under /api/v4 answers the platform's JSON 404 there, one under
 * /api/console goes on to the session router.
 */
function declaredRoutes(app: express.Express, deps: AppDeps, prelude: (req: express.Request, res: express.Response) => void): http.RequestListener {
  const tree = FindMyWay({ caseSensitive: false, ignoreTrailingSlash: true, maxParamLength: MAX_URL_LENGTH });
  // The console's answers are the signed-in user's own: never stored by a cache.
  const noStore = (handler: express.RequestHandler): express.RequestHandler => (req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    return handler(req, res, next);
  };
  const table = [
    ...routes.map((route) => ({
      method: route.method,
      path: urlPathOf(route),
      handler: route.mount === 'console' ? noStore(toHandler(route, deps)) : toHandler(route, deps),
      raw: route.rawBody === true,
    })),
    {
      method: 'get' as const,
      path: `${MOUNTS.api}/openapi.json`,
      handler: ((req, res) => {
        res.json(openApiDocument(apiRoutes, deps.config.externalUrl ?? `${req.protocol}://${req.get('host')}`));
      }) as express.RequestHandler,
      raw: false,
    },
  ];
  // Each path is stored with its handler: the pattern labels the request's metrics.
  for (const { method, path: routePath, handler, raw } of table) tree.on(method.toUpperCase() as HTTPMethod, routePath, () => undefined, { handler, pattern: routePath, raw });
  // Room for the platform's longest fields (descriptions of 1,048,576 characters, JSON-escaped),
  // so they are judged by their schemas' limits (a 400 naming the field), not refused whole.
  const json = express.json({ limit: BODY_LIMIT, type: ['application/json', 'application/*+json'] });
  // Form fields are read as the query is (http/query-string.ts: qs, with Rack's rule for arrays of hashes).
  const formText = express.text({ type: 'application/x-www-form-urlencoded', limit: BODY_LIMIT });
  const urlencoded = (req: express.Request, res: express.Response, then: (err?: unknown) => void) =>
    formText(req, res, (err) => {
      if (err || typeof req.body !== 'string') return then(err);
      const fields = parseForm(req.body);
      if (!fields) return then(new ApiError(413, { message: '413 too many parameters' }));
      req.body = fields;
      then();
    });

  const parseBody = (req: express.Request, res: express.Response, then: (err?: unknown) => void) => {
    // Multipart is parsed by the routes that take an upload (after authentication); a body of
    // any other type is refused rather than silently ignored. text/plain is ignored, as on the platform.
    if (req.get('content-type') && !req.is(BODY_TYPES)) {
      return then(unsupportedMediaType(`the body's type ${req.get('content-type')} is not supported; send JSON (application/json), form fields or multipart/form-data`));
    }
    json(req, res, (err) => (err ? then(err) : urlencoded(req, res, then)));
  };
  return (rawReq, rawRes) => {
    const url = rawReq.url ?? '/';
    const q = url.indexOf('?');
    // Repeated slashes count as one, as the platform's front (nginx, merge_slashes) has them:
    // python-gitlab sets a feature flag at /features//<name>.
    const asked = q < 0 ? url : url.slice(0, q);
    const pathname = asked.includes('//') ? asked.replace(/\/{2,}/g, '/') : asked;
    const found = isUnder(pathname, MOUNTS.api) || isUnder(pathname, MOUNTS.console) ? tree.find((rawReq.method === 'HEAD' ? 'GET' : rawReq.method) as HTTPMethod, pathname) : null;
    if (!found) return app(rawReq, rawRes);
    // What Express's own init does for every request, and its router for the first layer.
    // The server made them with Express's prototypes already (see createServer).
    const req = rawReq as express.Request;
    const res = rawRes as express.Response;
    req.res = res;
    res.req = req;
    res.locals = Object.create(null) as Record<string, unknown>;
    req.originalUrl = url;
    req.baseUrl = '';
    const { handler: handle, pattern, raw } = found.store as { handler: express.RequestHandler; pattern: string; raw: boolean };
    setRoutePattern(req, pattern);
    // A handler ends the response or passes an error; a response already started is cut short, as Express does.
    const next = (err?: unknown) => {
      if (err === undefined || err === 'route' || err === 'router') return app(rawReq, rawRes);
      if (res.headersSent) return void req.socket.destroy();
      renderErrors(err, req, res, () => undefined);
    };
    try {
      prelude(req, res);
    } catch (err) {
      return next(err);
    }
    req.params = found.params as Record<string, string>;
    const run = () => Promise.resolve(handle(req, res, next)).catch(next);
    if (raw || !hasBody(req)) return void run();
    parseBody(req, res, (err) => (err ? next(err) : void run()));
  };
}

/** Whether a path is `prefix` or below it, compared as Express mounts compare (case-insensitively). */
const isUnder = (p: string, prefix: string) =>
  p.length >= prefix.length && p.slice(0, prefix.length).toLowerCase() === prefix && (p.length === prefix.length || p[prefix.length] === '/');

/**
 * JSON answers carry exactly `Content-Type: application/json`, as the platform's do: Express
 * would append `; charset=utf-8`, and some clients (python-gitlab) compare the whole header.
 */
function sendJson(this: express.Response, body: unknown): express.Response {
  const text = (Array.isArray(body) && typeof body[0] === 'object' && body[0] !== null && Object.isFrozen(body[0]) ? listJson(body) : JSON.stringify(body)) ?? 'null';
  if (!this.getHeader('Content-Type')) this.setHeader('Content-Type', 'application/json');
  // Sent as one string: node writes the head and a string body in one write (a Buffer body
  // would be a second chunk); there is no ETag to compare, and node sends no body to HEAD.
  this.setHeader('Content-Length', Buffer.byteLength(text));
  this.end(text);
  return this;
}

/**
 * A list whose items are frozen (presented once from a kept read's rows, see
 * api/groups.ts): each such item's JSON is written once and reused by every answer that shows
 * it; an item that is not frozen is written as JSON.stringify would write it in the array.
 */
function listJson(items: unknown[]): string {
  let text = '[';
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (i > 0) text += ',';
    if (item !== null && typeof item === 'object' && Object.isFrozen(item)) {
      let json = frozenJson.get(item);
      if (json === undefined) frozenJson.set(item, (json = JSON.stringify(item) ?? 'null'));
      text += json;
    } else {
      text += JSON.stringify(item) ?? 'null';
    }
  }
  return text + ']';
}
const frozenJson = new WeakMap<object, string>();

declare module 'http' {
  interface IncomingMessage {
    /** Set first of all: the caller's X-Request-Id when well-formed, or a new UUID. */
    id: string;
    /** The request's logger (its ID, method and redacted URL bound), made on first use. */
    readonly log: Logger;
  }
}

/**
 * One line per request, when it ends: its ID (also sent back as X-Request-Id), method, URL
 * with credential values redacted, status and duration; never headers, which carry
 * credentials. `req.log` (the logger with the request bound) is made on first use and the
 * line only where its level is logged, so a quiet logger costs a request little but its ID.
 */
function requestLog(app: express.Express, logger: Logger): (req: express.Request, res: express.Response) => void {
  const fields = (req: express.Request) => ({ id: req.id, method: req.method, url: redactUrl(req.originalUrl) });
  const requestLogger = Symbol('request logger');
  Object.defineProperty(app.request, 'log', {
    get(this: express.Request & { [requestLogger]?: Logger }) {
      return (this[requestLogger] ??= logger.child({ req: fields(this) }));
    },
  });
  return (req, res) => {
    const given = req.headers['x-request-id'];
    req.id = typeof given === 'string' && /^[\w.-]{1,64}$/.test(given) ? given : crypto.randomUUID();
    res.setHeader('X-Request-Id', req.id);
    if (logger.isLevelEnabled('error')) {
      const started = performance.now();
      // 'close' follows 'finish', and also comes when the client went away first.
      res.once('close', () => {
        const level = res.statusCode >= 500 ? 'error' : 'info';
        if (!logger.isLevelEnabled(level)) return;
        const line = { req: fields(req), res: { statusCode: res.statusCode }, responseTime: Math.round(performance.now() - started) };
        logger[level](line, level === 'error' ? 'request errored' : 'request completed');
      });
    }
  };
}

/**
 * The security headers every response carries, as helmet sets them with this configuration,
 * computed once: they do not depend on the request, so the response gets them as one list
 * instead of through helmet's twelve middlewares.
 */
function securityHeaders(config: Config): [string, string][] {
  const headers = new Map<string, string>();
  const recorder = {
    setHeader: (name: string, value: string) => headers.set(name, String(value)),
    removeHeader: (name: string) => headers.delete(name),
  };
  helmet({
    contentSecurityPolicy: {
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:'],
        'connect-src': ["'self'"],
        // Served over plain HTTP on a LAN address too: do not force https for assets.
        'upgrade-insecure-requests': null,
      },
    },
    strictTransportSecurity: config.externalUrl?.startsWith('https://') ?? false,
    crossOriginEmbedderPolicy: false,
  })({} as never, recorder as never, () => {});
  return [...headers];
}

/**
 * Express 5 parses the query string again at every read of `req.query`, and a request reads
 * it several times (the token, the NUL check, the query schema, the body, the page links):
 * parsed once per request instead. Nothing writes to the parsed object.
 */
function cacheQuery(app: express.Express): void {
  const parse = Object.getOwnPropertyDescriptor(express.request, 'query')!.get!;
  const parsed = Symbol('parsed query');
  Object.defineProperty(app.request, 'query', {
    configurable: true,
    enumerable: true,
    get(this: express.Request & { [parsed]?: unknown }) {
      return (this[parsed] ??= parse.call(this));
    },
  });
}

/**
 * The HTTP server. Its requests and responses are made with Express's prototypes (node builds
 * them from these classes), instead of having them swapped in per request as Express does: a
 * prototype change costs V8 more than all the rest of a small request's routing.
 */
export function createServer(deps: AppDeps): http.Server {
  const app = express();
  class Request extends http.IncomingMessage {}
  Object.setPrototypeOf(Request.prototype, app.request);
  class Response extends http.ServerResponse {}
  Object.setPrototypeOf(Response.prototype, app.response);
  return http.createServer({ IncomingMessage: Request, ServerResponse: Response as typeof http.ServerResponse }, createApp(app, deps));
}

/** The server's request listener: the declared routes directly, everything else through Express. */
function createApp(app: express.Express, deps: AppDeps): http.RequestListener {
  app.response.json = sendJson;
  app.disable('x-powered-by');
  // qs's reading (Express's "extended" parser), brackets and all; plain pairs read faster.
  app.set('query parser', parseQuery);
  cacheQuery(app);
  app.set('etag', false);
  // req.ip and req.protocol from the forwarded headers, only of a request from a trusted proxy.
  app.set('trust proxy', deps.config.trustedProxies.length ? deps.config.trustedProxies : false);

  // What every request gets first, in one step: its ID and log line, the security headers, and
  // the URL checks. A NUL in the path or query (percent-encoded; the HTTP parser refuses a raw
  // one) reaches no router. A URL is bounded so that the four copies of it in a list's Link
  // header stay within what HTTP clients read (16 KB of headers).
  const log = requestLog(app, deps.logger);
  const metrics = appMetrics(deps.db, deps.logger);
  const security = securityHeaders(deps.config);
  // The reads this process keeps are checked against the database's changes anew for each request (db/table-changes.ts).
  const changes = tableChangesOf(deps.db);
  const prelude = (req: express.Request, res: express.Response) => {
    changes?.requestStarted();
    log(req, res);
    metrics.track(req, res);
    for (const [name, value] of security) res.setHeader(name, value);
    if (req.url.length > MAX_URL_LENGTH) throw new ApiError(414, { message: `414 URI Too Long - keep the path and query under ${MAX_URL_LENGTH} characters` });
    if (/%00/i.test(req.url)) throw badRequest('400 Bad request - parameters must not contain NUL characters');
  };
  app.use((req, res, next) => {
    prelude(req, res);
    next();
  });
  // Git over HTTP at the platform's URL shape, <full path>.git/…: bodies stream to git.
  app.use(gitHttp(deps));
  // The container registry's token service, at the platform's path (the registry's realm).
  app.use(registryAuth(deps));
  app.use(virtualRegistryDownloads(deps));
  // The installation's public signing key (JWKS), at the platform's path: AI gateways verify its tokens with it.
  app.use(discoveryKeys(deps));
  // /-/health, /-/liveness, /-/readiness, /-/metrics, for the monitoring allowlist only.
  const checks = deps.readinessChecks ?? [{ name: 'db', run: () => databaseCheck(deps.db, deps.logger) }];
  app.use(monitoringRouter({ config: deps.config, logger: deps.logger, checks, metrics }));
  // What reaches Express under the API matched no declaration.
  app.use(MOUNTS.api, unknownRoute);
  app.use('/api/console', mountPattern('/api/console'), express.json({ limit: '16kb' }), (req, _res, next) => {
    rejectNul(req.body);
    next();
  }, sessionRouter(deps.db, deps.config));
  app.use('/api/scim/v2/groups/:group_path', mountPattern('/api/scim/v2/groups/:group_path'), scimRouter(deps.db, deps.config.externalUrl));
  app.use('/api/docs', mountPattern('/api/docs'), apiDocs());
  app.use('/api', unknownRoute);

  const dist = deps.webDist;
  if (dist && fs.existsSync(path.join(dist, 'index.html'))) {
    app.use(staticAssets(dist));
  } else {
    app.get('/', (_req, res) => {
      res.type('text').send('The console is not built: run `npm run build` (npm start does it for you).');
    });
  }
  app.use(unknownRoute);
  app.use(renderErrors);
  return declaredRoutes(app, deps, prelude);
}

/** A readable view of /api/v4/openapi.json, rendered by Swagger UI. */
function apiDocs(): Router {
  const router = Router();
  const require = createRequire(import.meta.url);
  const swaggerDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  router.get('/', (_req, res) => {
    res.type('html').send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Gatehouse API</title>
<link rel="stylesheet" href="/api/docs/swagger-ui.css"></head>
<body><div id="swagger-ui"></div>
<script src="/api/docs/swagger-ui-bundle.js"></script>
<script src="/api/docs/init.js"></script></body></html>`);
  });
  router.get('/init.js', (_req, res) => {
    res.type('js').send(`window.ui = SwaggerUIBundle({ url: '/api/v4/openapi.json', dom_id: '#swagger-ui', deepLinking: true });`);
  });
  router.use(express.static(swaggerDir, { index: false }));
  return router;
}
