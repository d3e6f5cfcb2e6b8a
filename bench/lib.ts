/**
 * What bench/run.ts and the sections it calls (bench/deliveries.ts…) share: the settings they
 * measure with (BENCH_SECONDS, BENCH_WARMUP_SECONDS, BENCH_CONNECTIONS), a throughput row, an API
 * client, child processes that report `@@bench {json}` when ready, clean-ups that survive Ctrl-C,
 * throwaway PostgreSQL databases and scratch directories, and small number helpers.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export const benchDir = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(benchDir, '..');

export function envNumber(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min) {
    console.error(`${name}=${JSON.stringify(raw)} is not a number >= ${min}; using ${fallback}.`);
    return fallback;
  }
  return n;
}

// ---------------------------------------------------------------------------------------
// Settings the measuring sections share (read once, so a bad value is reported once)

/** BENCH_SECONDS: measured seconds per measurement (default 4). */
export const SECONDS = envNumber('BENCH_SECONDS', 4, 1);
/** BENCH_WARMUP_SECONDS: seconds of load before each measurement, not measured (default 1). */
export const WARMUP_SECONDS = envNumber('BENCH_WARMUP_SECONDS', 1, 0);
/** BENCH_CONNECTIONS: concurrent clients (default 10). */
export const CONNECTIONS = Math.round(envNumber('BENCH_CONNECTIONS', 10, 1));

/** A row of a section's throughput table: a target's rate and latency, or why it could not run. */
export interface LoadRow {
  target: string;
  rps: number;
  p50: number;
  p99: number;
  /** Set when the target could not be measured: printed in place of its figures. */
  problem?: string;
}

