import crypto from 'node:crypto';
import { startTestServer } from '../bff/test/harness.ts';
import { formatFailures, runFuzz } from '../bff/test/fuzz-run.ts';

/**
 * The long fuzz run: the same generators as bff/test/fuzz.test.ts, more cases, a fresh seed.
 *
 *   npm run fuzz -- [--runs N] [--seed S] [--verbose]      (or FUZZ_RUNS, FUZZ_SEED)
 *   GATEHOUSE_TEST_PG=postgresql:///postgres?host=/var/run/postgresql npm run fuzz   (PostgreSQL)
 *
 * The seed is printed first, so a failing run can be replayed with the same cases.
 */
function option(name: string): string | undefined {
  const args = process.argv.slice(2);
  const i = args.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i < 0) return undefined;
  return args[i].includes('=') ? args[i].slice(args[i].indexOf('=') + 1) : args[i + 1];
}

const runs = Number(option('runs') ?? process.env.FUZZ_RUNS ?? 20_000);
const seed = Number(option('seed') ?? process.env.FUZZ_SEED ?? crypto.randomInt(2 ** 31 - 1));
const verbose = process.argv.includes('--verbose');
if (!Number.isSafeInteger(runs) || runs < 1 || !Number.isSafeInteger(seed)) {
  console.error('usage: npm run fuzz -- [--runs N] [--seed S] [--verbose]');
  process.exit(2);
}
const engine = process.env.GATEHOUSE_TEST_PG ? 'postgres' : 'sqlite';
const replay = `${engine === 'postgres' ? 'GATEHOUSE_TEST_PG=… ' : ''}npm run fuzz -- --runs ${runs} --seed ${seed}`;
console.log(`fuzz: ${runs} cases on ${engine}, seed ${seed} (replay: ${replay})`);

const server = await startTestServer({ GATEHOUSE_WORKERS: '0', GATEHOUSE_HOOK_TIMEOUT_SECONDS: '1' });
let failed = true;
try {
  const report = await runFuzz(server, { runs, seed, progress: verbose ? (line) => console.log(`  ${line}`) : undefined });
  console.log(`${report.sent} requests over ${report.operations} operations in ${report.seconds.toFixed(1)} s`);
  console.log(`statuses: ${JSON.stringify(report.statuses)}`);
  console.log(`slowest: ${report.slowest.map((s) => `${s.ms} ms ${s.status} ${s.request.slice(0, 120)}`).join('\n         ')}`);
  if (report.failures.length) {
    console.log(`\n${report.failures.length} failures:\n${formatFailures(report.failures, 5)}`);
    console.log(`\nseed ${seed} (replay: ${replay})`);
  } else {
    console.log('no failures');
    failed = false;
  }
} finally {
  await server.close();
}
process.exitCode = failed ? 1 : 0;
