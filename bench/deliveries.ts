/**
 * The "Webhook deliveries" section of `npm run bench`: deliveries per second from 100 hooks
 * to a local receiver, and the time from event to delivery (p50, p99), on SQLite and on
 * PostgreSQL, beside the receiver's own ceiling measured in the same run.
 *
 * Processes: the receiver (bench/receiver-child.ts, bare node:http) and Gatehouse
 * (bench/delivery-child.ts: loadConfig + startServer, its job workers inside, as in
 * production) each run in a child process; this process sets Gatehouse up through its API,
 * fires the events, and measures the receiver's ceiling with autocannon.
 *
 * Set-up, once per engine and worker count, on a fresh database: the administrator allows
 * local requests (PUT /application/settings), creates a chain of 4 nested groups and 100
 * group hooks spread evenly over the 4 levels (25 each), subscribed to subgroup events
 * only, each to its own receiver path /hook/<n>. An event is the creation of a subgroup of
 * the deepest group (POST /groups): it fires `subgroup_events` to the hooks of the parent
 * and every ancestor, so each event fans out to all 100 hooks (100 `hook_delivery` jobs
 * enqueued inside the request) — hooks on ancestors rather than 100 on one group, so the
 * inherited-hooks lookup is part of what is measured, and no group carries an unrealistic
 * number of hooks. The bench writes its clock into the subgroup's name
 * (`bench <phase> <seq> <epoch ms>`), which the payload carries as `name`; the receiver
 * subtracts it from the arrival time: event → delivery latency, corrected for the offset
 * between the two processes' clocks (measured by ping, min RTT).
 *
 * Phases, per engine and worker count:
 *   warm-up  2 events, not measured (JIT, the outbound connection pool).
 *   burst    BENCH_DELIVERY_EVENTS events fired back to back by BENCH_DELIVERY_FIRE_CONCURRENCY
 *            clients (each awaits its POST before the next; several, so that one slow POST
 *            does not cap the rate at which events arrive): the delivery pipeline's
 *            throughput. deliveries/s = deliveries received ÷ (last arrival − first event).
 *            Its latency is mostly the backlog draining, so it grows with the number of
 *            events.
 *   paced    (first worker count only, to keep the run short) events at a fixed rate, open
 *            loop, offering BENCH_DELIVERY_PACED_LOAD (default 50 %) of the burst's
 *            deliveries/s: the event → delivery latency of a pipeline that keeps up. At most
 *            BENCH_DELIVERY_PACED_EVENTS events, fewer (but at least 3) when they would take
 *            longer than BENCH_DELIVERY_PACED_SECONDS to fire: a slow engine's rate is low.
 * Each phase checks that every (event, hook) pair arrived exactly once and that no
 * Idempotency-Key repeats, and prints a warning line otherwise. Afterwards the `jobs` and
 * `web_hook_logs` rows are read back to split each delivery's time into its stages.
 *
 * Environment (besides BENCH_PG, BENCH_CONNECTIONS and BENCH_ONLY, see bench/run.ts):
 *   BENCH_DELIVERY_EVENTS           events of the burst phase (default 20, i.e. 2,000 deliveries)
 *   BENCH_DELIVERY_FIRE_CONCURRENCY clients firing the burst's events (default 4)
 *   BENCH_DELIVERY_PACED_EVENTS     events of the paced phase (default half the burst; 0: no paced phase)
 *   BENCH_DELIVERY_PACED_LOAD       paced offer as a fraction of the burst's deliveries/s (default 0.5)
 *   BENCH_DELIVERY_PACED_SECONDS    longest time the paced events may take to fire (default 8)
 *   BENCH_DELIVERY_HOOKS            hooks (default 100)
 *   BENCH_DELIVERY_WORKERS          comma-separated GATEHOUSE_WORKERS values (default 4,16)
 *   BENCH_DELIVERY_CEILING_SECONDS  seconds of the receiver's ceiling measurement (default 5, +1 warm-up)
 *   BENCH_DELIVERY_WAIT_SECONDS     how long to wait for the last deliveries after the last event (default 60)
 *   GATEHOUSE_HOOK_TIMEOUT_SECONDS  passed on to Gatehouse (default 10)
 */
import crypto from 'node:crypto';
import os from 'node:os';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import autocannon from 'autocannon';
import type { DeliveryChildReady } from './delivery-child.ts';
import type { ReceiverStats } from './receiver-child.ts';
import { cpuSeconds, envNumber, fmtInt, fmtMs, fmtRatio, percentile, postgresCpuSeconds, printAligned, startChild, withPgDatabase, withTempDir, type Child } from './lib.ts';

export const DELIVERIES_LABEL = 'webhook deliveries';

const HOOKS = Math.round(envNumber('BENCH_DELIVERY_HOOKS', 100, 1));
const LEVELS = 4;
const EVENTS = Math.round(envNumber('BENCH_DELIVERY_EVENTS', 20, 1));
const FIRE_CONCURRENCY = Math.round(envNumber('BENCH_DELIVERY_FIRE_CONCURRENCY', 4, 1));
const PACED_EVENTS = Math.round(envNumber('BENCH_DELIVERY_PACED_EVENTS', Math.ceil(EVENTS / 2), 0));
const PACED_LOAD = envNumber('BENCH_DELIVERY_PACED_LOAD', 0.5, 0.01);
const PACED_SECONDS = envNumber('BENCH_DELIVERY_PACED_SECONDS', 8, 1);
const PACED_MIN_EVENTS = 3;
const CEILING_SECONDS = envNumber('BENCH_DELIVERY_CEILING_SECONDS', 5, 1);
const WAIT_SECONDS = envNumber('BENCH_DELIVERY_WAIT_SECONDS', 60, 1);
const HOOK_TIMEOUT_SECONDS = process.env.GATEHOUSE_HOOK_TIMEOUT_SECONDS?.trim() || '10';
const WORKER_COUNTS = parseWorkers(process.env.BENCH_DELIVERY_WORKERS);
const WARMUP_EVENTS = 2;