/** A Gatehouse API client with a token: the JSON of a 2xx answer, or an error naming the request and its answer. */
export function gatehouseApi(baseUrl: string, token: string) {
  return async (p: string, method = 'GET', json?: unknown): Promise<unknown> => {
    const res = await fetch(`${baseUrl}/api/v4${p}`, { method, headers: { 'PRIVATE-TOKEN': token, ...(json ? { 'Content-Type': 'application/json' } : {}) }, body: json ? JSON.stringify(json) : undefined });
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${(await res.text()).slice(0, 300)}`);
    return res.status === 204 ? undefined : res.json();
  };
}

/** BENCH_ONLY as lower-case words (empty: everything runs). */
export const ONLY = (process.env.BENCH_ONLY ?? '')
  .split(',')
  .map((s) => s.trim().toLowerCase())
  .filter(Boolean);

/** Whether a label is selected by BENCH_ONLY (it contains one of its words). */
export const selectedLabel = (label: string) => ONLY.length === 0 || ONLY.some((w) => label.toLowerCase().includes(w));

// ---------------------------------------------------------------------------------------
// Child processes

export interface Child<T> {
  info: T;
  pid: number;
  stop(): Promise<void>;
}

/** Children still running, with a promise of their exit, for the clean-up after a crash or Ctrl-C. */
export const liveChildren = new Map<ChildProcess, Promise<void>>();

/** BENCH_NODE_ARGS: extra flags for every child's node, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` (not allowed in NODE_OPTIONS). */
const childNodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);

/** The configuration of a Gatehouse server under test: a fresh data dir, no demo, quiet, root with BENCH_ROOT_TOKEN. */
export const benchServerEnv = (): Record<string, string> => ({
  PORT: '0',
  HOST: '127.0.0.1',
  GATEHOUSE_DATA_DIR: process.env.BENCH_DATA_DIR ?? '',
  GATEHOUSE_DEMO: '0',
  GATEHOUSE_ROOT_PASSWORD: 'bench-password',
  GATEHOUSE_ROOT_TOKEN: process.env.BENCH_ROOT_TOKEN ?? '',
  GATEHOUSE_LOG_LEVEL: 'silent',
});

/** Starts `node --import tsx <script>`, waits for its `@@bench {json}` line. */
export function startChild<T>(script: string, args: string[], env: Record<string, string>, readyTimeoutMs: number): Promise<Child<T>> {
  const proc = spawn(process.execPath, [...childNodeArgs, '--import', 'tsx', path.join(benchDir, script), ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  liveChildren.set(proc, exited);
  void exited.then(() => liveChildren.delete(proc));

  const stop = async () => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    proc.stdin?.end();
    proc.kill('SIGTERM');
    const timer = setTimeout(() => proc.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };

  return new Promise((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => {
      if (settled) return;
      settled = true;
      void stop();
      reject(new Error(`${script} ${args.join(' ')} did not report ready within ${readyTimeoutMs / 1000} s`));
    }, readyTimeoutMs);
    const lines = readline.createInterface({ input: proc.stdout! });
    lines.on('line', (line) => {
      if (!settled && line.startsWith('@@bench ')) {
        settled = true;
        clearTimeout(timer);
        resolve({ info: JSON.parse(line.slice('@@bench '.length)) as T, pid: proc.pid!, stop });
      } else {
        process.stdout.write(`  [${script}] ${line}\n`);
      }
    });
    proc.once('exit', (code, signal) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(new Error(`${script} ${args.join(' ')} exited (${signal ?? `code ${code}`}) before it was ready`));
    });
  });
}

// ---------------------------------------------------------------------------------------
// Clean-ups

/**
 * Clean-ups still to do. Each runs once: the normal path and a Ctrl-C clean-up racing it
 * await the same promise, so the process never exits halfway through dropping a database.
 */
export const cleanups = new Set<() => Promise<void>>();

export function registerCleanup(fn: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  const once = () => (running ??= fn().finally(() => cleanups.delete(once)));
  cleanups.add(once);
  return once;
}

/** Stops every child still running and runs every pending clean-up. */
export async function cleanUp(): Promise<void> {
  for (const proc of liveChildren.keys()) proc.kill('SIGTERM');
  await Promise.race([Promise.all(liveChildren.values()), new Promise((resolve) => setTimeout(resolve, 5_000))]);
  await Promise.all([...cleanups].map((c) => c().catch((err: unknown) => console.error(`clean-up failed: ${String(err)}`))));
}

// ---------------------------------------------------------------------------------------
// PostgreSQL throwaway database, scratch directory

export async function withPgDatabase<T>(adminUrl: string, fn: (url: string) => Promise<T>): Promise<T> {
  // libpq (psql) falls back to the OS user name; node-postgres only reads USER, which is not
  // always set (e.g. in containers). Children inherit PGUSER too.
  if (!process.env.PGUSER && !process.env.USER && !new URL(adminUrl).username) process.env.PGUSER = os.userInfo().username;
  const name = `gatehouse_bench_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const drop = registerCleanup(async () => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    try {
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    } finally {
      await c.end();
    }
  });
  try {
    return await fn(url.toString());
  } finally {
    await drop().catch((err: unknown) => console.error(`could not drop database ${name}: ${String(err)}`));
  }
}

/** A scratch data directory (the SQLite file, or nothing much with PostgreSQL), removed afterwards. */
export async function withTempDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-'));
  const remove = registerCleanup(async () => fs.rmSync(dir, { recursive: true, force: true }));
  try {
    return await fn(dir);
  } finally {
    await remove();
  }
}

// ---------------------------------------------------------------------------------------
// Numbers

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))];
}

export function formatBytes(n: number): string {
  return n < 1024 ? `${n} B` : `${(n / 1024).toFixed(1)} kB`;
}

export const fmtInt = (n: number | undefined) => (n === undefined || Number.isNaN(n) ? '-' : Math.round(n).toLocaleString('en'));
export const fmtMs = (n: number | undefined) => (n === undefined || Number.isNaN(n) ? '-' : n.toFixed(2));
export const fmtRatio = (r: number) => (r >= 10 ? r.toFixed(1) : r >= 0.1 ? r.toFixed(2) : r.toFixed(3));

/** Prints a table: left-aligned text columns, right-aligned number columns. */
export function printAligned(header: string[], cells: string[][], rightAligned: Set<number>): void {
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) => c.map((v, i) => (rightAligned.has(i) ? v.padStart(widths[i]) : v.padEnd(widths[i]))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const c of cells) console.log(line(c));
}

/**
 * In a server child: the URL it listens on, and a clean shutdown when it is signalled or when
 * the parent goes away (its stdin closes).
 */
export function serveUntilParentGoes(running: { server: import('node:http').Server; close(): Promise<void> }): string {
  const address = running.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  let closing = false;
  const shutdown = () => {
    if (closing) return;
    closing = true;
    running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
  process.stdin.on('end', shutdown);
  process.stdin.resume();
  return `http://127.0.0.1:${port}`;
}

// ---------------------------------------------------------------------------------------
// Memory from /proc (Linux)

/** Resident and peak resident memory of a process, from /proc (Linux). */
export function memory(pid: number): { rss?: number; peak?: number } {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]) * 1024 || undefined;
    return { rss: kb('VmRSS'), peak: kb('VmHWM') };
  } catch {
    return {};
  }
}

