import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { poolUse, type Db } from '../db/index.ts';
import { queueDepths } from '../queue/admin.ts';
import { processMetrics } from '../util/metrics.ts';
import { GIT_PATH } from './smart-http.ts';

/*
 * The metrics of one app, served by /-/metrics in Prometheus's text format: requests by route
 * pattern, the job queue and the database pool (read when scraped), then the process's own
 * (util/metrics.ts: Node's, webhook deliveries). Route labels are patterns, never paths: one
 * series per declared route (`/api/v4/projects/:id`), method and status class, whatever the ids
 * asked, and the few Express mounts likewise; a path that matched nothing is `<unmatched>`.
 */

const ROUTE = Symbol('route pattern');
const MOUNT = Symbol('mount pattern');
const TRACKED = Symbol('tracked');
type Labelled = Request & { [ROUTE]?: string; [MOUNT]?: string; [TRACKED]?: true };

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'];

/** The declared route that serves a request (the declared routes' tree found it): its label. */
export function setRoutePattern(req: Request, pattern: string): void {
  (req as Labelled)[ROUTE] = pattern;
}

/** Marks the requests of an Express mount, so that its routes are labelled `<mount pattern><route path>`. */
export function mountPattern(pattern: string): RequestHandler {
  return (req, _res, next) => {
    (req as Labelled)[MOUNT] = pattern;
    next();
  };
}

/** The label of a request that Express served: its route's pattern, its mount's (files, fallbacks), git's three URLs, or `<unmatched>`. */
function expressRoute(req: Labelled): string {
  const route = (req as { route?: { path?: unknown } }).route;
  if (route && typeof route.path === 'string') return (req[MOUNT] ?? '') + route.path;
  if (req[MOUNT] !== undefined) return `${req[MOUNT]}/*`;
  const url = req.originalUrl ?? req.url ?? '';
  const q = url.indexOf('?');
  const git = GIT_PATH.exec(q < 0 ? url : url.slice(0, q));
  return git ? `/:full_path.git/${git[2]}` : '<unmatched>';
}

/** A scrape does not wait longer than this for the queue's figures (a database that does not answer). */
const QUEUE_READ_TIMEOUT_MS = 2_000;
function withinQueueReadTime<T>(read: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${QUEUE_READ_TIMEOUT_MS} ms`)), QUEUE_READ_TIMEOUT_MS);
  });
  return Promise.race([read, late]).finally(() => clearTimeout(timer));
}

export interface AppMetrics {
  /** Called as a request starts: times it and counts it when it ends. */
  track(req: Request, res: Response): void;
  /** The text a Prometheus scrape reads. */
  scrape(): Promise<{ contentType: string; text: string }>;
}

export function appMetrics(db: Db, logger: Logger): AppMetrics {
  const registry = new Registry();
  const requests = new Counter({
    name: 'gatehouse_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status class',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'gatehouse_http_request_duration_seconds',
    help: 'Time from a request’s arrival to the end of its answer, by method, route pattern and status class',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const jobs = new Gauge({ name: 'gatehouse_jobs', help: 'Jobs in the queue by kind and state (pending, running, failed), read when scraped', labelNames: ['kind', 'state'] as const, registers: [registry] });
  const oldest = new Gauge({
    name: 'gatehouse_jobs_oldest_age_seconds',
    help: 'Age of the oldest job by kind and state: since it became due (pending, running) or gave up (failed)',
    labelNames: ['kind', 'state'] as const,
    registers: [registry],
  });
  const pool = poolUse(db)
    ? {
        total: new Gauge({ name: 'gatehouse_db_pool_connections', help: 'Connections the PostgreSQL pool holds open', registers: [registry] }),
        idle: new Gauge({ name: 'gatehouse_db_pool_idle_connections', help: 'Of them, idle ones', registers: [registry] }),
        waiting: new Gauge({ name: 'gatehouse_db_pool_waiting_clients', help: 'Queries waiting for a connection', registers: [registry] }),
        max: new Gauge({ name: 'gatehouse_db_pool_max_connections', help: 'The most connections the pool opens', registers: [registry] }),
      }
    : undefined;

  // One pair of children per label set, found once: a request pays a map lookup, not the labels' hashing.
  type Series = { count: Counter.Internal; time: Histogram.Internal<'method' | 'route' | 'status'> };
  const series = new Map<string, Series>();
  const seriesOf = (method: string, route: string, status: string): Series => {
    const key = `${method} ${status} ${route}`;
    let s = series.get(key);
    if (!s) series.set(key, (s = { count: requests.labels(method, route, status), time: durations.labels(method, route, status) }));
    return s;
  };

  return {
    track(req, res) {
      // Once per request, though a declared route that passes it on meets the prelude again in Express.
      if ((req as Labelled)[TRACKED]) return;
      (req as Labelled)[TRACKED] = true;
      const started = performance.now();
      res.once('close', () => {
        const method = METHODS.has(req.method) ? req.method : 'other';
        const status = STATUS_CLASSES[Math.floor(res.statusCode / 100) - 1] ?? 'other';
        const s = seriesOf(method, (req as Labelled)[ROUTE] ?? expressRoute(req), status);
        s.count.inc();
        s.time.observe((performance.now() - started) / 1000);
      });
    },
    async scrape() {
      jobs.reset();
      oldest.reset();
      try {
        for (const d of await withinQueueReadTime(queueDepths(db))) {
          jobs.labels(d.kind, d.state).set(d.jobs);
          oldest.labels(d.kind, d.state).set(d.oldestAgeSeconds);
        }
      } catch (err) {
        // The rest is still worth reading; /-/readiness says what is wrong with the database.
        logger.warn({ err }, 'metrics: the job queue could not be read');
      }
      const use = poolUse(db);
      if (pool && use) {
        pool.total.set(use.total);
        pool.idle.set(use.idle);
        pool.waiting.set(use.waiting);
        pool.max.set(use.max);
      }
      const text = (await registry.metrics()) + (await processMetrics.metrics());
      return { contentType: registry.contentType, text };
    },
  };
}
