/**
 * The "two instances" section of `npm run bench` (issue 27): the read path through the proxy
 * with one and with two Gatehouse instances, and webhook deliveries with one and with two
 * instances' workers, on one PostgreSQL database.
 *
 * Run only this section: `BENCH_PG=postgresql:///postgres?host=/var/run/postgresql
 * BENCH_ONLY=proxy npm run bench` (its label is "instances proxy": BENCH_ONLY=instances works too).
 *
 * Read path. Instance A (bench/server-child.ts) seeds the read benches' data set (1,000
 * subgroups × 10 projects, a 20-project group…) into a throwaway PostgreSQL database; instance B
 * joins the same database without seeding (BENCH_SEED=0), with a data directory of its own and
 * the same repositories directory and secret key, as the README's "Several instances" runs them.
 * Two nginx processes run the repository's deploy/nginx.conf (rendered by bff/test/nginx.ts,
 * as bff/test/proxy.test.ts does): one with A alone as its upstream, one with A and B. Each
 * target — GET /user, GET /groups/:id of the 20-project group, GET /groups?per_page=20 as
 * administrator — is measured with autocannon (in this process) straight to A, through the
 * one-instance proxy and through the two-instance proxy, BENCH_PROXY_ROUNDS rounds in turn
 * (the figures are each one's median). CPU per request is read from /proc: the Gatehouse
 * processes serving (A, or A and B), the PostgreSQL backends of the bench database, and nginx
 * (master and worker); their sum ÷ requests. On a machine with few cores, two instances cannot
 * do more than one when the cores are already busy (client, nginx, PostgreSQL and the servers
 * share them): the figures are printed as measured, never judged.
 *
 * Deliveries. bench/deliveries.ts's runSharedQueue: 100 hooks on a chain of groups, bursts of
 * BENCH_DELIVERY_EVENTS events × 100 deliveries to a bare node:http receiver on 127.0.0.1, with
 * instance A's workers alone and with A's and B's (one database, one queue), alternately,
 * BENCH_PROXY_DELIVERY_ROUNDS rounds; the receiver counts duplicates (a delivery done twice)
 * and which instance sent each delivery.
 *
 * Skipped, with the reason printed, without BENCH_PG (both parts) or without nginx (the read
 * path); it never fails the run.
 *
 * Environment (besides BENCH_PG, BENCH_SECONDS, BENCH_WARMUP_SECONDS, BENCH_CONNECTIONS and
 * BENCH_ONLY, see bench/run.ts, and BENCH_DELIVERY_EVENTS, BENCH_DELIVERY_HOOKS, see
 * bench/deliveries.ts):
 *   BENCH_PROXY_ROUNDS           rounds of the read targets (default 3)
 *   BENCH_PROXY_DELIVERY_ROUNDS  rounds of the delivery bursts, one and two instances each (default 3)
 *   BENCH_PROXY_WORKERS          GATEHOUSE_WORKERS of each instance in the delivery part (default 4)
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChildReady } from './server-child.ts';
import { runSharedQueue, type SharedQueueReport } from './deliveries.ts';
import { autocannonLoad } from './load.ts';
import { cpuSeconds, envNumber, fmtInt, fmtMs, fmtRatio, formatBytes, percentile, postgresCpuByPid, postgresCpuDelta, printAligned, registerCleanup, startChild, withPgDatabase, withTempDir, type Child } from './lib.ts';
import { NGINX, startNginx, type Nginx } from '../bff/test/nginx.ts';

export const PROXY_LABEL = 'instances proxy';

const ROUNDS = Math.round(envNumber('BENCH_PROXY_ROUNDS', 3, 1));
const DELIVERY_ROUNDS = Math.round(envNumber('BENCH_PROXY_DELIVERY_ROUNDS', 3, 1));
const WORKERS = Math.round(envNumber('BENCH_PROXY_WORKERS', 4, 1));

const ROOT_TOKEN = `bench-root-${crypto.randomBytes(12).toString('hex')}`;
const SECRET_KEY = `bench-secret-${crypto.randomBytes(16).toString('hex')}`;

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

// ---------------------------------------------------------------------------------------
// Results

/** CPU seconds so far, by part (PostgreSQL's by backend); undefined without /proc. */
interface CpuParts {
  gatehouse: number;
  /** Each Gatehouse process's. */
  instances: number[];
  postgres: Map<number, number>;
  nginx: number;
}

