import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { pgConnection } from '../src/db/index.ts';
import { repoRoot } from '../src/server.ts';

/**
 * How a server process starts: bundled once for the whole suite by scripts/run-tests.mjs (each
 * start then skips the few seconds of CPU tsx spends loading the sources), or from the sources
 * under tsx when a test file runs on its own.
 */
const SERVER_ARGS = process.env.GATEHOUSE_TEST_SERVER ? ['--enable-source-maps', process.env.GATEHOUSE_TEST_SERVER] : ['--import', 'tsx', 'bff/src/main.ts'];

/**
 * Real server processes for tests of what survives a crash: each on a free port, started with
 * `bff/src/main.ts` and the given environment, ready once it answers `GET /api/v4/user` for the
 * token; stopped (or killed, SIGKILL) like an operator or a crash would.
 */
export async function startInstance(token: string, env: Record<string, string>): Promise<Instance> {
  // Port 0: the server takes a free port itself and prints its URL. A port picked here and
  // handed over could be taken in between (both HTTP suites start servers side by side).
  const child = spawn(process.execPath, SERVER_ARGS, {
    cwd: repoRoot,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', GATEHOUSE_DEMO: '0', GATEHOUSE_LOG_LEVEL: 'silent', GATEHOUSE_ROOT_TOKEN: token, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let printed = '';
    // A ceiling, not an expectation: alone a start takes about a second, but the first start
    // migrates a fresh database, and `npm test` runs both HTTP suites and Chromium on 2 cores.
    const timer = setTimeout(() => reject(new Error('instance did not start: it printed no URL in 120 s')), 120_000);
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      printed += chunk;
      const found = /Gatehouse is running at (http:\/\/\S+)/.exec(printed);
      if (found) {
        clearTimeout(timer);
        child.stdout!.removeAllListeners('data').resume();
        resolve(found[1]!);
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`instance exited before it started (${signal ?? `exit code ${code}`})`));
    });
  });
  for (let i = 0; i < 1200; i++) {
    try {
      if ((await fetch(`${url}/api/v4/user`, { headers: { 'PRIVATE-TOKEN': token } })).ok) return { url, child };
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('instance did not start');
}

/**
 * A server process that must refuse to start: its exit code and what it printed. One that
 * starts instead is stopped, and answered with code null.
 */
export async function startRefused(token: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, SERVER_ARGS, {
    cwd: repoRoot,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', GATEHOUSE_DEMO: '0', GATEHOUSE_LOG_LEVEL: 'silent', GATEHOUSE_ROOT_TOKEN: token, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    if (stdout.includes('Gatehouse is running at')) child.kill();
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  const code = await new Promise<number | null>((resolve) => child.once('close', (c) => resolve(c)));
  clearTimeout(timer);
  return { code, stdout, stderr };
}

/** One API call to a server process as `token`: its status, its text, and a JSON answer parsed (null when empty or not JSON). */
export async function callInstance(url: string, token: string, method: string, p: string, body?: unknown): Promise<{ status: number; text: string; body: any }> {
  const res = await fetch(`${url}/api/v4${p}`, {
    method,
    headers: { 'PRIVATE-TOKEN': token, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, body: text && res.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : null };
}

/** Stops the process (a killed one has a signal code and no exit code) and waits for it. */
export const stopInstance = (child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM') =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill(signal);
  });

export interface Instance {
  url: string;
  child: ChildProcess;
}

/**
 * The setting of a crash test: one data directory and one database (a throwaway PostgreSQL
 * database when GATEHOUSE_TEST_PG is set, else SQLite in the directory) that every server
 * process of the test shares, as instances of one installation would. `start` brings up
 * another server on them, `crash` kills one as a crash would (SIGKILL: no clean-up of any
 * kind), so that the next one started finds what the killed one left mid-job.
 */
export interface SharedInstallation {
  dataDir: string;
  databaseUrl: string | undefined;
  sqliteFile: string;
  /** Another server on them, with settings of its own besides the installation's. */
  start(extra?: Record<string, string>): Promise<Instance>;
  /** A server on them that must refuse to start (startRefused). */
  startRefused(extra?: Record<string, string>): ReturnType<typeof startRefused>;
  crash(instance: Instance): Promise<void>;
  /** Stops what still runs, drops the database, removes the directory. */
  close(): Promise<void>;
}

export async function sharedInstallation(name: string, token: string, env: Record<string, string> = {}): Promise<SharedInstallation> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `gatehouse-${name}-`));
  const admin = process.env.GATEHOUSE_TEST_PG;
  let databaseUrl: string | undefined;
  const dbName = `gatehouse_${name.replace(/\W/g, '_')}_${crypto.randomBytes(5).toString('hex')}`;
  const asAdmin = async (statement: string) => {
    const c = new pg.Client(pgConnection(admin!));
    await c.connect();
    try {
      await c.query(statement);
    } finally {
      await c.end();
    }
  };
  if (admin) {
    await asAdmin(`CREATE DATABASE ${dbName}`);
    databaseUrl = admin.replace(/^(postgres(?:ql)?:\/\/[^/]*)\/[^?]*/, `$1/${dbName}`);
  }
  const running = new Set<ChildProcess>();
  const environment = (extra: Record<string, string>) => ({
    GATEHOUSE_DATA_DIR: dataDir,
    GATEHOUSE_ROOT_PASSWORD: 'durable-password',
    // Every instance decrypts what the others encrypted.
    GATEHOUSE_SECRET_KEY: 'a-shared-secret-key-for-every-instance-of-this-test',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...env,
    ...extra,
  });
  return {
    dataDir,
    databaseUrl,
    sqliteFile: path.join(dataDir, 'gatehouse.sqlite3'),
    async start(extra = {}) {
      const instance = await startInstance(token, environment(extra));
      running.add(instance.child);
      instance.child.once('exit', () => running.delete(instance.child));
      return instance;
    },
    startRefused: (extra = {}) => startRefused(token, environment(extra)),
    crash: (instance) => stopInstance(instance.child, 'SIGKILL'),
    async close() {
      await Promise.all([...running].map((child) => stopInstance(child)));
      if (databaseUrl) await asAdmin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
