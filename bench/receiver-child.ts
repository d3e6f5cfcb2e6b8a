/**
 * The webhook receiver of bench/deliveries.ts, in its own process (`node --import tsx
 * bench/receiver-child.ts`): a bare `node:http` server on 127.0.0.1 that answers every POST
 * with 200 and a small JSON body as soon as the request body has arrived.
 *
 *   POST /hook/<n>   a delivery from Gatehouse: its arrival time (taken when the request's
 *                    headers arrive) is recorded against the event time the bench wrote into
 *                    the subgroup's name (`bench <phase> <seq> <epoch ms>`), which comes back
 *                    as the payload's `name`; the Idempotency-Key and the (event, hook) pair
 *                    are checked for duplicates; deliveries are counted by their
 *                    X-Service-Instance header (the sending instance's address).
 *   POST /ceiling    the same work (read, JSON.parse, bookkeeping, answer) on a separate
 *                    counter, for the receiver's own ceiling measured with autocannon.
 *   GET  /clock      this process's clock, for the parent to measure the offset to its own.
 *   GET  /wait?count=N&timeoutMs=T
 *                    answers once N deliveries have arrived (or after T ms) with the count.
 *   GET  /stats      everything recorded since the last reset (latencies, arrival times,
 *                    duplicates, hooks and events seen).
 *   POST /reset      forgets the deliveries.
 *
 * Times are `performance.timeOrigin + performance.now()`: epoch milliseconds with sub-ms
 * resolution, like the parent's; the parent corrects for the offset between the two clocks.
 * It reports `@@bench {"url": ...}` on stdout once it listens and stops on SIGTERM or when
 * its stdin closes.
 */
import http from 'node:http';

const now = () => performance.timeOrigin + performance.now();

export interface ReceiverStats {
  deliveries: number;
  /** Arrival times (receiver clock, epoch ms), in arrival order. */
  arrivals: number[];
  /** Arrival minus the event time found in the payload's name (receiver clock minus parent clock). */
  rawLatencies: number[];
  /** Deliveries per event name (`bench <phase> <seq>`). */
  perEvent: Record<string, number>;
  /** Deliveries per X-Service-Instance (which instance's worker sent them). */
  perInstance: Record<string, number>;
  /** Distinct hook paths that delivered at least once. */
  hooks: number;
  duplicateKeys: number;
  duplicatePairs: number;
  missingKey: number;
  /** Bodies that were not JSON or had no `name` in the bench's format. */
  unparsable: number;
  ceilingRequests: number;
}

class Growable {
  data = new Float64Array(1 << 14);
  length = 0;
  push(v: number) {
    if (this.length === this.data.length) {
      const grown = new Float64Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = v;
  }
  toArray(): number[] {
    return Array.from(this.data.subarray(0, this.length));
  }
}

let arrivals = new Growable();
let rawLatencies = new Growable();
let keys = new Set<string>();
let pairs = new Set<string>();
let hooks = new Set<string>();
let perEvent = new Map<string, number>();
let perInstance = new Map<string, number>();
let duplicateKeys = 0;
let duplicatePairs = 0;
let missingKey = 0;
let unparsable = 0;
let ceilingRequests = 0;
let waiters: { count: number; resolve: () => void }[] = [];

const NAME = /^bench (\S+) (\d+) (\d+(?:\.\d+)?)$/;
const OK_BODY = '{"ok":true}';
const OK_HEADERS = { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(OK_BODY)) };

function recordDelivery(arrived: number, hookPath: string, key: string | undefined, instance: string, body: string): void {
  arrivals.push(arrived);
  perInstance.set(instance, (perInstance.get(instance) ?? 0) + 1);
  hooks.add(hookPath);
  if (key === undefined) missingKey++;
  else if (keys.has(key)) duplicateKeys++;
  else keys.add(key);
  let name: unknown;
  try {
    name = (JSON.parse(body) as { name?: unknown }).name;
  } catch {
    name = undefined;
  }
  const m = typeof name === 'string' ? NAME.exec(name) : null;
  if (!m) {
    unparsable++;
  } else {
    rawLatencies.push(arrived - Number(m[3]));
    const event = `bench ${m[1]} ${m[2]}`;
    perEvent.set(event, (perEvent.get(event) ?? 0) + 1);
    const pair = `${event}|${hookPath}`;
    if (pairs.has(pair)) duplicatePairs++;
    else pairs.add(pair);
  }
  if (waiters.length) {
    const n = arrivals.length;
    const due = waiters.filter((w) => n >= w.count);
    if (due.length) {
      waiters = waiters.filter((w) => n < w.count);
      for (const w of due) w.resolve();
    }
  }
}

function recordCeiling(body: string): void {
  // The same parsing work as a delivery, so that the ceiling is the ceiling of this handler.
  try {
    JSON.parse(body);
  } catch {
    unparsable++;
  }
  ceilingRequests++;
}

function reset(): void {
  arrivals = new Growable();
  rawLatencies = new Growable();
  keys = new Set();
  pairs = new Set();
  hooks = new Set();
  perEvent = new Map();
  perInstance = new Map();
  duplicateKeys = duplicatePairs = missingKey = unparsable = ceilingRequests = 0;
}

function stats(): ReceiverStats {
  return {
    deliveries: arrivals.length,
    arrivals: arrivals.toArray(),
    rawLatencies: rawLatencies.toArray(),
    perEvent: Object.fromEntries(perEvent),
    perInstance: Object.fromEntries(perInstance),
    hooks: hooks.size,
    duplicateKeys,
    duplicatePairs,
    missingKey,
    unparsable,
    ceilingRequests,
  };
}

function sendJson(res: http.ServerResponse, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

const server = http.createServer((req, res) => {
  const arrived = now();
  const url = req.url ?? '/';
  if (req.method === 'POST' && (url.startsWith('/hook/') || url === '/ceiling')) {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8');
      if (url === '/ceiling') recordCeiling(body);
      else recordDelivery(arrived, url, req.headers['idempotency-key'] as string | undefined, String(req.headers['x-service-instance'] ?? '-'), body);
      res.writeHead(200, OK_HEADERS).end(OK_BODY);
    });
    return;
  }
  if (req.method === 'GET' && url === '/clock') return sendJson(res, { now: now() });
  if (req.method === 'GET' && url === '/stats') return sendJson(res, stats());
  if (req.method === 'POST' && url === '/reset') {
    reset();
    return sendJson(res, { ok: true });
  }
  if (req.method === 'GET' && url.startsWith('/wait')) {
    const q = new URL(url, 'http://x').searchParams;
    const count = Number(q.get('count') ?? 0);
    const timeoutMs = Number(q.get('timeoutMs') ?? 60_000);
    if (arrivals.length >= count) return sendJson(res, { count: arrivals.length });
    const waiter = { count, resolve: () => undefined as void };
    const timer = setTimeout(() => {
      waiters = waiters.filter((w) => w !== waiter);
      sendJson(res, { count: arrivals.length });
    }, timeoutMs);
    waiter.resolve = () => {
      clearTimeout(timer);
      sendJson(res, { count: arrivals.length });
    };
    waiters.push(waiter);
    return;
  }
  res.writeHead(404).end();
});
// Same keep-alive setting as the Gatehouse server (bff/src/server.ts); longer than the
// outbound agent's 4 s, so Gatehouse never sends on a connection the receiver just closed.
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`@@bench ${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
});

const shutdown = () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
process.stdin.on('end', shutdown);
process.stdin.resume();
