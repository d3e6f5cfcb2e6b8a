/**
 * `npm run bench`: throughput and latency of the group endpoints beside bare baselines.
 *
 * What runs where, and why: the load generator (autocannon's programmatic API) runs in this
 * process, and every server under test — a bare `node:http` handler, a bare Express 5
 * handler, and Gatehouse itself — runs in a child process of its own (`node --import tsx`).
 * Running autocannon and a server in one Node process would share one event loop, so the
 * client's work would be billed to the server and the figures would depend on how the two
 * interleave. Separate processes let the OS schedule them on separate cores (this bench
 * targets a 2-core machine: one core for the client, one for the server), and every target
 * is measured the same way, so the ratios compare like with like.
 *
 * Besides requests per second, each target's CPU time per request is read from /proc (the
 * server's process, plus on PostgreSQL the backends serving its database), and the ratios are
 * printed both ways: on a machine shared with other work, req/s only says how much of the CPU
 * the server got, while CPU per request still says what a request costs. For figures to
 * compare runs by req/s, run on a quiet machine (or raise the bench's priority, `nice -n -20`).
 *
 * It measures; it never judges. Figures are printed and the exit code is 0 unless something
 * crashes. A target whose sanity request does not answer 200 is printed as an error line.
 *
 * Environment:
 *   BENCH_SECONDS         measured seconds per target and round (default 4)
 *   BENCH_ROUNDS          rounds (default 3): each round measures bare Express, then the target
 *                         on SQLite, then on PostgreSQL, one after the other, every server up
 *                         for the whole run; the figures printed are each one's median over the
 *                         rounds, so that the machine drifting (other work, its clock) moves
 *                         a target and the reference it is compared with alike
 *   BENCH_WARMUP_SECONDS  warm-up seconds per measurement, not measured (default 1)
 *   BENCH_CONNECTIONS     concurrent connections (default 10)
 *   BENCH_PG              admin connection URL of a PostgreSQL server, e.g.
 *                         postgresql:///postgres?host=/var/run/postgresql; when set, the
 *                         Gatehouse targets also run on a throwaway database created and
 *                         dropped there. Optional; skipped with a note when unset.
 *   BENCH_ONLY            comma-separated words; only targets whose label contains one run
 *                         (the baselines run whenever a group target does, the ratios need
 *                         them); the webhook-delivery section's label is "webhook
 *                         deliveries", so BENCH_ONLY=deliveries runs only that section;
 *                         BENCH_ONLY="push rules" runs only the push-rule checking cost
 *                         (bench/push-rules.ts: BENCH_PUSH_COMMITS, BENCH_PUSH_ROUNDS)
 *   BENCH_NODE_ARGS       extra node flags for every child process, e.g.
 *                         "--cpu-prof --cpu-prof-dir=/tmp/prof" to profile the servers
 *
 * Then the "Webhook deliveries" section (bench/deliveries.ts, its own environment variables
 * are listed there): deliveries per second from 100 hooks to a local receiver and the time
 * from event to delivery, on SQLite and (with BENCH_PG) PostgreSQL, beside the receiver's
 * own ceiling.
 *
 * Then the "Console" section (bench/console.ts, label "console"): the groups page's transferred
 * JS and CSS, its LCP and the delivery-log filter time, measured in Chromium by e2e/perf.spec.ts.
 *
 * Last the git section (bench/git.ts, label "git push clone", so BENCH_ONLY=git runs only it):
 * a 10,000-commit history pushed over smart HTTP and cloned back, beside plain git over file://.
 *
 * And the merge trains section (bench/merge-trains.ts, label "merge trains"): 50 cars whose
 * pipelines pass at once, the time from the last status to the last merge and merges per minute.
 *
 * And the events section (bench/events.ts, label "events pages", BENCH_ONLY=events): a
 * project's activity events, page 1 and page 10,000 of 1,000,000.
 *
 * Then the exports section (bench/exports.ts, label "exports"): a CSV export of 1,000,000
 * vulnerabilities and a CycloneDX export of 100,000 components, time, rows/s and peak RSS.
 *
 * Then the group transfer section (bench/group-transfer.ts, label "group transfer"): a group tree
 * of 100 subgroups with 10,000 epics, labels and milestones exported in the platform's archive
 * and imported under a new path, time and peak RSS, after a tree a tenth of the size.
 *
 * Then the milestones section (bench/milestones.ts, label "milestones"): a milestone's issues
 * list (page 1 and a deep page) and burndown events with 10,000 issues.
 *
 * Then the git spawn section (bench/git-spawn.ts, label "git spawn", BENCH_ONLY=spawn): the CPU
 * of one git run started from a large process, directly or through the spawner.
 *
 * Then the error tracking section (bench/error-tracking.ts, label "error tracking",
 * BENCH_ONLY=error): envelopes per second into one project's collector from 10 senders, on
 * SQLite and PostgreSQL beside bare Express, and the errors list and details read afterwards.
 *
 * Then the registry tokens section (bench/registry-tokens.ts, label "registry tokens",
 * BENCH_ONLY=registry): token requests per second to /jwt/auth with 1,000 protection rules on
 * the project (BENCH_REGISTRY_RULES), a push no rule matches, a push the last rule refuses, a pull.
 *
 * Then the virtual registries section (bench/virtual-registries.ts, label "virtual registries",
 * BENCH_ONLY=virtual): BENCH_VR_ARTIFACTS Maven artifacts (default 200, Debian's
 * /usr/share/maven-repo or generated) read straight from an upstream on loopback behind Basic auth,
 * then through a virtual registry's pull-through cold (fetched and stored) and warm (from the
 * cache), MB/s and files/s beside the direct read, from BENCH_CONNECTIONS clients; and
 * BENCH_VR_CONCURRENT requests at once (default 50) for one uncached file: the upstream's fetches
 * of it (expected 1), the time until all answered, whether every body is the upstream's.
 *
 * Then the code suggestions section (bench/code-suggestions.ts, label "code suggestions",
 * BENCH_ONLY=suggestions): completions per second through Gatehouse to an AI gateway double that
 * answers at once, beside the double called directly (Gatehouse's own cost: p50/p99 and CPU per
 * request), and whether each completion reached the double once.
 *
 * Last the two-instance section (bench/proxy.ts, label "instances proxy", BENCH_ONLY=proxy; needs
 * BENCH_PG, and nginx for its read part): GET /user, a 20-project group and a 20-group list
 * straight to one instance and through deploy/nginx.conf with one and with two instances on one
 * PostgreSQL database (req/s, p50/p99, CPU per request with nginx's and PostgreSQL's), and webhook
 * deliveries per second with one and with two instances' workers sharing one queue.
 */