interface Setup {
  /** "direct to A", "nginx → A", "nginx → A + B". */
  label: string;
  instances: number;
  proxied: boolean;
  url: string;
  cpu: () => CpuParts | undefined;
}

interface Target {
  label: string;
  path: string;
  check: (body: unknown) => string;
}

export interface ProxyRow {
  target: string;
  setup: string;
  instances: number;
  proxied: boolean;
  bodyBytes?: number;
  reqPerSec?: number;
  p50?: number;
  p99?: number;
  /** CPU µs per request: all parts, and each. */
  cpuUs?: number;
  gatehouseUs?: number;
  postgresUs?: number;
  nginxUs?: number;
  /** With two instances: the second's share of the Gatehouse CPU (both served, if well above 0). */
  secondShare?: number;
  errors?: number;
  non2xx?: number;
  /** 1-minute load average after the measurement. */
  load?: number;
  error?: string;
}

export interface ProxyReport {
  seconds: number;
  /** Why the read path was not measured. */
  readsSkipped?: string;
  readsError?: string;
  rows: ProxyRow[];
  /** Lines of nginx's error logs (warnings and errors) while the read path was measured. */
  nginxLog: string[];
  seedSeconds?: number;
  dataSet?: string;
  deliveries?: SharedQueueReport;
  deliveriesSkipped?: string;
  measureSeconds: number;
  warmupSeconds: number;
  connections: number;
}

// ---------------------------------------------------------------------------------------
// CPU from /proc

/** The process and its direct children (nginx: the master and its workers). */
function withChildrenCpu(pid: number): number | undefined {
  let total = cpuSeconds(pid);
  if (total === undefined) return undefined;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) total += cpuSeconds(Number(entry)) ?? 0;
    } catch {
      // The process ended meanwhile.
    }
  }
  return total;
}

function cpuClock(gatehousePids: number[], database: string, nginx: Nginx | undefined): () => CpuParts | undefined {
  return () => {
    const instances: number[] = [];
    for (const pid of gatehousePids) {
      const s = cpuSeconds(pid);
      if (s === undefined) return undefined;
      instances.push(s);
    }
    const gatehouse = instances.reduce((a, b) => a + b, 0);
    const postgres = postgresCpuByPid(database);
    const ngx = nginx ? withChildrenCpu(nginx.child.pid!) : 0;
    if (postgres === undefined || ngx === undefined) return undefined;
    return { gatehouse, instances, postgres, nginx: ngx };
  };
}

// ---------------------------------------------------------------------------------------
// Measuring

function targets(info: ChildReady): Target[] {
  return [
    {
      label: 'GET /user',
      path: '/api/v4/user',
      check: (body) => {
        if ((body as { username?: string }).username !== 'root') throw new Error('expected the root user');
        return 'the root user';
      },
    },
    {
      label: 'GET /groups/:id (20 projects)',
      path: `/api/v4/groups/${info.twentyId}`,
      check: (body) => {
        const projects = (body as { projects?: unknown[] }).projects;
        if (!Array.isArray(projects) || projects.length !== 20) throw new Error(`expected 20 projects, got ${Array.isArray(projects) ? projects.length : 'none'}`);
        return '20 projects';
      },
    },
    {
      label: 'GET /groups?per_page=20 (admin)',
      path: '/api/v4/groups?per_page=20',
      check: (body) => {
        if (!Array.isArray(body) || body.length !== 20) throw new Error(`expected 20 groups, got ${Array.isArray(body) ? body.length : 'no array'}`);
        return '20 groups';
      },
    },
  ];
}