const ROOT_TOKEN = `bench-root-${crypto.randomBytes(12).toString('hex')}`;
const SECRET_KEY = `bench-secret-${crypto.randomBytes(16).toString('hex')}`;

function parseWorkers(raw: string | undefined): number[] {
  const fallback = [4, 16];
  if (raw === undefined || raw.trim() === '') return fallback;
  const list = raw.split(',').map((s) => Number(s.trim()));
  if (list.length === 0 || list.some((n) => !Number.isInteger(n) || n < 1 || n > 64)) {
    console.error(`BENCH_DELIVERY_WORKERS=${JSON.stringify(raw)} is not a list of whole numbers 1–64; using ${fallback.join(',')}.`);
    return fallback;
  }
  return [...new Set(list)];
}

/** Epoch milliseconds with sub-ms resolution (the receiver uses the same clock). */
const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));
const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

// ---------------------------------------------------------------------------------------
// Results

export interface Ceiling {
  reqPerSec?: number;
  /** 2xx answers during the measured seconds. */
  requests?: number;
  p50?: number;
  p99?: number;
  errors?: number;
  error?: string;
}

/** p50 / p99 of one stage of the delivery path, in ms. */
interface Stage {
  p50: number;
  p99: number;
}

interface Breakdown {
  /** Event fired → job row written (the POST /groups request, up to this hook's insert). */
  enqueue: Stage;
  /** Job row written → outbound request started (waiting for a worker, claim, checks). */
  wait: Stage;
  /** The outbound POST (web_hook_logs.execution_duration). */
  http: Stage;
  /** Response → job marked done (the batch's completion: the log rows, the hooks' failure counts, the jobs' update in one transaction). */
  record: Stage;
  jobs: number;
  notDone: number;
  retried: number;
  non2xx: number;
  /** Jobs done without a web_hook_logs row (every delivery must be logged). */
  unlogged: number;
}

export interface PhaseResult {
  engine: 'sqlite' | 'postgres';
  /** Job workers per instance. */
  workers: number;
  /** Gatehouse instances on the one database, sharing its delivery queue (1 but in bench/proxy.ts). */
  instances: number;
  /** Deliveries received per sending instance (X-Service-Instance), in the instances' order. */
  perInstance?: number[];
  /** Deliveries that repeated an (event, hook) pair or an Idempotency-Key, counted at the receiver. */
  duplicates?: number;
  phase: string;
  events: number;
  /** Events whose POST /groups did not answer 201. */
  failedEvents: number;
  expected: number;
  received: number;
  deliveriesPerSec?: number;
  p50?: number;
  p99?: number;
  /** POST /groups round trip (the event itself, including the enqueueing), ms. */
  fireP50?: number;
  fireP99?: number;
  /** From the first event's POST to the last one's answer, s. */
  fireSeconds?: number;
  /** Offered deliveries/s (paced phase). */
  offered?: number;
  cpu?: CpuShares;
  breakdown?: Breakdown;
  warnings: string[];
  error?: string;
}

interface CpuShares {
  /** Share of one core over the phase. */
  gatehouse: number;
  /** CPU seconds over the phase: Gatehouse in all, and its main thread (the one the database and the API share). */
  gatehouseSeconds: number;
  mainThreadSeconds?: number;
  receiver: number;
  /** All postgres processes (PostgreSQL runs only). */
  postgres?: number;
  /** Every other process on the machine (this one included), share of one core. */
  other: number;
}

export interface DeliveryReport {
  ceiling: Ceiling;
  phases: PhaseResult[];
  /** POST /groups on a group without hooks (the event cost without enqueueing), per engine. */
  plainFire: Record<string, Stage | undefined>;
  connections: number;
  pgSkipped: boolean;
  seconds: number;
}

// ---------------------------------------------------------------------------------------
// CPU accounting from /proc (Linux); omitted elsewhere

function machineTimes(): { busy: number; total: number } {
  let busy = 0;
  let total = 0;
  for (const c of os.cpus()) {
    const t = c.times.user + c.times.nice + c.times.sys + c.times.irq + c.times.idle;
    total += t;
    busy += t - c.times.idle;
  }
  return { busy, total };
}

/** Sum over processes, undefined when one of them cannot be read. */
function sumOver(pids: number[], read: (pid: number) => number | undefined): number | undefined {
  let total = 0;
  for (const pid of pids) {
    const v = read(pid);
    if (v === undefined) return undefined;
    total += v;
  }
  return total;
}

/** CPU shares over a phase; with several Gatehouse instances, theirs summed (main thread: every instance's main thread). */
function cpuMeter(gatehousePids: number[], receiverPid: number, withPostgres: boolean) {
  const mainThread = () => sumOver(gatehousePids, (pid) => cpuSeconds(pid, pid));
  const gatehouseCpu = () => sumOver(gatehousePids, (pid) => cpuSeconds(pid));
  const start = { at: performance.now(), gh: gatehouseCpu(), main: mainThread(), rc: cpuSeconds(receiverPid), pg: withPostgres ? postgresCpuSeconds() : undefined, m: machineTimes() };
  const cores = os.cpus().length;
  return (): CpuShares | undefined => {
    const secs = (performance.now() - start.at) / 1000;
    const gh = gatehouseCpu();
    const rc = cpuSeconds(receiverPid);
    const pgs = withPostgres ? postgresCpuSeconds() : undefined;
    const m = machineTimes();
    if (gh === undefined || rc === undefined || start.gh === undefined || start.rc === undefined || secs <= 0) return undefined;
    const gatehouse = (gh - start.gh) / secs;
    const main = mainThread();
    const mainThreadSeconds = main !== undefined && start.main !== undefined ? main - start.main : undefined;
    const receiver = (rc - start.rc) / secs;
    const postgres = pgs !== undefined && start.pg !== undefined ? (pgs - start.pg) / secs : undefined;
    // os.cpus() times are per core; their busy share × cores = cores busy on the whole machine.
    const machineCores = m.total > start.m.total ? ((m.busy - start.m.busy) / (m.total - start.m.total)) * cores : NaN;
    return { gatehouse, gatehouseSeconds: gh - start.gh, mainThreadSeconds, receiver, postgres, other: Math.max(0, machineCores - gatehouse - receiver - (postgres ?? 0)) };
  };
}

