/**
 * Gatehouse for the webhook-delivery bench (bench/deliveries.ts), in its own process:
 * started like bench/server-child.ts (loadConfig + startServer) on a fresh database (SQLite
 * in BENCH_DATA_DIR, or PostgreSQL when DATABASE_URL is set), without any seed data — the
 * parent sets it up through the API. The job workers run in this process, as in production:
 * GATEHOUSE_WORKERS, GATEHOUSE_HOOK_TIMEOUT_SECONDS and GATEHOUSE_SECRET_KEY come from the
 * environment the parent gives it.
 *
 * Reports one `@@bench {json}` line on stdout once it listens, and serves until SIGTERM or
 * until its stdin closes.
 */
import path from 'node:path';
import { loadConfig } from '../bff/src/config.ts';
import { startServer } from '../bff/src/server.ts';
import { serveUntilParentGoes } from './lib.ts';

export interface DeliveryChildReady {
  url: string;
  engine: 'sqlite' | 'postgres';
  workers: number;
  hookTimeoutMs: number;
  /** The SQLite file (for the parent to read the job and log rows afterwards), or null. */
  sqliteFile: string | null;
}

async function main(): Promise<void> {
  const env = process.env;
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    GATEHOUSE_DATA_DIR: env.BENCH_DATA_DIR ?? '',
    GATEHOUSE_DEMO: '0',
    GATEHOUSE_ROOT_PASSWORD: 'bench-password',
    GATEHOUSE_ROOT_TOKEN: env.BENCH_ROOT_TOKEN ?? '',
    GATEHOUSE_LOG_LEVEL: env.BENCH_LOG_LEVEL ?? 'silent',
    GATEHOUSE_WORKERS: env.GATEHOUSE_WORKERS ?? '4',
    GATEHOUSE_HOOK_TIMEOUT_SECONDS: env.GATEHOUSE_HOOK_TIMEOUT_SECONDS ?? '10',
    GATEHOUSE_SECRET_KEY: env.GATEHOUSE_SECRET_KEY ?? '',
    // The error tracking bench sends past the default per-key rate (bench/error-tracking.ts).
    ...(env.GATEHOUSE_ERROR_TRACKING_EVENTS_PER_MINUTE ? { GATEHOUSE_ERROR_TRACKING_EVENTS_PER_MINUTE: env.GATEHOUSE_ERROR_TRACKING_EVENTS_PER_MINUTE } : {}),
    // The code suggestions bench proxies completions to its gateway double, past the default per-user limit (bench/code-suggestions.ts).
    ...(env.GATEHOUSE_AI_GATEWAY_URL ? { GATEHOUSE_AI_GATEWAY_URL: env.GATEHOUSE_AI_GATEWAY_URL, GATEHOUSE_CODE_SUGGESTIONS_PER_MINUTE: env.GATEHOUSE_CODE_SUGGESTIONS_PER_MINUTE ?? '60' } : {}),
    // The registry token bench signs tokens (bench/registry-tokens.ts).
    ...(env.GATEHOUSE_REGISTRY_URL ? { GATEHOUSE_REGISTRY_URL: env.GATEHOUSE_REGISTRY_URL, GATEHOUSE_REGISTRY_KEY: env.GATEHOUSE_REGISTRY_KEY ?? '' } : {}),
    ...(env.DATABASE_URL ? { DATABASE_URL: env.DATABASE_URL } : {}),
    // Several instances on one database (bench/proxy.ts) share one repositories directory.
    ...(env.GATEHOUSE_REPOSITORIES_DIR ? { GATEHOUSE_REPOSITORIES_DIR: env.GATEHOUSE_REPOSITORIES_DIR } : {}),
  });
  const running = await startServer(config);
  const url = serveUntilParentGoes(running);

  const ready: DeliveryChildReady = {
    url,
    engine: config.databaseUrl ? 'postgres' : 'sqlite',
    workers: config.workers,
    hookTimeoutMs: config.hookTimeoutMs,
    sqliteFile: config.databaseUrl ? null : path.join(config.dataDir, 'gatehouse.sqlite3'),
  };
  process.stdout.write(`@@bench ${JSON.stringify(ready)}\n`);
}

main().catch((err: unknown) => {
  console.error('bench delivery child failed:', err);
  process.exit(1);
});