import crypto from 'node:crypto';
import os from 'node:os';
import type { ChildReady } from './server-child.ts';
import { runDeliveries, printDeliveries, DELIVERIES_LABEL, type DeliveryReport } from './deliveries.ts';
import { runConsole, printConsole, CONSOLE_LABEL } from './console.ts';
import { runPushRules, printPushRules, PUSH_RULES_LABEL } from './push-rules.ts';
import { runGit, printGit, GIT_LABEL } from './git.ts';
import { runMergeTrains, printMergeTrains, MERGE_TRAINS_LABEL } from './merge-trains.ts';
import { runEvents, printEvents, EVENTS_LABEL } from './events.ts';
import { runExports, printExports, EXPORTS_LABEL } from './exports.ts';
import { runGroupTransfer, printGroupTransfer, GROUP_TRANSFER_LABEL } from './group-transfer.ts';
import { runMilestones, printMilestones, MILESTONES_LABEL } from './milestones.ts';
import { runGitSpawn, printGitSpawn, GIT_SPAWN_LABEL } from './git-spawn.ts';
import { runProxy, printProxy, PROXY_LABEL } from './proxy.ts';
import { runErrorTracking, printErrorTracking, ERROR_TRACKING_LABEL } from './error-tracking.ts';
import { runRegistryTokens, printRegistryTokens, REGISTRY_TOKENS_LABEL } from './registry-tokens.ts';
import { runCodeSuggestions, printCodeSuggestions, CODE_SUGGESTIONS_LABEL } from './code-suggestions.ts';
import { runVirtualRegistries, printVirtualRegistries, VIRTUAL_REGISTRIES_LABEL } from './virtual-registries.ts';
import { autocannonLoad } from './load.ts';
import {
  CONNECTIONS,
  ONLY,
  SECONDS,
  WARMUP_SECONDS,
  cleanUp,
  cpuSeconds,
  envNumber,
  fmtInt,
  fmtMs,
  fmtRatio,
  formatBytes,
  percentile,
  postgresCpuSeconds,
  printAligned,
  selectedLabel,
  startChild,
  withPgDatabase,
  withTempDir,
} from './lib.ts';