// ---------------------------------------------------------------------------------------
// The receiver

interface Receiver {
  url: string;
  pid: number;
  /** Receiver clock minus this process's clock, ms. */
  offset: number;
}

async function getJson<T>(url: string, init?: RequestInit): Promise<T> {
  const res = await fetch(url, init);
  const text = await res.text();
  if (!res.ok) throw new Error(`${init?.method ?? 'GET'} ${url}: HTTP ${res.status} ${text.slice(0, 200)}`);
  return JSON.parse(text) as T;
}

/** Offset of the receiver's clock to ours, from the ping with the shortest round trip. */
async function clockOffset(url: string): Promise<number> {
  let best = { rtt: Infinity, offset: 0 };
  for (let i = 0; i < 15; i++) {
    const sent = now();
    const { now: theirs } = await getJson<{ now: number }>(`${url}/clock`);
    const back = now();
    if (back - sent < best.rtt) best = { rtt: back - sent, offset: theirs - (sent + back) / 2 };
  }
  return best.offset;
}

/** A body like a subgroup event's, with Gatehouse's headers, for the ceiling. */
function sampleDelivery(): { body: string; headers: Record<string, string> } {
  const t = new Date().toISOString();
  const body = JSON.stringify({
    created_at: t,
    updated_at: t,
    event_name: 'subgroup_create',
    name: `bench ceiling 1 ${now().toFixed(3)}`,
    path: 'ev-ceiling-1',
    full_path: 'bench-hooks/level-2/level-3/level-4/ev-ceiling-1',
    group_id: 1234,
    parent_group_id: 1233,
    parent_name: 'Level 4',
    parent_path: 'level-4',
    parent_full_path: 'bench-hooks/level-2/level-3/level-4',
  });
  return {
    body,
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': 'Gatehouse/0.1',
      'Idempotency-Key': crypto.randomUUID(),
      'X-Service-Event': 'Subgroup Hook',
      'X-Service-Webhook-UUID': crypto.randomUUID(),
      'X-Service-Instance': 'http://127.0.0.1:8080',
      'X-Service-Event-UUID': crypto.randomUUID(),
    },
  };
}

async function measureCeiling(receiver: Receiver, connections: number): Promise<Ceiling> {
  const { body, headers } = sampleDelivery();
  const run = async (seconds: number, record: boolean) => {
    const latencies: number[] = [];
    const instance = autocannon({ url: `${receiver.url}/ceiling`, method: 'POST', headers, body, connections, duration: seconds, timeout: 30 });
    if (record) {
      instance.on('response', (_client, statusCode, _bytes, responseTime) => {
        if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
      });
    }
    const result = await instance;
    return { result, latencies: latencies.sort((a, b) => a - b) };
  };
  try {
    await run(1, false);
    const { result, latencies } = await run(CEILING_SECONDS, true);
    await getJson(`${receiver.url}/reset`, { method: 'POST' });
    return {
      reqPerSec: result.requests.average,
      requests: result['2xx'],
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      errors: result.errors + result.timeouts + result.non2xx,
    };
  } catch (err) {
    return { error: errorText(err) };
  }
}

// ---------------------------------------------------------------------------------------
// Gatehouse set-up and events

function apiClient(baseUrl: string) {
  return async <T>(method: string, p: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${baseUrl}/api/v4${p}`, {
      method,
      headers: { 'PRIVATE-TOKEN': ROOT_TOKEN, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${p}: HTTP ${res.status} ${text.slice(0, 200)}`);
    return JSON.parse(text) as T;
  };
}

/** The group chain and its hooks; returns the deepest group's id (the parent of every event). */
async function setUp(baseUrl: string, receiverUrl: string): Promise<{ parentId: number; plainParentId: number }> {
  const api = apiClient(baseUrl);
  await api('PUT', '/application/settings', { allow_local_requests_from_web_hooks_and_services: true });
  const chain: number[] = [];
  for (let level = 1; level <= LEVELS; level++) {
    const g = await api<{ id: number }>('POST', '/groups', {
      name: level === 1 ? 'Bench hooks' : `Level ${level}`,
      path: level === 1 ? 'bench-hooks' : `level-${level}`,
      ...(level > 1 ? { parent_id: chain[level - 2] } : {}),
    });
    chain.push(g.id);
  }
  for (let i = 0; i < HOOKS; i++) {
    await api('POST', `/groups/${chain[i % LEVELS]}/hooks`, {
      url: `${receiverUrl}/hook/${i + 1}`,
      name: `bench hook ${i + 1}`,
      push_events: false,
      subgroup_events: true,
    });
  }
  // The same chain without hooks, for the cost of an event that enqueues nothing.
  const plain: number[] = [];
  for (let level = 1; level <= LEVELS; level++) {
    const g = await api<{ id: number }>('POST', '/groups', {
      name: level === 1 ? 'Bench no hooks' : `Plain ${level}`,
      path: level === 1 ? 'bench-no-hooks' : `plain-${level}`,
      ...(level > 1 ? { parent_id: plain[level - 2] } : {}),
    });
    plain.push(g.id);
  }
  return { parentId: chain[LEVELS - 1], plainParentId: plain[LEVELS - 1] };
}

