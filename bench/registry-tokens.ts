/**
 * The "registry tokens" section of `npm run bench` (BENCH_ONLY=registry): token requests per
 * second to `/jwt/auth` (the registry asks for one per push and pull) from BENCH_CONNECTIONS
 * concurrent clients (default 10), a Developer's personal access token in HTTP Basic, on a
 * project with BENCH_REGISTRY_RULES protection rules (default 1,000), on SQLite and (with
 * BENCH_PG) PostgreSQL. Three requests: a push to a path no rule matches (every rule read and
 * matched), a push the last rule refuses (403 DENIED), and a pull (no rule read).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { CONNECTIONS, SECONDS, WARMUP_SECONDS, envNumber, fmtInt, fmtMs, gatehouseApi, percentile, printAligned, startChild, withPgDatabase, withTempDir, type LoadRow } from './lib.ts';
import type { DeliveryChildReady } from './delivery-child.ts';

export const REGISTRY_TOKENS_LABEL = 'registry tokens';

const RULES = envNumber('BENCH_REGISTRY_RULES', 1000, 1);

interface Row extends LoadRow {
  request: string;
  /** Answers other than the one expected. */
  unexpected: number;
}
export interface RegistryTokensReport {
  rows: Row[];
}

async function load(url: string, authorization: string, expected: number, seconds: number) {
  const latencies: number[] = [];
  let unexpected = 0;
  const instance = autocannon({ url, headers: { Authorization: authorization }, connections: CONNECTIONS, duration: seconds, timeout: 30 });
  instance.on('response', (_c, status, _b, ms) => {
    if (status === expected) latencies.push(ms);
    else unexpected++;
  });
  const result = await instance;
  latencies.sort((a, b) => a - b);
  return { rps: latencies.length / result.duration, p50: percentile(latencies, 50), p99: percentile(latencies, 99), unexpected };
}

async function gatehouse(target: string, env: Record<string, string>, dir: string): Promise<Row[]> {
  const token = `bench-${crypto.randomBytes(12).toString('hex')}`;
  const keyFile = path.join(dir, 'registry.key');
  if (!fs.existsSync(keyFile)) fs.writeFileSync(keyFile, crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }));
  const server = await startChild<DeliveryChildReady>(
    'delivery-child.ts',
    [],
    { BENCH_DATA_DIR: path.join(dir, target.replace(/\W+/g, '-')), BENCH_ROOT_TOKEN: token, GATEHOUSE_WORKERS: '0', GATEHOUSE_REGISTRY_URL: 'http://127.0.0.1:5000', GATEHOUSE_REGISTRY_KEY: keyFile, ...env },
    120_000,
  );
  try {
    const api = gatehouseApi(server.info.url, token);
    const group = (await api('/groups', 'POST', { name: 'Registry bench', path: 'registry-bench' })) as { id: number };
    const project = (await api('/projects', 'POST', { name: 'app', namespace_id: group.id })) as { id: number; path_with_namespace: string };
    const user = (await api('/users', 'POST', { username: 'developer', name: 'Developer', email: 'developer@example.com', password: `pw-${token}` })) as { id: number };
    await api(`/projects/${project.id}/members`, 'POST', { user_id: user.id, access_level: 30 });
    const pat = (await api(`/users/${user.id}/personal_access_tokens`, 'POST', { name: 'registry', scopes: ['read_registry', 'write_registry'] })) as { token: string };
    const base = project.path_with_namespace;
    console.log(`  ${target}: ${fmtInt(RULES)} rules…`);
    for (let i = 0; i < RULES; i++) await api(`/projects/${project.id}/registry/protection/repository/rules`, 'POST', { repository_path_pattern: `${base}/team-${i}/*`, minimum_access_level_for_push: 'maintainer' });
    const authorization = `Basic ${Buffer.from(`developer:${pat.token}`).toString('base64')}`;
    const url = (scope: string) => `${server.info.url}/jwt/auth?service=container_registry&scope=${encodeURIComponent(scope)}`;
    const requests: [string, string, number][] = [
      ['push, no rule matches', url(`repository:${base}/open/app:pull,push`), 200],
      ['push, the last rule refuses (403)', url(`repository:${base}/team-${RULES - 1}/app:pull,push`), 403],
      ['pull', url(`repository:${base}/open/app:pull`), 200],
    ];
    const rows: Row[] = [];
    for (const [request, u, expected] of requests) {
      if (WARMUP_SECONDS > 0) await load(u, authorization, expected, WARMUP_SECONDS);
      rows.push({ target, request, ...(await load(u, authorization, expected, SECONDS)) });
    }
    return rows;
  } finally {
    await server.stop();
  }
}

export async function runRegistryTokens(opts: { pgAdmin?: string }): Promise<RegistryTokensReport> {
  console.log(`\n${REGISTRY_TOKENS_LABEL}: /jwt/auth with ${fmtInt(RULES)} protection rules on the project, ${CONNECTIONS} clients, ${SECONDS} s each`);
  const report: RegistryTokensReport = { rows: [] };
  const attempt = async (target: string, run: () => Promise<Row[]>) => {
    try {
      report.rows.push(...(await run()));
    } catch (e) {
      report.rows.push({ target, request: '-', rps: NaN, p50: NaN, p99: NaN, unexpected: 0, problem: (e as Error).message });
    }
  };
  await withTempDir(async (dir) => {
    await attempt('Gatehouse, SQLite', () => gatehouse('Gatehouse, SQLite', {}, dir));
    const pgUrl = opts.pgAdmin;
    if (pgUrl) await attempt('Gatehouse, PostgreSQL', () => withPgDatabase(pgUrl, (url) => gatehouse('Gatehouse, PostgreSQL', { DATABASE_URL: url }, dir)));
  });
  return report;
}

export function printRegistryTokens(report: RegistryTokensReport): void {
  console.log(`\nRegistry tokens: /jwt/auth, a Developer's token in HTTP Basic, ${fmtInt(RULES)} protection rules on the project, ${CONNECTIONS} concurrent clients`);
  printAligned(
    ['target', 'request', 'tokens/s', 'p50 ms', 'p99 ms', 'unexpected'],
    report.rows.map((r) => (r.problem ? [r.target, `could not run: ${r.problem.slice(0, 120)}`, '', '', '', ''] : [r.target, r.request, fmtInt(r.rps), fmtMs(r.p50), fmtMs(r.p99), fmtInt(r.unexpected)])),
    new Set([2, 3, 4, 5]),
  );
}