async function measure(setup: Setup, target: Target, opts: { seconds: number; warmup: number; connections: number; quiet: boolean }): Promise<ProxyRow> {
  const row: ProxyRow = { target: target.label, setup: setup.label, instances: setup.instances, proxied: setup.proxied };
  const url = setup.url + target.path;
  const headers = { 'PRIVATE-TOKEN': ROOT_TOKEN };
  try {
    const res = await fetch(url, { headers });
    const text = await res.text();
    row.bodyBytes = Buffer.byteLength(text);
    if (res.status !== 200) {
      row.error = `sanity check: HTTP ${res.status} ${text.slice(0, 160)}`;
      return row;
    }
    const note = target.check(JSON.parse(text));
    if (!opts.quiet) console.log(`  ${setup.label.padEnd(14)} ${target.label}: 200, ${formatBytes(row.bodyBytes)}, ${note}`);
  } catch (err) {
    row.error = `sanity check failed: ${errorText(err)}`;
    return row;
  }
  if (opts.warmup > 0) await autocannonLoad(url, headers, opts.warmup, false, opts.connections);
  const before = setup.cpu();
  const { result, sorted } = await autocannonLoad(url, headers, opts.seconds, true, opts.connections);
  const after = setup.cpu();
  const served = result.requests.total;
  if (before && after && served > 0) {
    const us = (a: number, b: number) => ((b - a) / served) * 1e6;
    row.gatehouseUs = us(before.gatehouse, after.gatehouse);
    row.postgresUs = us(0, postgresCpuDelta(before.postgres, after.postgres));
    row.nginxUs = us(before.nginx, after.nginx);
    row.cpuUs = row.gatehouseUs + row.postgresUs + row.nginxUs;
    if (after.instances.length > 1 && after.gatehouse > before.gatehouse) row.secondShare = (after.instances[1] - before.instances[1]) / (after.gatehouse - before.gatehouse);
  }
  row.reqPerSec = result.requests.average;
  row.p50 = percentile(sorted, 50);
  row.p99 = percentile(sorted, 99);
  row.errors = result.errors + result.timeouts;
  row.non2xx = result.non2xx;
  row.load = os.loadavg()[0];
  if (row.non2xx > 0) row.error = `${row.non2xx} non-2xx responses during the run`;
  return row;
}

const median = (values: (number | undefined)[]): number | undefined => {
  const known = values.filter((v): v is number => v !== undefined).sort((a, b) => a - b);
  return known.length ? known[Math.floor((known.length - 1) / 2)] : undefined;
};

function medianRow(rounds: ProxyRow[]): ProxyRow {
  const m = (pick: (r: ProxyRow) => number | undefined) => median(rounds.map(pick));
  return {
    ...rounds[0],
    reqPerSec: m((r) => r.reqPerSec),
    p50: m((r) => r.p50),
    p99: m((r) => r.p99),
    cpuUs: m((r) => r.cpuUs),
    gatehouseUs: m((r) => r.gatehouseUs),
    postgresUs: m((r) => r.postgresUs),
    nginxUs: m((r) => r.nginxUs),
    secondShare: m((r) => r.secondShare),
    errors: rounds.reduce((n, r) => n + (r.errors ?? 0), 0),
    non2xx: rounds.reduce((n, r) => n + (r.non2xx ?? 0), 0),
    load: Math.max(...rounds.map((r) => r.load ?? 0)),
    error: rounds.find((r) => r.error)?.error,
  };
}