interface Fired {
  t0: number;
  ms: number;
  ok: boolean;
  error?: string;
}

async function fireEvent(baseUrl: string, parentId: number, phase: string, seq: number): Promise<Fired> {
  const t0 = now();
  try {
    const res = await fetch(`${baseUrl}/api/v4/groups`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': ROOT_TOKEN, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: `bench ${phase} ${seq} ${t0.toFixed(3)}`, path: `ev-${phase}-${seq}`, parent_id: parentId }),
    });
    const text = await res.text();
    const ms = now() - t0;
    if (res.status !== 201) return { t0, ms, ok: false, error: `HTTP ${res.status} ${text.slice(0, 160)}` };
    return { t0, ms, ok: true };
  } catch (err) {
    return { t0, ms: now() - t0, ok: false, error: errorText(err) };
  }
}

async function waitForDeliveries(receiver: Receiver, count: number, timeoutMs: number): Promise<number> {
  const { count: got } = await getJson<{ count: number }>(`${receiver.url}/wait?count=${count}&timeoutMs=${Math.round(timeoutMs)}`);
  return got;
}

// ---------------------------------------------------------------------------------------
// One phase

interface PhaseContext {
  engine: 'sqlite' | 'postgres';
  workers: number;
  /** Events are fired at each in turn; their workers share the one delivery queue. */
  gatehouses: Child<DeliveryChildReady>[];
  receiver: Receiver;
  parentId: number;
}

/** Fires the phase's events (back to back, or at `intervalMs` open loop), waits for the deliveries, checks them. */
async function runPhase(ctx: PhaseContext, phase: string, label: string, events: number, opts: { intervalMs?: number; waitSeconds?: number } = {}): Promise<PhaseResult> {
  const { intervalMs, waitSeconds = WAIT_SECONDS } = opts;
  const result: PhaseResult = { engine: ctx.engine, workers: ctx.workers, instances: ctx.gatehouses.length, phase: label, events, failedEvents: 0, expected: 0, received: 0, warnings: [] };
  await getJson(`${ctx.receiver.url}/reset`, { method: 'POST' });
  const meter = cpuMeter(
    ctx.gatehouses.map((g) => g.pid),
    ctx.receiver.pid,
    ctx.engine === 'postgres',
  );
  const urlFor = (seq: number) => ctx.gatehouses[(seq - 1) % ctx.gatehouses.length].info.url;
  const fired: Fired[] = [];
  if (intervalMs === undefined) {
    let next = 1;
    const client = async () => {
      while (next <= events) {
        const seq = next++;
        fired.push(await fireEvent(urlFor(seq), ctx.parentId, phase, seq));
      }
    };
    await Promise.all(Array.from({ length: Math.min(FIRE_CONCURRENCY, events) }, client));
  } else {
    const start = now();
    const pending: Promise<Fired>[] = [];
    for (let seq = 1; seq <= events; seq++) {
      await sleep(start + (seq - 1) * intervalMs - now());
      pending.push(fireEvent(urlFor(seq), ctx.parentId, phase, seq));
    }
    fired.push(...(await Promise.all(pending)));
    result.offered = (1000 / intervalMs) * HOOKS;
  }
  const okEvents = fired.filter((f) => f.ok).length;
  result.failedEvents = events - okEvents;
  result.expected = okEvents * HOOKS;
  const firstEvent = fired.reduce((min, f) => Math.min(min, f.t0), Infinity);
  const lastFired = fired.reduce((max, f) => Math.max(max, f.t0 + f.ms), -Infinity);
  result.fireSeconds = (lastFired - firstEvent) / 1000;
  await waitForDeliveries(ctx.receiver, result.expected, Math.max(1000, lastFired + waitSeconds * 1000 - now()));
  result.cpu = meter();
  // Deliveries that arrive after the expected count (duplicates) are still counted: give them a moment.
  await sleep(200);
  const stats = await getJson<ReceiverStats>(`${ctx.receiver.url}/stats`);

  result.received = stats.deliveries;
  result.duplicates = stats.duplicatePairs + stats.duplicateKeys;
  result.perInstance = ctx.gatehouses.map((g) => stats.perInstance[g.info.url] ?? 0);
  if (stats.arrivals.length) {
    // A loop, not Math.max(...arrivals): a long run has more arrivals than a call has arguments.
    const lastArrival = stats.arrivals.reduce((max, t) => Math.max(max, t), -Infinity) - ctx.receiver.offset;
    result.deliveriesPerSec = stats.deliveries / ((lastArrival - firstEvent) / 1000);
  }
  const latencies = stats.rawLatencies.map((l) => l - ctx.receiver.offset).sort((a, b) => a - b);
  result.p50 = percentile(latencies, 50);
  result.p99 = percentile(latencies, 99);
  const fireMs = fired.map((f) => f.ms).sort((a, b) => a - b);
  result.fireP50 = percentile(fireMs, 50);
  result.fireP99 = percentile(fireMs, 99);

  // Correctness: every (event, hook) pair exactly once, no Idempotency-Key twice.
  const w = result.warnings;
  if (result.failedEvents) w.push(`${result.failedEvents} of ${events} events failed (${fired.find((f) => !f.ok)?.error})`);
  if (stats.deliveries !== result.expected) {
    w.push(`received ${fmtInt(stats.deliveries)} deliveries, expected ${fmtInt(result.expected)} (${okEvents} events × ${HOOKS} hooks) within ${waitSeconds} s of the last event`);
  }
  if (stats.duplicateKeys) w.push(`${stats.duplicateKeys} deliveries repeated an Idempotency-Key`);
  if (stats.duplicatePairs) w.push(`${stats.duplicatePairs} deliveries repeated an (event, hook) pair`);
  if (stats.missingKey) w.push(`${stats.missingKey} deliveries had no Idempotency-Key`);
  if (stats.unparsable) w.push(`${stats.unparsable} deliveries had no bench event name in their payload`);
  const short = Object.entries(stats.perEvent).filter(([, n]) => n < HOOKS);
  if (short.length) w.push(`${short.length} events reached fewer than ${HOOKS} hooks (e.g. ${short[0][0]}: ${short[0][1]})`);
  if (stats.hooks !== HOOKS && stats.deliveries > 0) w.push(`deliveries came for ${stats.hooks} distinct hooks, not ${HOOKS}`);
  return result;
}

