import { Counter, Registry, collectDefaultMetrics } from 'prom-client';

/*
 * The process's own metrics, served by /-/metrics (http/metrics.ts) after each app's: Node's
 * (memory, CPU, event loop lag, garbage collection) and the counters that rooms below the HTTP
 * layer increase where things happen (a webhook delivery finishing). It lives at the bottom of
 * the house so that any room may count without importing upwards; what is read at scrape time
 * from the database (queue depths, pool use) is collected by the HTTP layer instead.
 */
export const processMetrics = new Registry();
collectDefaultMetrics({ register: processMetrics });

/** How a webhook delivery ended: the receiver answered 2xx, answered something else, or was not reached (timeout, refused, blocked). */
export type DeliveryResult = 'success' | 'http_error' | 'unreachable';

const deliveries = new Counter({
  name: 'gatehouse_webhook_deliveries_total',
  help: 'Webhook deliveries made by this process (queued, test and resent ones), by how they ended',
  labelNames: ['result'] as const,
  registers: [processMetrics],
});
// Present from the start, so that a rate over them has a zero to begin from.
for (const result of ['success', 'http_error', 'unreachable'] satisfies DeliveryResult[]) deliveries.labels(result).inc(0);

export function countDelivery(result: DeliveryResult): void {
  deliveries.labels(result).inc();
}