/** A and B on one database, the two proxies, every target in every set-up, round after round. */
async function runReads(pgAdmin: string, report: ProxyReport): Promise<void> {
  await withTempDir((dir) =>
    withPgDatabase(pgAdmin, async (databaseUrl) => {
      const database = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
      const shared = { DATABASE_URL: databaseUrl, GATEHOUSE_REPOSITORIES_DIR: path.join(dir, 'repositories'), GATEHOUSE_SECRET_KEY: SECRET_KEY, BENCH_ROOT_TOKEN: ROOT_TOKEN };
      const children: Child<ChildReady>[] = [];
      const proxies: Nginx[] = [];
      const stopAll = registerCleanup(async () => {
        for (const p of proxies) await p.stop();
        for (const c of children) await c.stop();
      });
      try {
        console.log('  instance A: starting and seeding 1,000 subgroups × 10 projects (+ a 100-project and a 20-project group) on PostgreSQL…');
        const a = await startChild<ChildReady>('server-child.ts', [], { ...shared, BENCH_DATA_DIR: path.join(dir, 'a') }, 900_000);
        children.push(a);
        report.seedSeconds = a.info.seedMs / 1000;
        report.dataSet = `${a.info.groups.toLocaleString('en')} groups, ${a.info.projects.toLocaleString('en')} projects`;
        console.log(`  seeded ${report.dataSet} in ${report.seedSeconds.toFixed(1)} s; instance B joining the same database (BENCH_SEED=0)…`);
        const b = await startChild<ChildReady>('server-child.ts', [], { ...shared, BENCH_DATA_DIR: path.join(dir, 'b'), BENCH_SEED: '0' }, 120_000);
        children.push(b);
        if (b.info.twentyId !== a.info.twentyId) throw new Error(`instance B found the 20-project group as ${b.info.twentyId}, A seeded it as ${a.info.twentyId}`);
        const ready = async (url: string) => (await fetch(`${url}/api/v4/user`, { headers: { 'PRIVATE-TOKEN': ROOT_TOKEN } })).status === 200;
        const one = await startNginx([a.info.url], ready);
        proxies.push(one);
        const two = await startNginx([a.info.url, b.info.url], ready);
        proxies.push(two);
        const setups: Setup[] = [
          { label: 'direct to A', instances: 1, proxied: false, url: a.info.url, cpu: cpuClock([a.pid], database, undefined) },
          { label: 'nginx → A', instances: 1, proxied: true, url: one.url, cpu: cpuClock([a.pid], database, one) },
          { label: 'nginx → A + B', instances: 2, proxied: true, url: two.url, cpu: cpuClock([a.pid, b.pid], database, two) },
        ];
        const opts = { seconds: report.measureSeconds, warmup: report.warmupSeconds, connections: report.connections };
        for (const target of targets(a.info)) {
          const rounds = new Map<Setup, ProxyRow[]>(setups.map((s) => [s, []]));
          for (let r = 0; r < ROUNDS; r++) {
            for (const setup of setups) {
              const row = await measure(setup, target, { ...opts, quiet: r > 0 });
              rounds.get(setup)!.push(row);
              if (row.error && r === 0) console.log(`  ${setup.label.padEnd(14)} ${target.label}: ERROR ${row.error}`);
            }
          }
          for (const setup of setups) report.rows.push(medianRow(rounds.get(setup)!));
        }
        report.nginxLog = proxies.flatMap((p) => p.log().split('\n').filter(Boolean));
      } finally {
        await stopAll();
      }
    }),
  );
}

