import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import net from 'node:net';
import pg from 'pg';
import { pgConnection } from '../src/db/index.ts';
import { repoRoot } from '../src/server.ts';

/**
 * Real server processes for tests of what survives a crash: each on a free port, started with
 * `bff/src/main.ts` and the given environment, ready once it answers `GET /api/v4/user` for the
 * token; stopped (or killed, SIGKILL) like an operator or a crash would.
 */
export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

export async function startInstance(token: string, env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'bff/src/main.ts'], {
    cwd: repoRoot,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', GATEHOUSE_DEMO: '0', GATEHOUSE_LOG_LEVEL: 'silent', GATEHOUSE_ROOT_TOKEN: token, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${url}/api/v4/user`, { headers: { 'PRIVATE-TOKEN': token } })).ok) return { url, child };
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('instance did not start');
}

/** Stops the process (a killed one has a signal code and no exit code) and waits for it. */
export const stopInstance = (child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM') =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill(signal);
  });

/**
 * A fresh PostgreSQL database for instances to share when the tests run on PostgreSQL
 * (GATEHOUSE_TEST_PG, the admin connection), its URL; undefined on SQLite.
 */
export async function createSharedDatabase(prefix: string): Promise<string | undefined> {
  const admin = process.env.GATEHOUSE_TEST_PG;
  if (!admin) return undefined;
  const name = `${prefix}_${crypto.randomBytes(5).toString('hex')}`;
  const c = new pg.Client(pgConnection(admin));
  await c.connect();
  await c.query(`CREATE DATABASE ${name}`);
  await c.end();
  return admin.replace(/^(postgres(?:ql)?:\/\/[^/]*)\/[^?]*/, `$1/${name}`);
}

export async function dropSharedDatabase(databaseUrl: string | undefined): Promise<void> {
  const admin = process.env.GATEHOUSE_TEST_PG;
  if (!databaseUrl || !admin) return;
  const c = new pg.Client(pgConnection(admin));
  await c.connect();
  await c.query(`DROP DATABASE IF EXISTS ${databaseUrl.split('/').pop()!.split('?')[0]} WITH (FORCE)`);
  await c.end();
}