const ROUNDS = Math.round(envNumber('BENCH_ROUNDS', 3, 1));
const PG_ADMIN = process.env.BENCH_PG?.trim() || undefined;

const ROOT_TOKEN = `bench-root-${crypto.randomBytes(12).toString('hex')}`;

// ---------------------------------------------------------------------------------------
// Measuring

interface Target {
  /** Short name used in the table and the ratios. */
  label: string;
  path: string;
  token?: string;
  /** Describes a sane 200 body for the log, or throws when the body is not what the target is about. */
  describe?: (body: unknown, headers: Headers) => string;
}

interface Row {
  section: string;
  label: string;
  path: string;
  bodyBytes?: number;
  reqPerSec?: number;
  p50?: number;
  p90?: number;
  p99?: number;
  /** Socket errors and timeouts. */
  errors?: number;
  non2xx?: number;
  /** CPU time the server spent per request (µs): its process, plus its PostgreSQL backends. */
  cpuUsPerReq?: number;
  /** 1-minute load average when the run ended: above the CPU count, other work competed with it. */
  load?: number;
  /** Set when the target could not be measured. */
  error?: string;
  /** Bare Express measured in the same rounds, what the ratios compare this target with. */
  reference?: Row;
}

const load = (url: string, headers: Record<string, string>, seconds: number, record: boolean) => autocannonLoad(url, headers, seconds, record, CONNECTIONS);

/** CPU seconds spent by the server under test so far (undefined without /proc). */
type CpuClock = () => number | undefined;

async function measure(section: string, baseUrl: string, target: Target, cpu: CpuClock, quiet = false): Promise<Row> {
  const url = baseUrl + target.path;
  const headers: Record<string, string> = target.token ? { 'PRIVATE-TOKEN': target.token } : {};
  const row: Row = { section, label: target.label, path: target.path };

  // Sanity first: a wrong status or shape would make the figures meaningless.
  try {
    const res = await fetch(url, { headers });
    const text = await res.text();
    row.bodyBytes = Buffer.byteLength(text);
    if (res.status !== 200) {
      row.error = `sanity check: HTTP ${res.status} ${text.slice(0, 160)}`;
      return row;
    }
    const note = target.describe ? target.describe(JSON.parse(text), res.headers) : '';
    if (!quiet) console.log(`  ${section.padEnd(8)} ${target.label}: 200, ${formatBytes(row.bodyBytes)}${note ? `, ${note}` : ''}`);
  } catch (err) {
    row.error = `sanity check failed: ${err instanceof Error ? err.message : String(err)}`;
    return row;
  }

  if (WARMUP_SECONDS > 0) await load(url, headers, WARMUP_SECONDS, false);
  const cpuBefore = cpu();
  const { result, sorted } = await load(url, headers, SECONDS, true);
  const cpuAfter = cpu();
  const served = result.requests.total;
  if (cpuBefore !== undefined && cpuAfter !== undefined && served > 0) row.cpuUsPerReq = ((cpuAfter - cpuBefore) / served) * 1e6;
  row.reqPerSec = result.requests.average;
  row.p50 = percentile(sorted, 50);
  row.p90 = percentile(sorted, 90);
  row.p99 = percentile(sorted, 99);
  row.errors = result.errors + result.timeouts;
  row.non2xx = result.non2xx;
  row.load = os.loadavg()[0];
  if (row.non2xx > 0) {
    const codes = Object.entries(result.statusCodeStats)
      .filter(([code]) => !code.startsWith('2'))
      .map(([code, s]) => `${code}×${s.count}`)
      .join(', ');
    row.error = `non-2xx responses during the run: ${codes}`;
  }
  return row;
}