/**
 * The peak resident memory of a process while `work` runs: its VmHWM, reset first through
 * /proc/<pid>/clear_refs where the kernel allows it, and VmRSS sampled every 20 ms (either
 * alone would do: the reset needs the right to write there, the samples may miss a spike).
 */
export async function peakDuring<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; peak?: number }> {
  let reset = false;
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    reset = true;
  } catch {
    // Not allowed here: the samples stand alone.
  }
  let sampled = 0;
  const sample = () => (sampled = Math.max(sampled, memory(pid).rss ?? 0));
  const timer = setInterval(sample, 20);
  try {
    const result = await work();
    sample();
    const hwm = reset ? (memory(pid).peak ?? 0) : 0;
    return { result, peak: Math.max(sampled, hwm) || undefined };
  } finally {
    clearInterval(timer);
  }
}

// ---------------------------------------------------------------------------------------
// CPU accounting from /proc (Linux); undefined elsewhere

let clockTicks: number | undefined;
function ticksPerSecond(): number {
  if (clockTicks === undefined) {
    try {
      clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      clockTicks = 100;
    }
  }
  return clockTicks;
}

/** User + system CPU seconds of a process from its /proc stat line (fields 14 and 15 of proc(5)). */
function statCpuSeconds(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond();
}

/** User + system CPU seconds of a process, or of one of its threads (the main thread's id is the process's); undefined without /proc. */
export function cpuSeconds(pid: number, thread?: number): number | undefined {
  try {
    return statCpuSeconds(fs.readFileSync(thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * CPU seconds of the postgres processes: all of them, or only the backends serving `database`
 * (their process title names it), so that other clients of the same server are not counted.
 */
export function postgresCpuSeconds(database?: string): number | undefined {
  const byPid = postgresCpuByPid(database);
  if (!byPid) return undefined;
  let total = 0;
  for (const seconds of byPid.values()) total += seconds;
  return total;
}

/**
 * The same, by process id. A backend that ends between two readings (a pool closing an idle
 * connection) takes its CPU time with it, which makes a difference of sums go negative; a
 * difference taken process by process (postgresCpuDelta) does not.
 */
export function postgresCpuByPid(database?: string): Map<number, number> | undefined {
  const out = new Map<number, number>();
  try {
    for (const entry of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
        if (!stat.includes('(postgres)')) continue;
        if (database && !fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(` ${database} `)) continue;
        out.set(Number(entry), statCpuSeconds(stat));
      } catch {
        // The process ended meanwhile.
      }
    }
  } catch {
    return undefined;
  }
  return out;
}

/** CPU seconds the postgres processes of `after` spent since `before` (a process new since then: all of its time). */
export function postgresCpuDelta(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, seconds] of after) total += Math.max(0, seconds - (before.get(pid) ?? 0));
  return total;
}