export async function runProxy(opts: { pgAdmin?: string; seconds: number; warmupSeconds: number; connections: number }): Promise<ProxyReport> {
  const started = performance.now();
  const report: ProxyReport = { seconds: 0, rows: [], nginxLog: [], measureSeconds: opts.seconds, warmupSeconds: opts.warmupSeconds, connections: opts.connections };
  console.log(`\nTwo instances on one PostgreSQL database: the read path through nginx (deploy/nginx.conf), then webhook deliveries with one and two instances' workers`);
  if (!opts.pgAdmin) {
    report.readsSkipped = report.deliveriesSkipped =
      'PostgreSQL: BENCH_PG is not set (several instances share one PostgreSQL database; set it to an admin connection URL, e.g. BENCH_PG=postgresql:///postgres?host=/var/run/postgresql)';
  } else if (!NGINX) {
    report.readsSkipped = 'nginx is not installed (scripts/debian-packages.sh installs Debian’s nginx)';
  }
  if (report.readsSkipped) console.log(`  read path skipped: ${report.readsSkipped}`);
  if (report.deliveriesSkipped) console.log(`  deliveries skipped: ${report.deliveriesSkipped}`);
  if (opts.pgAdmin && !report.readsSkipped) {
    try {
      await runReads(opts.pgAdmin, report);
    } catch (err) {
      report.readsError = errorText(err);
      console.log(`  read path: ERROR ${report.readsError}`);
    }
  }
  if (opts.pgAdmin) {
    console.log(`\n  deliveries: ${DELIVERY_ROUNDS} rounds of a burst with instance A's ${WORKERS} workers, then with A's and B's (${WORKERS} each), one queue…`);
    report.deliveries = await runSharedQueue({ pgAdmin: opts.pgAdmin, workers: WORKERS, rounds: DELIVERY_ROUNDS });
    if (report.deliveries.error) console.log(`  deliveries: ERROR ${report.deliveries.error}`);
  }
  report.seconds = (performance.now() - started) / 1000;
  return report;
}

// ---------------------------------------------------------------------------------------
// Report

const us = (n: number | undefined) => (n === undefined ? '-' : fmtInt(n));