// ---------------------------------------------------------------------------------------
// Where the time went, from the rows Gatehouse wrote

interface JobRowLite {
  payload: string;
  shared: string | null;
  state: string;
  attempts: number;
  created_at: string;
  updated_at: string;
}
interface LogRowLite {
  idempotency_key: string;
  created_at: string;
  execution_duration: number;
  response_status: string;
}

async function readRows(info: DeliveryChildReady, databaseUrl: string | undefined): Promise<{ jobs: JobRowLite[]; logs: LogRowLite[] }> {
  const jobsSql = `SELECT j.payload, p.payload AS shared, j.state, j.attempts, j.created_at, j.updated_at FROM jobs j LEFT JOIN job_payloads p ON p.id = j.shared_payload_id WHERE j.kind = 'hook_delivery'`;
  const logsSql = 'SELECT idempotency_key, created_at, execution_duration, response_status FROM web_hook_logs';
  if (databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const jobs = (await client.query<JobRowLite>(jobsSql)).rows;
      const logs = (await client.query<LogRowLite>(logsSql)).rows;
      return { jobs, logs };
    } finally {
      await client.end();
    }
  }
  const db = new SQLite(info.sqliteFile!, { readonly: true });
  try {
    return { jobs: db.prepare(jobsSql).all() as JobRowLite[], logs: db.prepare(logsSql).all() as LogRowLite[] };
  } finally {
    db.close();
  }
}

