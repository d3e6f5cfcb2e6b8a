/**
 * The "code suggestions" section of `npm run bench` (BENCH_ONLY=suggestions): completion
 * requests per second through Gatehouse (`POST /api/v4/code_suggestions/completions`, a
 * developer's personal access token with the `ai_features` scope) to an AI gateway double that
 * answers at once (bench/ai-gateway-child.ts, its own process), beside the same requests sent
 * to the double directly: what Gatehouse adds to each request (authentication, the per-user rate
 * limit, which writes to the database, the instance's signed token for the gateway, the proxying).
 * BENCH_CONNECTIONS concurrent clients (default 10), BENCH_SECONDS each (default 4), on SQLite
 * and (with BENCH_PG) PostgreSQL. Gatehouse's CPU per request is read from /proc.
 *
 * It measures; an answer other than 200 is counted as unexpected, never a failure.
 */
import crypto from 'node:crypto';
import path from 'node:path';
import autocannon from 'autocannon';
import { CONNECTIONS, SECONDS, WARMUP_SECONDS, cpuSeconds, fmtInt, fmtMs, fmtRatio, gatehouseApi, percentile, printAligned, startChild, withPgDatabase, withTempDir, type LoadRow } from './lib.ts';
import type { DeliveryChildReady } from './delivery-child.ts';
import type { AiGatewayChildReady, AiGatewayStats } from './ai-gateway-child.ts';

export const CODE_SUGGESTIONS_LABEL = 'code suggestions';

/** What an editor sends for a completion: the file around the cursor. */
const PROMPT = JSON.stringify({
  current_file: {
    file_name: 'src/sum.ts',
    content_above_cursor: `${'// A module of the project under edit.\n'.repeat(40)}export function sum(a: number, b: number) {\n  `,
    content_below_cursor: '\n}\n',
  },
  intent: 'completion',
});

interface Row extends LoadRow {
  /** Gatehouse's CPU per request (µs), for the rows through it. */
  cpuUs?: number;
  /** Answers other than 200. */
  unexpected: number;
}
export interface CodeSuggestionsReport {
  rows: Row[];
  /** Completions the double received from Gatehouse's runs (each timed request forwarded once). */
  forwarded?: { sent: number; received: number };
}

async function load(url: string, headers: Record<string, string>, seconds: number) {
  const latencies: number[] = [];
  let unexpected = 0;
  const instance = autocannon({ url, method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: PROMPT, connections: CONNECTIONS, duration: seconds, timeout: 30 });
  instance.on('response', (_c, status, _b, ms) => {
    if (status === 200) latencies.push(ms);
    else unexpected++;
  });
  const result = await instance;
  latencies.sort((a, b) => a - b);
  return { rps: latencies.length / result.duration, p50: percentile(latencies, 50), p99: percentile(latencies, 99), unexpected, answered: latencies.length };
}

async function gatewayStats(url: string): Promise<AiGatewayStats> {
  return (await (await fetch(`${url}/stats`)).json()) as AiGatewayStats;
}

