/**
 * The "Console" section of `npm run bench`: the figures e2e/perf.spec.ts records in Chromium
 * (what the groups page's first load transfers, its LCP, a delivery-log filter at 10,000
 * deliveries at full speed and at 4× CPU slowdown), printed beside the targets. It
 * builds the console first, so the figures are the working tree's, then runs the spec against
 * a fresh server of its own. Like the rest of the bench it never fails: without Chromium, or
 * when the spec cannot run, it prints why.
 *
 * Environment: CHROMIUM_PATH (default /usr/bin/chromium: the full browser, as users run it; the
 * e2e suite runs in Chromium's headless shell, scripts/chromium.sh).
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import type { PerfFigures } from '../e2e/perf.spec.ts';
import { printAligned, registerCleanup, repoRoot } from './lib.ts';

export const CONSOLE_LABEL = 'console';

export type ConsoleReport = { figures: PerfFigures; problem?: string } | { figures?: undefined; problem: string };

function run(command: string, args: string[], env: Record<string, string>): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const stop = registerCleanup(async () => void child.kill('SIGTERM'));
    child.on('close', (code) => {
      void stop();
      resolve({ code: code ?? 1, output });
    });
  });
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });

const tail = (text: string, lines = 12) => text.trim().split('\n').slice(-lines).join('\n    ');

export async function runConsole(): Promise<ConsoleReport> {
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  console.log(`\n${CONSOLE_LABEL}: building the console, then e2e/perf.spec.ts in ${chromium}`);
  if (!fs.existsSync(chromium)) return { problem: `skipped: no Chromium at ${chromium} (install Debian's chromium or set CHROMIUM_PATH)` };
  const build = await run('npx', ['vite', 'build', '--logLevel', 'warn'], {});
  if (build.code !== 0) return { problem: `skipped: the console did not build:\n    ${tail(build.output)}` };

  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-perf-')), 'figures.json');
  const spec = await run('npx', ['playwright', 'test', 'e2e/perf.spec.ts', '--reporter=line'], {
    E2E_PORT: String(await freePort()),
    CHROMIUM_PATH: chromium,
    PERF_FIGURES_FILE: file,
  });
  const figures = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as PerfFigures) : undefined;
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
  const problem = spec.code === 0 ? undefined : `the perf spec failed, figures may be missing:\n    ${tail(spec.output)}`;
  return figures ? { figures, problem } : { problem: problem ?? 'the perf spec recorded no figures' };
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const ms = (n: number) => `${Math.round(n)} ms`;

export function printConsole(report: ConsoleReport): void {
  console.log('\nConsole (Chromium, localhost; e2e/perf.spec.ts)');
  const f = report.figures;
  if (f) {
    const rows: string[][] = [];
    if (f.groupsPage) {
      const g = f.groupsPage;
      rows.push(['groups page JS+CSS, first load', kb(g.transferredBytes), `≤ 200 KB`, `${kb(g.decodedBytes)} decoded, ${g.files} files, ${g.encodings.join('/')}`]);
    }
    if (f.lcp) rows.push(['groups page LCP (median)', ms(f.lcp.medianMs), '< 1000 ms', `runs: ${f.lcp.runsMs.join(', ')} ms`]);
    for (const d of f.deliveryFilter ?? []) {
      rows.push([`delivery filter, 10,000 deliveries, ${d.cpuSlowdown}× CPU`, ms(d.medianMs), d.cpuSlowdown === 1 ? '< 100 ms' : '-', `request ${ms(d.requestMedianMs)} (median), worst ${ms(d.worstMs)} of ${d.changes}`]);
      rows.push([`  longest main-thread task, ${d.cpuSlowdown}× CPU`, d.longestTaskMs ? ms(d.longestTaskMs) : 'none > 50 ms', d.cpuSlowdown === 1 ? '≤ 50 ms' : '-', '']);
    }
    printAligned(['figure', 'value', 'target', 'detail'], rows, new Set([1]));
    console.log(`  load average now: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')} (times are noisy on a busy machine)`);
  }
  if (report.problem) console.log(`  ${report.problem}`);
}
