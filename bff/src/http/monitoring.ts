import net from 'node:net';
import { Router, type RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { unknownRoute } from './errors.ts';
import type { AppMetrics } from './metrics.ts';
import { readiness, type ReadinessCheck } from './readiness.ts';

/**
 * The platform's monitoring endpoints, outside the API and without authentication, for load
 * balancers, orchestrators and Prometheus:
 * - `GET /-/health`: `GitLab OK` (the platform's exact words, which probes are configured to
 *   expect) while the process serves; nothing else is looked at;
 * - `GET /-/liveness`: `{"status":"ok"}` while the process can answer;
 * - `GET /-/readiness`: 200 when every check passes, 503 naming the failing ones, so that a load
 *   balancer takes this instance out. The platform checks its dependencies only with `?all=1`;
 *   here every check is of something this instance needs to serve (its database, its workers,
 *   its storage), so all of them run either way and `all=1` is accepted;
 * - `GET /-/metrics`: Prometheus's text format (http/metrics.ts).
 * As on the platform (`monitoring.ip_whitelist`), only callers whose connection comes from an
 * address of GATEHOUSE_MONITORING_ALLOWLIST get them; anyone else gets the 404 of a path that
 * does not exist. The connection's address is the one judged: no forwarded header is trusted
 * (Gatehouse has no trusted-proxy setting), so behind a proxy, allow the proxy's address.
 */
export function monitoringRouter(deps: { config: Config; logger: Logger; checks: ReadinessCheck[]; metrics: AppMetrics }): Router {
  const allowed = allowlist(deps.config.monitoringAllowlist);
  const guard: RequestHandler = (req, res, next) => {
    if (!allowed(req.socket.remoteAddress)) return unknownRoute(req, res, next);
    // Answers about this moment: never kept by a cache.
    res.setHeader('Cache-Control', 'no-store');
    next();
  };
  const router = Router();
  router.get('/-/health', guard, (_req, res) => {
    res.type('text/plain').send('GitLab OK');
  });
  router.get('/-/liveness', guard, (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/-/readiness', guard, async (_req, res) => {
    const { ok, body } = await readiness(deps.checks, deps.logger);
    res.status(ok ? 200 : 503).json(body);
  });
  router.get('/-/metrics', guard, async (_req, res) => {
    const { contentType, text } = await deps.metrics.scrape();
    res.setHeader('Content-Type', contentType);
    res.send(text);
  });
  // Nothing else under /-/ is a page of the console: it must not get index.html.
  router.use('/-', unknownRoute);
  return router;
}

/** Whether an address is in one of the ranges (`address/prefix`); an IPv4 address written as IPv6 (`::ffff:10.0.0.1`) counts as IPv4. */
export function allowlist(ranges: string[]): (address: string | undefined) => boolean {
  const list = new net.BlockList();
  for (const range of ranges) {
    const [address, prefix] = range.split('/');
    list.addSubnet(address, Number(prefix), net.isIPv4(address) ? 'ipv4' : 'ipv6');
  }
  return (address) => {
    if (!address) return false;
    const family = net.isIP(address);
    return family !== 0 && list.check(address, family === 4 ? 'ipv4' : 'ipv6');
  };
}
