/**
 * The Gatehouse server for the exports section of `npm run bench` (bench/exports.ts), in its own
 * process so that its memory is measured alone: BENCH_DATA_DIR (and DATABASE_URL on
 * PostgreSQL), root with BENCH_ROOT_TOKEN, one job worker. Reports `@@bench {json}`, then serves
 * until its stdin closes.
 */
import { loadConfig } from '../bff/src/config.ts';
import { startServer } from '../bff/src/server.ts';
import { benchServerEnv, serveUntilParentGoes } from './lib.ts';

export interface ExportsChildReady {
  url: string;
}

async function main(): Promise<void> {
  const config = loadConfig({ ...process.env, ...benchServerEnv(), GATEHOUSE_WORKERS: '1', ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}) });
  const running = await startServer(config);
  const ready: ExportsChildReady = { url: serveUntilParentGoes(running) };
  process.stdout.write(`@@bench ${JSON.stringify(ready)}\n`);
}

main().catch((err: unknown) => {
  console.error('bench exports child failed:', err);
  process.exit(1);
});