function breakdowns(rows: { jobs: JobRowLite[]; logs: LogRowLite[] }): Map<string, Breakdown> {
  const logByKey = new Map(rows.logs.map((l) => [l.idempotency_key, l]));
  const perPhase = new Map<string, { enqueue: number[]; wait: number[]; http: number[]; record: number[]; jobs: number; notDone: number; retried: number; non2xx: number; unlogged: number }>();
  for (const job of rows.jobs) {
    // The event is stored once for its hooks (job_payloads); the job holds its own key.
    const payload = JSON.parse(job.payload) as { idempotency_key: string };
    const event = JSON.parse(job.shared ?? '{}') as { data?: { name?: string } };
    const m = /^bench (\S+) \d+ (\d+(?:\.\d+)?)$/.exec(event.data?.name ?? '');
    if (!m) continue;
    let acc = perPhase.get(m[1]);
    if (!acc) perPhase.set(m[1], (acc = { enqueue: [], wait: [], http: [], record: [], jobs: 0, notDone: 0, retried: 0, non2xx: 0, unlogged: 0 }));
    acc.jobs++;
    if (job.state !== 'done') acc.notDone++;
    if (job.attempts > 1) acc.retried++;
    const log = logByKey.get(payload.idempotency_key);
    if (!log) {
      if (job.state === 'done') acc.unlogged++;
      continue;
    }
    if (!/^2\d\d$/.test(log.response_status)) acc.non2xx++;
    const t0 = Number(m[2]);
    const enqueued = Date.parse(job.created_at);
    const logged = Date.parse(log.created_at);
    const httpMs = Number(log.execution_duration) * 1000;
    acc.enqueue.push(enqueued - t0);
    acc.wait.push(logged - httpMs - enqueued);
    acc.http.push(httpMs);
    acc.record.push(Date.parse(job.updated_at) - logged);
  }
  const stage = (values: number[]): Stage => {
    values.sort((a, b) => a - b);
    return { p50: percentile(values, 50), p99: percentile(values, 99) };
  };
  const out = new Map<string, Breakdown>();
  for (const [phase, a] of perPhase) {
    out.set(phase, { enqueue: stage(a.enqueue), wait: stage(a.wait), http: stage(a.http), record: stage(a.record), jobs: a.jobs, notDone: a.notDone, retried: a.retried, non2xx: a.non2xx, unlogged: a.unlogged });
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// One engine and worker count

/** A Gatehouse instance for the deliveries, its job workers inside. */
const startDeliveryChild = (env: Record<string, string>, workers: number) =>
  startChild<DeliveryChildReady>(
    'delivery-child.ts',
    [],
    { ...env, BENCH_ROOT_TOKEN: ROOT_TOKEN, GATEHOUSE_WORKERS: String(workers), GATEHOUSE_HOOK_TIMEOUT_SECONDS: HOOK_TIMEOUT_SECONDS, GATEHOUSE_SECRET_KEY: SECRET_KEY },
    120_000,
  );

async function runConfig(
  engine: 'sqlite' | 'postgres',
  workers: number,
  env: Record<string, string>,
  receiver: Receiver,
  pacedFromBurst: boolean,
  report: DeliveryReport,
): Promise<PhaseResult[]> {
  const tag = `${engine}, ${workers} workers`;
  console.log(`\n  ${tag}: starting Gatehouse, creating ${LEVELS} nested groups and ${HOOKS} hooks…`);
  const gatehouse = await startDeliveryChild(env, workers);
  const results: PhaseResult[] = [];
  try {
    const setupStarted = now();
    const { parentId, plainParentId } = await setUp(gatehouse.info.url, receiver.url);
    console.log(`  ${tag}: set up in ${((now() - setupStarted) / 1000).toFixed(1)} s`);
    const ctx: PhaseContext = { engine, workers, gatehouses: [gatehouse], receiver, parentId };

    // Warm-up (and the cost of an event on a group without hooks, once per engine).
    const warm = await runPhase(ctx, 'warmup', 'warm-up', WARMUP_EVENTS, { waitSeconds: 15 });
    if (warm.received === 0) throw new Error(`no delivery arrived during the warm-up${warm.warnings.length ? `: ${warm.warnings.join('; ')}` : ''}`);
    for (const w of warm.warnings) console.log(`  WARNING [${tag}, warm-up] ${w}`);
    if (!(engine in report.plainFire)) {
      const plain: number[] = [];
      for (let seq = 1; seq <= 10; seq++) {
        const f = await fireEvent(gatehouse.info.url, plainParentId, 'plain', seq);
        if (f.ok) plain.push(f.ms);
      }
      plain.sort((a, b) => a - b);
      report.plainFire[engine] = plain.length ? { p50: percentile(plain, 50), p99: percentile(plain, 99) } : undefined;
    }

    const burst = await runPhase(ctx, 'burst', 'burst', EVENTS);
    results.push(burst);
    console.log(`  ${tag}: burst ${fmtInt(burst.received)} deliveries at ${fmtInt(burst.deliveriesPerSec)}/s`);
    if (pacedFromBurst && PACED_EVENTS > 0) {
      if (burst.deliveriesPerSec && burst.received > 0) {
        const eventsPerSec = (PACED_LOAD * burst.deliveriesPerSec) / HOOKS;
        const events = Math.min(PACED_EVENTS, Math.max(PACED_MIN_EVENTS, Math.floor(PACED_SECONDS * eventsPerSec) + 1));
        const paced = await runPhase(ctx, 'paced', `paced ${Math.round(PACED_LOAD * 100)}%`, events, { intervalMs: 1000 / eventsPerSec });
        results.push(paced);
        console.log(`  ${tag}: paced ${fmtInt(paced.received)} deliveries, offered ${fmtInt(paced.offered)}/s, p50 ${fmtMs(paced.p50)} ms`);
      } else {
        console.log(`  ${tag}: paced phase skipped (the burst delivered nothing)`);
      }
    }
  } finally {
    await gatehouse.stop();
  }
  try {
    const by = breakdowns(await readRows(gatehouse.info, env.DATABASE_URL));
    for (const r of results) {
      r.breakdown = by.get(r.phase.split(' ')[0]);
      if (r.breakdown?.unlogged) r.warnings.push(`${fmtInt(r.breakdown.unlogged)} jobs were done without a web_hook_logs row`);
    }
  } catch (err) {
    for (const r of results) r.warnings.push(`could not read the jobs and web_hook_logs rows: ${errorText(err)}`);
  }
  return results;
}

/** Every configuration, on a fresh database each; a failure is recorded and the next one runs. */
export async function runDeliveries(opts: { pgAdmin?: string; connections: number }): Promise<DeliveryReport> {
  const started = now();
  const report: DeliveryReport = { ceiling: {}, phases: [], plainFire: {}, connections: opts.connections, pgSkipped: !opts.pgAdmin, seconds: 0 };
  console.log(
    `\nWebhook deliveries: ${HOOKS} hooks over ${LEVELS} nested groups, ${EVENTS} events (burst)` +
      `${PACED_EVENTS ? ` + ${PACED_EVENTS} (paced at ${Math.round(PACED_LOAD * 100)}% of the burst rate, ${WORKER_COUNTS[0]} workers)` : ''}` +
      ` × ${HOOKS} deliveries, workers ${WORKER_COUNTS.join(' and ')}; receiver: bare node:http in its own process`,
  );
  const child = await startChild<{ url: string }>('receiver-child.ts', [], {}, 60_000);
  try {
    const receiver: Receiver = { url: child.info.url, pid: child.pid, offset: await clockOffset(child.info.url) };
    console.log(`  receiver at ${receiver.url}; its clock is ${receiver.offset.toFixed(3)} ms ahead of ours (corrected)`);
    report.ceiling = await measureCeiling(receiver, opts.connections);
    console.log(`  receiver ceiling: ${fmtInt(report.ceiling.reqPerSec)} req/s${report.ceiling.error ? ` ERROR ${report.ceiling.error}` : ''}`);

    const engines: { engine: 'sqlite' | 'postgres'; run: (fn: (env: Record<string, string>) => Promise<PhaseResult[]>) => Promise<PhaseResult[]> }[] = [
      { engine: 'sqlite', run: (fn) => withTempDir((dir) => fn({ BENCH_DATA_DIR: dir })) },
    ];
    if (opts.pgAdmin) {
      const admin = opts.pgAdmin;
      engines.push({ engine: 'postgres', run: (fn) => withTempDir((dir) => withPgDatabase(admin, (url) => fn({ BENCH_DATA_DIR: dir, DATABASE_URL: url }))) });
    }
    for (const { engine, run } of engines) {
      for (const [i, workers] of WORKER_COUNTS.entries()) {
        try {
          report.phases.push(...(await run((env) => runConfig(engine, workers, env, receiver, i === 0, report))));
        } catch (err) {
          console.log(`  ${engine}, ${workers} workers: ERROR ${errorText(err)}`);
          report.phases.push({ engine, workers, instances: 1, phase: 'burst', events: EVENTS, failedEvents: 0, expected: 0, received: 0, warnings: [], error: errorText(err) });
        }
      }
    }
  } finally {
    await child.stop();
  }
  report.seconds = (now() - started) / 1000;
  return report;
}

// ---------------------------------------------------------------------------------------
// Two instances sharing one delivery queue (bench/proxy.ts)

export interface SharedQueueReport {
  /** Burst phases, alternately with one instance and with two, `rounds` of each. */
  phases: PhaseResult[];
  workers: number;
  events: number;
  hooks: number;
  seconds: number;
  error?: string;
}

/**
 * Deliveries per second with one instance's workers and with two instances' on one PostgreSQL
 * database (their own data directories, one shared repositories directory), one delivery queue,
 * to the receiver on 127.0.0.1. On one database set up once through instance A: a warm-up, then
 * `rounds` times a burst with A alone and a burst with A and B (B started for it, warmed up, and
 * stopped after), events fired at each instance in turn. The receiver counts every (event, hook)
 * pair and Idempotency-Key: a delivery done twice is reported as a duplicate, and which instance
 * sent each delivery (X-Service-Instance) shows both workers took part.
 */
export async function runSharedQueue(opts: { pgAdmin: string; workers: number; rounds: number }): Promise<SharedQueueReport> {
  const started = now();
  const report: SharedQueueReport = { phases: [], workers: opts.workers, events: EVENTS, hooks: HOOKS, seconds: 0 };
  const receiverChild = await startChild<{ url: string }>('receiver-child.ts', [], {}, 60_000);
  try {
    const receiver: Receiver = { url: receiverChild.info.url, pid: receiverChild.pid, offset: await clockOffset(receiverChild.info.url) };
    await withTempDir((dir) =>
      withPgDatabase(opts.pgAdmin, async (url) => {
        const shared = { DATABASE_URL: url, GATEHOUSE_REPOSITORIES_DIR: `${dir}/repositories` };
        const a = await startDeliveryChild({ ...shared, BENCH_DATA_DIR: `${dir}/a` }, opts.workers);
        try {
          const { parentId } = await setUp(a.info.url, receiver.url);
          const ctx = (gatehouses: Child<DeliveryChildReady>[]): PhaseContext => ({ engine: 'postgres', workers: opts.workers, gatehouses, receiver, parentId });
          const warm = await runPhase(ctx([a]), 'warmup-a', 'warm-up', WARMUP_EVENTS, { waitSeconds: 15 });
          if (warm.received === 0) throw new Error(`no delivery arrived during the warm-up${warm.warnings.length ? `: ${warm.warnings.join('; ')}` : ''}`);
          for (let round = 1; round <= opts.rounds; round++) {
            const one = await runPhase(ctx([a]), `one-${round}`, 'burst', EVENTS);
            report.phases.push(one);
            console.log(`  round ${round}, one instance: ${fmtInt(one.received)} deliveries at ${fmtInt(one.deliveriesPerSec)}/s, ${one.duplicates ?? 0} duplicates`);
            const b = await startDeliveryChild({ ...shared, BENCH_DATA_DIR: `${dir}/b` }, opts.workers);
            try {
              await runPhase(ctx([a, b]), `warmup-b${round}`, 'warm-up', WARMUP_EVENTS, { waitSeconds: 15 });
              const two = await runPhase(ctx([a, b]), `two-${round}`, 'burst', EVENTS);
              report.phases.push(two);
              console.log(
                `  round ${round}, two instances: ${fmtInt(two.received)} deliveries at ${fmtInt(two.deliveriesPerSec)}/s (A sent ${fmtInt(two.perInstance?.[0])}, B ${fmtInt(two.perInstance?.[1])}), ${two.duplicates ?? 0} duplicates`,
              );
            } finally {
              await b.stop();
            }
          }
        } finally {
          await a.stop();
        }
      }),
    );
  } catch (err) {
    report.error = errorText(err);
  } finally {
    await receiverChild.stop();
  }
  report.seconds = (now() - started) / 1000;
  return report;
}

// ---------------------------------------------------------------------------------------
// Report

const pct = (share: number | undefined) => (share === undefined || Number.isNaN(share) ? '-' : `${Math.round(share * 100)}%`);
const stageText = (s: Stage | undefined) => (s ? `${fmtMs(s.p50)} / ${fmtMs(s.p99)}` : '-');

/** CPU milliseconds per delivery: unlike deliveries/s, barely moved by other processes sharing the cores. */
const perDelivery = (seconds: number | undefined, deliveries: number) => (seconds === undefined || !deliveries ? '-' : ((seconds * 1000) / deliveries).toFixed(3));

export function printDeliveries(report: DeliveryReport): void {
  console.log('\nWebhook deliveries');
  console.log(
    `  ${HOOKS} hooks over ${LEVELS} nested groups, every event (a subgroup created under the deepest) delivered to all ${HOOKS}; ` +
      `latency = arrival at the receiver − the client's clock just before POST /groups; deliveries/s = received ÷ (last arrival − first event)\n`,
  );
  const c = report.ceiling;
  const header = ['engine', 'workers', 'phase', 'events', 'fired in s', 'delivered', 'deliveries/s', 'p50 ms', 'p99 ms', 'POST p50 ms', 'Gatehouse CPU', 'CPU ms/delivery', 'main thread', 'receiver CPU', 'postgres CPU', 'other CPU', 'check'];
  const cells: string[][] = [
    [
      'receiver',
      '-',
      `ceiling (autocannon, ${report.connections} conn.)`,
      '-',
      '-',
      c.requests === undefined ? 'ERROR' : fmtInt(c.requests),
      c.reqPerSec === undefined ? 'ERROR' : fmtInt(c.reqPerSec),
      fmtMs(c.p50),
      fmtMs(c.p99),
      '-',
      '-',
      '-',
      '-',
      '-',
      '-',
      '-',
      c.error ? 'ERROR' : c.errors ? `${c.errors} errors` : 'ok',
    ],
  ];
  for (const r of report.phases) {
    cells.push(
      r.error
        ? [r.engine, String(r.workers), r.phase, String(r.events), '-', 'ERROR', '-', '-', '-', '-', '-', '-', '-', '-', '-', '-', 'ERROR']
        : [
            r.engine,
            String(r.workers),
            r.phase,
            String(r.events),
            r.fireSeconds === undefined ? '-' : r.fireSeconds.toFixed(1),
            `${fmtInt(r.received)}/${fmtInt(r.expected)}`,
            fmtInt(r.deliveriesPerSec),
            fmtMs(r.p50),
            fmtMs(r.p99),
            fmtMs(r.fireP50),
            pct(r.cpu?.gatehouse),
            perDelivery(r.cpu?.gatehouseSeconds, r.received),
            perDelivery(r.cpu?.mainThreadSeconds, r.received),
            pct(r.cpu?.receiver),
            pct(r.cpu?.postgres),
            pct(r.cpu?.other),
            r.warnings.length ? 'WARNING' : 'ok',
          ],
    );
  }
  printAligned(header, cells, new Set([1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]));
  console.log(
    `\n  CPU: share of one core over the phase, from /proc: Gatehouse, the receiver, all postgres processes, and every other process on the ` +
      `machine (this client included; much more than a few % means something else competed with the bench on these ${os.cpus().length} cores). ` +
      `CPU ms/delivery: Gatehouse's CPU time per delivery, all its threads and its main thread alone (the database, the API and the jobs share it; ` +
      `outbound requests run on a thread of their own); these hold when other processes compete, where deliveries/s does not. ` +
      `POST p50: the event's own request (creating the subgroup and enqueueing ${HOOKS} jobs)` +
      Object.entries(report.plainFire)
        .map(([engine, s]) => (s ? `; on a group without hooks ${fmtMs(s.p50)} ms (${engine})` : ''))
        .join('') +
      '.',
  );

  const busiest = report.phases.reduce((max, r) => Math.max(max, r.cpu?.other ?? 0), 0);
  if (busiest > 0.25) {
    console.log(
      `  NOTE: processes outside the bench used up to ${pct(busiest)} of a core during a phase: they competed with Gatehouse, the receiver ` +
        'and the database for the CPU, so treat these figures as noisy and rerun on a quiet machine before comparing runs.',
    );
  }

  const problems = report.phases.filter((r) => r.error || r.warnings.length);
  if (c.error) console.log(`\nERROR receiver ceiling: ${c.error}`);
  for (const r of problems) {
    const where = `[${r.engine}, ${r.workers} workers, ${r.phase}]`;
    if (r.error) console.log(`ERROR ${where} ${r.error}`);
    for (const w of r.warnings) console.log(`WARNING ${where} ${w}`);
  }

  const withBreakdown = report.phases.filter((r) => r.breakdown);
  if (withBreakdown.length) {
    console.log('\nWhere a delivery\'s time goes (from the jobs and web_hook_logs rows; p50 / p99 ms, timestamps at 1 ms resolution)\n');
    printAligned(
      ['engine', 'workers', 'phase', 'fire → job row', 'job row → POST starts', 'POST to receiver', 'response → job done', 'jobs', 'retried', 'not done', 'non-2xx'],
      withBreakdown.map((r) => {
        const b = r.breakdown!;
        return [r.engine, String(r.workers), r.phase, stageText(b.enqueue), stageText(b.wait), stageText(b.http), stageText(b.record), fmtInt(b.jobs), String(b.retried), String(b.notDone), String(b.non2xx)];
      }),
      new Set([1, 3, 4, 5, 6, 7, 8, 9, 10]),
    );
  }

  console.log(`\nRatios (deliveries/s ÷ the receiver's ceiling of ${fmtInt(c.reqPerSec)} req/s, measured in this run; higher is faster)`);
  for (const r of report.phases) {
    if (r.deliveriesPerSec === undefined || !c.reqPerSec) continue;
    const what = r.phase === 'burst' ? 'delivers at' : `was offered ${fmtRatio((r.offered ?? 0) / c.reqPerSec)}× and delivered at`;
    console.log(`  [${r.engine}, ${r.workers} workers, ${r.phase}] Gatehouse ${what} ${fmtRatio(r.deliveriesPerSec / c.reqPerSec)}× the receiver's ceiling`);
  }
  const burst = (engine: string, workers: number) => report.phases.find((r) => r.engine === engine && r.workers === workers && r.phase === 'burst' && r.deliveriesPerSec);
  const engines = [...new Set(report.phases.map((r) => r.engine))];
  const workerCounts = [...new Set(report.phases.map((r) => r.workers))];
  if (workerCounts.length > 1) {
    for (const engine of engines) {
      const base = burst(engine, workerCounts[0]);
      for (const w of workerCounts.slice(1)) {
        const other = burst(engine, w);
        if (base && other) console.log(`  [${engine}] ${w} workers deliver ${fmtRatio(other.deliveriesPerSec! / base.deliveriesPerSec!)}× as fast as ${workerCounts[0]}`);
      }
    }
  }
  if (engines.includes('postgres')) {
    for (const w of workerCounts) {
      const s = burst('sqlite', w);
      const p = burst('postgres', w);
      if (s && p) console.log(`  [${w} workers] PostgreSQL delivers ${fmtRatio(p.deliveriesPerSec! / s.deliveriesPerSec!)}× as fast as SQLite`);
    }
  } else if (report.pgSkipped) {
    console.log('\n  PostgreSQL: skipped (set BENCH_PG to also run the deliveries on a throwaway database).');
  }
  console.log(`\n  The webhook-delivery section took ${report.seconds.toFixed(0)} s.`);
}