// ---------------------------------------------------------------------------------------
// Gatehouse setup through its own API

async function api<T>(baseUrl: string, method: string, p: string, body?: unknown): Promise<T> {
  const res = await fetch(`${baseUrl}/api/v4${p}`, {
    method,
    headers: { 'PRIVATE-TOKEN': ROOT_TOKEN, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${p}: HTTP ${res.status} ${text.slice(0, 200)}`);
  return JSON.parse(text) as T;
}

/** A non-administrator who is a Developer of the top-level group, so every subgroup is visible through inheritance. */
async function createMember(baseUrl: string, topId: number): Promise<string> {
  const user = await api<{ id: number }>(baseUrl, 'POST', '/users', {
    email: 'bench-member@example.com',
    username: 'bench-member',
    name: 'Bench Member',
    password: 'bench-member-password',
    skip_confirmation: true,
  });
  const token = await api<{ token: string }>(baseUrl, 'POST', `/users/${user.id}/personal_access_tokens`, { name: 'bench', scopes: ['read_api'] });
  await api(baseUrl, 'POST', `/groups/${topId}/members`, { user_id: user.id, access_level: 30 });
  return token.token;
}

const countOf =
  (what: string, expected?: number) =>
  (body: unknown, headers: Headers): string => {
    if (!Array.isArray(body)) throw new Error(`expected a JSON array of ${what}`);
    if (expected !== undefined && body.length !== expected) throw new Error(`expected ${expected} ${what}, got ${body.length}`);
    const total = headers.get('x-total');
    return `${body.length} ${what}${total ? ` of ${total}` : ''}`;
  };

const detailWith =
  (expectedProjects: number | null) =>
  (body: unknown): string => {
    const projects = (body as { projects?: unknown[] }).projects;
    if (expectedProjects === null) {
      if (projects !== undefined) throw new Error('expected no projects key with with_projects=false');
      return 'no projects key';
    }
    if (!Array.isArray(projects) || projects.length !== expectedProjects) {
      throw new Error(`expected ${expectedProjects} projects, got ${Array.isArray(projects) ? projects.length : 'none'}`);
    }
    return `${projects.length} projects`;
  };

function gatehouseTargets(info: ChildReady, memberToken: string | undefined): Target[] {
  const g = '/api/v4/groups';
  const targets: Target[] = [
    // The floor: the middleware stack and token authentication, without any group work.
    {
      label: 'user (token auth only)',
      path: '/api/v4/user',
      token: ROOT_TOKEN,
      describe: (body) => {
        if ((body as { username?: string }).username !== 'root') throw new Error('expected the root user');
        return 'the root user';
      },
    },
    { label: 'groups/:id top-level', path: `${g}/${info.topId}`, token: ROOT_TOKEN, describe: detailWith(0) },
    { label: 'groups/:id top-level with_projects=false', path: `${g}/${info.topId}?with_projects=false`, token: ROOT_TOKEN, describe: detailWith(null) },
    { label: 'groups/:id subgroup (10 projects)', path: `${g}/${info.subId}`, token: ROOT_TOKEN, describe: detailWith(10) },
    { label: 'groups/:id (20 projects)', path: `${g}/${info.twentyId}`, token: ROOT_TOKEN, describe: detailWith(20) },
    { label: 'groups/:id wide (100 projects)', path: `${g}/${info.wideId}`, token: ROOT_TOKEN, describe: detailWith(100) },
    { label: 'groups?per_page=20 admin', path: `${g}?per_page=20`, token: ROOT_TOKEN, describe: countOf('groups', 20) },
    { label: 'groups?per_page=100 admin', path: `${g}?per_page=100`, token: ROOT_TOKEN, describe: countOf('groups', 100) },
  ];
  // Without a member token these are still listed, and their sanity check prints the 401.
  targets.push(
    { label: 'groups?per_page=20 member', path: `${g}?per_page=20`, token: memberToken ?? 'member-setup-failed', describe: countOf('groups', 20) },
    { label: 'groups/:id subgroup as member', path: `${g}/${info.subId}`, token: memberToken ?? 'member-setup-failed', describe: detailWith(10) },
  );
  return targets;
}

const selected = (t: Target) => selectedLabel(t.label);

interface Server {
  section: string;
  url: string;
  cpu: CpuClock;
  targets: Target[];
  stop(): Promise<void>;
}

/** Gatehouse seeded in a child process of its own, with its member user and its targets. */
async function startGatehouse(section: string, env: Record<string, string>): Promise<Server> {
  console.log(`\n${section}: starting Gatehouse and seeding 1,000 subgroups × 10 projects (+ a 100-project and a 20-project group) through the services…`);
  const child = await startChild<ChildReady>('server-child.ts', [], { ...env, BENCH_ROOT_TOKEN: ROOT_TOKEN }, 600_000);
  const info = child.info;
  console.log(
    `  seeded ${info.groups.toLocaleString('en')} groups and ${info.projects.toLocaleString('en')} projects in ${(info.seedMs / 1000).toFixed(1)} s ` +
      `(top-level id ${info.topId}, subgroup id ${info.subId}, wide id ${info.wideId}, 20-project id ${info.twentyId})`,
  );
  let memberToken: string | undefined;
  try {
    memberToken = await createMember(info.url, info.topId);
  } catch (err) {
    console.log(`  ERROR creating the member user: ${err instanceof Error ? err.message : String(err)}`);
  }
  return { section, url: info.url, cpu: serverCpu(child.pid, env.DATABASE_URL), targets: gatehouseTargets(info, memberToken).filter(selected), stop: () => child.stop() };
}

async function startBaseline(kind: 'http' | 'express', label: string): Promise<Server> {
  const child = await startChild<{ url: string }>('bare-child.ts', [kind], {}, 60_000);
  const target: Target = {
    label,
    path: '/',
    describe: (body) => {
      if ((body as { id?: number }).id !== 1) throw new Error('unexpected body');
      return 'small JSON object';
    },
  };
  return { section: 'baseline', url: child.info.url, cpu: serverCpu(child.pid), targets: [target], stop: () => child.stop() };
}

const median = (values: (number | undefined)[]): number | undefined => {
  const known = values.filter((v): v is number => v !== undefined).sort((a, b) => a - b);
  return known.length ? known[Math.floor((known.length - 1) / 2)] : undefined;
};

/** One row of a target's rounds: each figure the median of its rounds, errors summed, the first error kept. */
function medianRow(rounds: Row[]): Row {
  const measured = rounds.filter((r) => r.reqPerSec !== undefined);
  const first = rounds[0];
  return {
    ...first,
    reqPerSec: median(measured.map((r) => r.reqPerSec)),
    cpuUsPerReq: median(measured.map((r) => r.cpuUsPerReq)),
    p50: median(measured.map((r) => r.p50)),
    p90: median(measured.map((r) => r.p90)),
    p99: median(measured.map((r) => r.p99)),
    errors: rounds.reduce((n, r) => n + (r.errors ?? 0), 0),
    non2xx: rounds.reduce((n, r) => n + (r.non2xx ?? 0), 0),
    load: Math.max(...rounds.map((r) => r.load ?? 0)),
    error: rounds.find((r) => r.error)?.error,
  };
}

/**
 * Every server up at once; for each target, ROUNDS rounds of bare Express, then the target on
 * each engine. A target's ratios compare it with the Express rounds measured between its own.
 */
async function runReads(gatehouses: Server[]): Promise<Row[]> {
  const http = await startBaseline('http', 'bare node:http');
  const express = await startBaseline('express', 'bare Express');
  try {
    const baselineRounds: Row[] = [];
    for (let r = 0; r < ROUNDS; r++) baselineRounds.push(await measure('baseline', http.url, http.targets[0], http.cpu, r > 0));
    const expressAll: Row[] = [];
    const rows: Row[] = [];
    const labels = gatehouses[0]?.targets.map((t) => t.label) ?? [];
    for (const label of labels) {
      const expressRounds: Row[] = [];
      const perEngine = new Map<Server, Row[]>(gatehouses.map((g) => [g, []]));
      for (let r = 0; r < ROUNDS; r++) {
        expressRounds.push(await measure('baseline', express.url, express.targets[0], express.cpu, expressAll.length + r > 0));
        for (const g of gatehouses) {
          const target = g.targets.find((t) => t.label === label)!;
          const row = await measure(g.section, g.url, target, g.cpu, r > 0);
          perEngine.get(g)!.push(row);
          if (row.error && r === 0) console.log(`  ${g.section.padEnd(8)} ${label}: ERROR ${row.error}`);
        }
      }
      expressAll.push(...expressRounds);
      const reference = medianRow(expressRounds);
      for (const g of gatehouses) rows.push({ ...medianRow(perEngine.get(g)!), reference });
    }
    return [medianRow(baselineRounds), ...(expressAll.length ? [medianRow(expressAll)] : []), ...rows];
  } finally {
    await http.stop();
    await express.stop();
  }
}

/**
 * The server's CPU clock: its process, plus on PostgreSQL the backends serving its database.
 * CPU time per request compares like with like even when other work shares the machine, where
 * requests per second would only measure how much of the CPU the server got.
 */
function serverCpu(pid: number, databaseUrl?: string): CpuClock {
  const database = databaseUrl ? decodeURIComponent(new URL(databaseUrl).pathname.slice(1)) : undefined;
  return () => {
    const own = cpuSeconds(pid);
    if (own === undefined || !database) return own;
    const backends = postgresCpuSeconds(database);
    return backends === undefined ? undefined : own + backends;
  };
}

// ---------------------------------------------------------------------------------------
// Report

function printTable(rows: Row[]): void {
  const header = ['engine', 'target', 'req/s', 'CPU µs/req', 'p50 ms', 'p90 ms', 'p99 ms', 'errors/non-2xx', 'body', 'load'];
  const cells = rows.map((r) =>
    r.reqPerSec === undefined
      ? [r.section, r.label, 'ERROR', '-', '-', '-', '-', '-', r.bodyBytes === undefined ? '-' : formatBytes(r.bodyBytes), '-']
      : [
          r.section,
          r.label,
          fmtInt(r.reqPerSec),
          r.cpuUsPerReq === undefined ? '-' : fmtInt(r.cpuUsPerReq),
          fmtMs(r.p50),
          fmtMs(r.p90),
          fmtMs(r.p99),
          `${r.errors ?? 0}/${r.non2xx ?? 0}`,
          formatBytes(r.bodyBytes ?? 0),
          r.load === undefined ? '-' : r.load.toFixed(1),
        ],
  );
  printAligned(header, cells, new Set([2, 3, 4, 5, 6, 7, 8, 9]));
  const failed = rows.filter((r) => r.error);
  if (failed.length) {
    console.log('');
    for (const r of failed) console.log(`ERROR ${r.section} ${r.label} (${r.path}): ${r.error}`);
  }
}

function printRatios(rows: Row[]): void {
  const find = (section: string, label: string) => rows.find((r) => r.section === section && r.label === label && r.reqPerSec !== undefined);
  const http = find('baseline', 'bare node:http');
  const express = find('baseline', 'bare Express');
  // Two views of one comparison: throughput (what the server got of the machine) and CPU time per
  // request (what a request costs it, which other work on the machine changes much less).
  const views: { title: string; ratio: (target: Row, ref: Row) => number | undefined }[] = [
    { title: 'req/s of the target ÷ req/s of the reference', ratio: (t, ref) => t.reqPerSec! / ref.reqPerSec! },
    {
      title: 'CPU µs per request of the reference ÷ of the target, the same comparison by cost',
      ratio: (t, ref) => (t.cpuUsPerReq && ref.cpuUsPerReq ? ref.cpuUsPerReq / t.cpuUsPerReq : undefined),
    },
  ];
  for (const { title, ratio } of views) {
    console.log(`\nRatios (${title}; higher is faster)`);
    const shown = (t: Row, ref: Row | undefined) => {
      const x = ref ? ratio(t, ref) : undefined;
      return x === undefined ? undefined : fmtRatio(x);
    };
    if (http && express && shown(express, http)) console.log(`  bare Express reaches ${shown(express, http)}× bare node:http`);
    for (const r of rows) {
      if (r.section === 'baseline' || r.reqPerSec === undefined) continue;
      // Against the Express rounds measured between this target's own.
      const ref = r.reference ?? express;
      const parts = [ref && shown(r, ref) ? `${shown(r, ref)}× bare Express` : undefined, http && shown(r, http) ? `${shown(r, http)}× bare node:http` : undefined].filter(Boolean);
      if (parts.length) console.log(`  [${r.section}] ${r.label} reaches ${parts[0]}${parts[1] ? ` (${parts[1]})` : ''}`);
    }
    const pgRows = rows.filter((r) => r.section === 'postgres' && r.reqPerSec !== undefined);
    if (pgRows.length) {
      console.log(`\nPostgreSQL vs SQLite (same target, ${title.split(',')[0]}; PostgreSQL's CPU includes its backends)`);
      for (const r of pgRows) {
        const s = find('sqlite', r.label);
        if (s && shown(r, s)) console.log(`  ${r.label}: PostgreSQL reaches ${shown(r, s)}× SQLite`);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const started = performance.now();
  const cpus = os.cpus();
  console.log('Gatehouse benchmark');
  console.log(`  node ${process.version}, ${cpus.length} CPU(s) ${cpus[0]?.model.trim() ?? ''}, ${os.platform()} ${os.release()}`);
  console.log(`  ${ROUNDS} rounds of ${SECONDS} s measured + ${WARMUP_SECONDS} s warm-up per target, ${CONNECTIONS} connections, keep-alive, no pipelining`);
  console.log('  load generator: autocannon in this process; each server in its own child process');
  if (ONLY.length) console.log(`  BENCH_ONLY: ${ONLY.join(', ')}`);
  console.log(`  load average before the run: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);

  // The group targets' labels do not depend on the seeded ids, so the selection is known up front.
  const groupTargetsSelected = gatehouseTargets({ topId: 0, subId: 0, wideId: 0, twentyId: 0 } as ChildReady, undefined).some(selected);
  const deliveriesSelected = selectedLabel(DELIVERIES_LABEL);

  const rows: Row[] = [];
  let pgNote: string | undefined;
  if (groupTargetsSelected) {
    const withEngines = (fn: (servers: Server[]) => Promise<Row[]>) =>
      withTempDir(async (sqliteDir) => {
        const sqlite = await startGatehouse('sqlite', { BENCH_DATA_DIR: sqliteDir });
        try {
          if (!PG_ADMIN) return await fn([sqlite]);
          return await withTempDir((pgDir) =>
            withPgDatabase(PG_ADMIN, async (url) => {
              const postgres = await startGatehouse('postgres', { BENCH_DATA_DIR: pgDir, DATABASE_URL: url });
              try {
                return await fn([sqlite, postgres]);
              } finally {
                await postgres.stop();
              }
            }),
          );
        } finally {
          await sqlite.stop();
        }
      });
    console.log(`\nbaselines: GET / returning {"id":1,"name":"bench"}; ${ROUNDS} rounds of each target, bare Express measured in each`);
    rows.push(...(await withEngines(runReads)));
    if (!PG_ADMIN) pgNote = 'PostgreSQL: skipped (set BENCH_PG to an admin connection URL, e.g. BENCH_PG=postgresql:///postgres?host=/var/run/postgresql, to also run on a throwaway database).';
  }

  let deliveries: DeliveryReport | undefined;
  if (deliveriesSelected) deliveries = await runDeliveries({ pgAdmin: PG_ADMIN, connections: CONNECTIONS });
  const consoleReport = selectedLabel(CONSOLE_LABEL) ? await runConsole() : undefined;
  const pushRules = selectedLabel(PUSH_RULES_LABEL) ? await runPushRules() : undefined;
  const gitReport = selectedLabel(GIT_LABEL) ? await runGit() : undefined;
  const trains = selectedLabel(MERGE_TRAINS_LABEL) ? await runMergeTrains() : undefined;
  const eventsReport = selectedLabel(EVENTS_LABEL) ? await runEvents(PG_ADMIN) : undefined;
  const exportsReport = selectedLabel(EXPORTS_LABEL) ? await runExports({ pgAdmin: PG_ADMIN }) : undefined;
  const groupTransfer = selectedLabel(GROUP_TRANSFER_LABEL) ? await runGroupTransfer({ pgAdmin: PG_ADMIN }) : undefined;
  const milestonesReport = selectedLabel(MILESTONES_LABEL) ? await runMilestones() : undefined;
  const gitSpawn = selectedLabel(GIT_SPAWN_LABEL) ? await runGitSpawn() : undefined;
  const errorTracking = selectedLabel(ERROR_TRACKING_LABEL) ? await runErrorTracking({ pgAdmin: PG_ADMIN }) : undefined;
  const registryTokens = selectedLabel(REGISTRY_TOKENS_LABEL) ? await runRegistryTokens({ pgAdmin: PG_ADMIN }) : undefined;
  const virtualRegistries = selectedLabel(VIRTUAL_REGISTRIES_LABEL) ? await runVirtualRegistries({ pgAdmin: PG_ADMIN }) : undefined;
  const codeSuggestions = selectedLabel(CODE_SUGGESTIONS_LABEL) ? await runCodeSuggestions({ pgAdmin: PG_ADMIN }) : undefined;
  const proxy = selectedLabel(PROXY_LABEL) ? await runProxy({ pgAdmin: PG_ADMIN, seconds: SECONDS, warmupSeconds: WARMUP_SECONDS, connections: CONNECTIONS }) : undefined;

  if (groupTargetsSelected) {
    console.log(`\nResults (median of ${ROUNDS} rounds of ${SECONDS} s per target, ${CONNECTIONS} connections; latency over 2xx responses; bare Express: all its rounds)\n`);
    printTable(rows);
    printRatios(rows);
    if (pgNote) console.log(`\n${pgNote}`);
    const busiest = Math.max(...rows.map((r) => r.load ?? 0));
    console.log(
      `\nThe "load" column is the 1-minute load average after each target; this bench itself accounts for about 2 ` +
        `(client + server).${busiest > cpus.length + 1 ? ` It reached ${busiest.toFixed(1)} on ${cpus.length} CPU(s): other work competed with the bench, so treat the figures as noisy and rerun on a quiet machine before comparing runs.` : ''}`,
    );
  }
  if (deliveries) printDeliveries(deliveries);
  if (consoleReport) printConsole(consoleReport);
  if (pushRules) printPushRules(pushRules);
  if (gitReport) printGit(gitReport);
  if (trains) printMergeTrains(trains);
  if (eventsReport) printEvents(eventsReport);
  if (exportsReport) printExports(exportsReport);
  if (groupTransfer) printGroupTransfer(groupTransfer);
  if (milestonesReport) printMilestones(milestonesReport);
  if (gitSpawn) printGitSpawn(gitSpawn);
  if (errorTracking) printErrorTracking(errorTracking);
  if (registryTokens) printRegistryTokens(registryTokens);
  if (virtualRegistries) printVirtualRegistries(virtualRegistries);
  if (codeSuggestions) printCodeSuggestions(codeSuggestions);
  if (proxy) printProxy(proxy);
  console.log(`\nTotal run time ${((performance.now() - started) / 1000).toFixed(0)} s.`);
}

// Ctrl-C reaches this process twice (from the terminal's process group and relayed by tsx):
// keep handling the signal, or the second one would kill the process mid clean-up.
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    console.error(`\n${signal}: stopping servers, removing scratch files and any throwaway database…`);
    void cleanUp().finally(() => process.exit(130));
  });
}

main().then(
  () => process.exit(0),
  async (err: unknown) => {
    console.error('benchmark crashed:', err);
    await cleanUp();
    process.exit(1);
  },
);