export function printProxy(report: ProxyReport): void {
  console.log('\nTwo instances (issue 27): the read path through nginx, and deliveries with two instances’ workers');
  if (report.readsSkipped) {
    console.log(`\n  Read path: skipped — ${report.readsSkipped}.`);
  } else if (report.readsError && report.rows.length === 0) {
    console.log(`\n  Read path: ERROR ${report.readsError}`);
  } else {
    console.log(
      `  PostgreSQL, ${report.dataSet ?? '?'} (seeded through A in ${report.seedSeconds?.toFixed(1) ?? '?'} s); median of ${ROUNDS} rounds of ${report.measureSeconds} s ` +
        `(+${report.warmupSeconds} s warm-up), ${report.connections} connections from autocannon in this process; CPU µs per request from /proc: ` +
        'the Gatehouse processes serving, the bench database’s PostgreSQL backends, nginx (master + worker)\n',
    );
    printAligned(
      ['target', 'set-up', 'req/s', 'p50 ms', 'p99 ms', 'CPU µs/req', 'Gatehouse', 'PostgreSQL', 'nginx', 'errors/non-2xx', 'load'],
      report.rows.map((r) =>
        r.reqPerSec === undefined
          ? [r.target, r.setup, 'ERROR', '-', '-', '-', '-', '-', '-', '-', '-']
          : [r.target, r.setup, fmtInt(r.reqPerSec), fmtMs(r.p50), fmtMs(r.p99), us(r.cpuUs), us(r.gatehouseUs), us(r.postgresUs), us(r.nginxUs), `${r.errors ?? 0}/${r.non2xx ?? 0}`, r.load?.toFixed(1) ?? '-'],
      ),
      new Set([2, 3, 4, 5, 6, 7, 8, 9, 10]),
    );
    for (const r of report.rows) if (r.error) console.log(`ERROR ${r.target} (${r.setup}): ${r.error}`);
    if (report.nginxLog.length) {
      console.log(`\n  nginx logged ${report.nginxLog.length} line(s) (warnings and errors), e.g.:`);
      for (const line of report.nginxLog.slice(0, 5)) console.log(`    ${line}`);
    }
    console.log('\n  Ratios (req/s: higher is faster; CPU per request: higher costs more)');
    for (const target of [...new Set(report.rows.map((r) => r.target))]) {
      const of = (setup: string) => report.rows.find((r) => r.target === target && r.setup === setup && r.reqPerSec !== undefined);
      const direct = of('direct to A');
      const one = of('nginx → A');
      const two = of('nginx → A + B');
      const parts: string[] = [];
      if (one && two) parts.push(`two/one through nginx: req/s ${fmtRatio(two.reqPerSec! / one.reqPerSec!)}×, CPU/req ${one.cpuUs && two.cpuUs ? `${fmtRatio(two.cpuUs / one.cpuUs)}×` : '-'}`);
      if (two?.secondShare !== undefined) parts.push(`instance B's share of the Gatehouse CPU through nginx → A + B: ${Math.round(two.secondShare * 100)}%`);
      if (direct && one) parts.push(`nginx → A / direct: req/s ${fmtRatio(one.reqPerSec! / direct.reqPerSec!)}×, CPU/req ${direct.cpuUs && one.cpuUs ? `${fmtRatio(one.cpuUs / direct.cpuUs)}×` : '-'}`);
      if (parts.length) console.log(`  ${target}: ${parts.join('; ')}`);
    }
    const loads = report.rows.map((r) => r.load ?? 0);
    const cores = os.cpus().length;
    console.log(
      `\n  On ${cores} CPU(s), the client, nginx, PostgreSQL and the Gatehouse processes share the cores: a second instance adds throughput only ` +
        `where a core is left idle by the first.${Math.max(...loads) > cores + 1 ? ` The load average reached ${Math.max(...loads).toFixed(1)}: other work competed with the bench; CPU per request holds better than req/s.` : ''}`,
    );
  }

  const d = report.deliveries;
  if (report.deliveriesSkipped) {
    console.log(`\n  Deliveries with two instances: skipped — ${report.deliveriesSkipped}.`);
  } else if (d) {
    console.log(
      `\n  Deliveries: ${d.events} events × ${d.hooks} hooks per burst to a receiver on 127.0.0.1, one PostgreSQL database and delivery queue, ${d.workers} workers per instance; ` +
        'deliveries/s = received ÷ (last arrival − first event); duplicates: (event, hook) pairs or Idempotency-Keys the receiver saw twice\n',
    );
    printAligned(
      ['instances', 'workers in all', 'delivered', 'deliveries/s', 'p50 ms', 'p99 ms', 'CPU ms/delivery', 'sent by A / B', 'duplicates', 'check'],
      d.phases.map((r) => [
        String(r.instances),
        String(r.workers * r.instances),
        `${fmtInt(r.received)}/${fmtInt(r.expected)}`,
        fmtInt(r.deliveriesPerSec),
        fmtMs(r.p50),
        fmtMs(r.p99),
        r.cpu && r.received ? ((r.cpu.gatehouseSeconds * 1000) / r.received).toFixed(3) : '-',
        (r.perInstance ?? []).map(fmtInt).join(' / '),
        String(r.duplicates ?? '-'),
        r.warnings.length ? 'WARNING' : 'ok',
      ]),
      new Set([0, 1, 2, 3, 4, 5, 6, 8]),
    );
    for (const r of d.phases) for (const w of r.warnings) console.log(`WARNING [${r.instances} instance(s), ${r.phase}] ${w}`);
    if (d.error) console.log(`ERROR ${d.error}`);
    const rate = (n: number) => median(d.phases.filter((r) => r.instances === n).map((r) => r.deliveriesPerSec));
    const one = rate(1);
    const two = rate(2);
    if (one && two) console.log(`\n  Two instances' workers deliver ${fmtRatio(two / one)}× as fast as one instance's (medians of the rounds: ${fmtInt(two)} vs ${fmtInt(one)} deliveries/s).`);
    const cost = (n: number) => median(d.phases.filter((r) => r.instances === n && r.cpu && r.received).map((r) => (r.cpu!.gatehouseSeconds * 1000) / r.received));
    const costOne = cost(1);
    const costTwo = cost(2);
    if (costOne && costTwo) console.log(`  Gatehouse CPU per delivery, two instances ÷ one: ${fmtRatio(costTwo / costOne)}× (${costTwo.toFixed(3)} vs ${costOne.toFixed(3)} ms).`);
    const duplicates = d.phases.reduce((n, r) => n + (r.duplicates ?? 0), 0);
    console.log(`  Deliveries done twice, counted at the receiver: ${duplicates}.`);
  }
  console.log(`\n  The two-instance section took ${report.seconds.toFixed(0)} s.`);
}