export async function runCodeSuggestions(opts: { pgAdmin?: string }): Promise<CodeSuggestionsReport> {
  console.log(`\n${CODE_SUGGESTIONS_LABEL}: completions through Gatehouse to a gateway double that answers at once, and to the double directly, ${CONNECTIONS} clients, ${SECONDS} s each`);
  const report: CodeSuggestionsReport = { rows: [] };
  const gateway = await startChild<AiGatewayChildReady>('ai-gateway-child.ts', [], {}, 60_000);
  try {
    const direct = `${gateway.info.url}/v2/code/completions`;
    if (WARMUP_SECONDS > 0) await load(direct, {}, WARMUP_SECONDS);
    const { answered: _a, ...d } = await load(direct, {}, SECONDS);
    report.rows.push({ target: 'the gateway double, directly', ...d });

    let sent = 0;
    const before = (await gatewayStats(gateway.info.url)).completions;
    const through = async (target: string, env: Record<string, string>, dir: string) => {
      const token = `bench-${crypto.randomBytes(12).toString('hex')}`;
      const server = await startChild<DeliveryChildReady>(
        'delivery-child.ts',
        [],
        { BENCH_DATA_DIR: path.join(dir, target.replace(/\W+/g, '-')), BENCH_ROOT_TOKEN: token, GATEHOUSE_WORKERS: '0', GATEHOUSE_AI_GATEWAY_URL: gateway.info.url, GATEHOUSE_CODE_SUGGESTIONS_PER_MINUTE: '100000000', ...env },
        120_000,
      );
      try {
        const api = gatehouseApi(server.info.url, token);
        const user = (await api('/users', 'POST', { username: 'coder', name: 'Coder', email: 'coder@example.com', password: `pw-${token}` })) as { id: number };
        const pat = (await api(`/users/${user.id}/personal_access_tokens`, 'POST', { name: 'editor', scopes: ['ai_features'] })) as { token: string };
        const url = `${server.info.url}/api/v4/code_suggestions/completions`;
        const headers = { 'PRIVATE-TOKEN': pat.token };
        if (WARMUP_SECONDS > 0) sent += (await load(url, headers, WARMUP_SECONDS)).answered;
        const cpuBefore = cpuSeconds(server.pid);
        const { answered, ...r } = await load(url, headers, SECONDS);
        const cpuAfter = cpuSeconds(server.pid);
        sent += answered;
        const cpuUs = cpuBefore !== undefined && cpuAfter !== undefined && answered ? ((cpuAfter - cpuBefore) * 1e6) / answered : undefined;
        report.rows.push({ target, ...r, cpuUs });
      } finally {
        await server.stop();
      }
    };
    const attempt = async (target: string, run: () => Promise<void>) => {
      try {
        await run();
      } catch (e) {
        report.rows.push({ target, rps: NaN, p50: NaN, p99: NaN, unexpected: 0, problem: (e as Error).message });
      }
    };
    await withTempDir(async (dir) => {
      await attempt('through Gatehouse, SQLite', () => through('through Gatehouse, SQLite', {}, dir));
      const pgUrl = opts.pgAdmin;
      if (pgUrl) await attempt('through Gatehouse, PostgreSQL', () => withPgDatabase(pgUrl, (url) => through('through Gatehouse, PostgreSQL', { DATABASE_URL: url }, dir)));
    });
    report.forwarded = { sent, received: (await gatewayStats(gateway.info.url)).completions - before };
  } finally {
    await gateway.stop();
  }
  return report;
}

export function printCodeSuggestions(report: CodeSuggestionsReport): void {
  console.log(`\nCode suggestions: POST /code_suggestions/completions to a gateway double that answers at once, ${CONNECTIONS} concurrent clients`);
  const direct = report.rows[0]?.rps;
  printAligned(
    ['target', 'completions/s', 'p50 ms', 'p99 ms', 'of direct', 'CPU µs/request', 'unexpected'],
    report.rows.map((r) =>
      r.problem
        ? [r.target, `could not run: ${r.problem.slice(0, 120)}`, '', '', '', '', '']
        : [r.target, fmtInt(r.rps), fmtMs(r.p50), fmtMs(r.p99), direct ? `${fmtRatio(r.rps / direct)}×` : '-', r.cpuUs === undefined ? '-' : fmtInt(r.cpuUs), fmtInt(r.unexpected)],
    ),
    new Set([1, 2, 3, 4, 5, 6]),
  );
  if (report.forwarded) {
    const { sent, received } = report.forwarded;
    // Requests still under way when a timed run ends reach the double without being counted as answered: at most one per client and run.
    const inFlight = received - sent;
    console.log(`  forwarded: ${fmtInt(received)} completions reached the double for ${fmtInt(sent)} answered through Gatehouse${inFlight >= 0 && inFlight <= CONNECTIONS * 4 ? ` (each once; ${fmtInt(inFlight)} under way when a run ended)` : ' (MISMATCH)'}`);
  }
}
