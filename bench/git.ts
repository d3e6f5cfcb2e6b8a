/**
 * The "git" section of `npm run bench` (label "git push clone"): a 10,000-commit history pushed
 * to Gatehouse over smart HTTP (through `git http-backend` and the pre-receive checks) and
 * cloned back, each beside the same operation by plain `git` over the local filesystem
 * (`file://`, which transfers a pack as a remote would, without HTTP or the server's checks).
 * The history is made once with `git fast-import`: every commit changes one of 200 small files,
 * by one of four authors, with messages the demo push rule would accept.
 *
 * It measures, never judges. Each operation runs BENCH_GIT_RUNS times (default 3; a push goes
 * to a fresh empty project each time) and the median is printed, with the server's CPU time.
 *
 * Environment: BENCH_GIT_COMMITS (default 10000), BENCH_GIT_RUNS (default 3).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { GitChildReady } from './git-child.ts';
import { cpuSeconds, envNumber, printAligned, startChild, withTempDir } from './lib.ts';

export const GIT_LABEL = 'git push clone';

const run = promisify(execFile);
const COMMITS = Math.round(envNumber('BENCH_GIT_COMMITS', 10_000, 1));
const RUNS = Math.round(envNumber('BENCH_GIT_RUNS', 3, 1));

export interface GitRow {
  operation: string;
  gatehouseS: number;
  localS: number;
  serverCpuS?: number;
}
export interface GitReport {
  commits: number;
  runs: number;
  historyS: number;
  packBytes: number;
  rows: GitRow[];
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return (performance.now() - t) / 1000;
}

/** A repository at `dir` whose main holds `commits` commits, written by one fast-import run. */
async function makeHistory(dir: string, commits: number): Promise<void> {
  await run('git', ['init', '-q', '--initial-branch=main', dir]);
  const authors = ['Alice Owner <alice@example.com>', 'Bob Maintainer <bob@example.com>', 'Carol Developer <carol@example.com>', 'Dave Reporter <dave@example.com>'];
  const parts: string[] = [];
  const start = Math.floor(Date.now() / 1000) - commits * 600;
  for (let i = 1; i <= commits; i++) {
    const who = authors[i % authors.length];
    const stamp = `${start + i * 600} +0000`;
    const message = `feat: step ${i}\n`;
    const content = `// file ${i % 200}, last changed by step ${i}\nexport const value = ${crypto.randomInt(1_000_000)};\n`;
    parts.push(`commit refs/heads/main\nauthor ${who} ${stamp}\ncommitter ${who} ${stamp}\ndata ${Buffer.byteLength(message)}\n${message}M 100644 inline src/file-${i % 200}.js\ndata ${Buffer.byteLength(content)}\n${content}`);
  }
  await new Promise<void>((resolve, reject) => {
    const child = execFile('git', ['-C', dir, 'fast-import', '--quiet'], (err) => (err ? reject(err) : resolve()));
    child.stdin!.end(parts.join('\n') + '\n');
  });
  await run('git', ['-C', dir, 'reset', '-q', '--hard', 'main']);
}

const env = (home: string) => ({ ...process.env, GIT_TERMINAL_PROMPT: '0', HOME: home, GIT_CONFIG_NOSYSTEM: '1' });

export async function runGit(): Promise<GitReport> {
  console.log(`\n${GIT_LABEL}: a ${COMMITS.toLocaleString('en')}-commit history, ${RUNS} run(s) per operation`);
  return withTempDir(async (dir) => {
    const source = path.join(dir, 'source');
    const historyS = await timed(() => makeHistory(source, COMMITS));
    const token = `bench-root-${crypto.randomBytes(12).toString('hex')}`;
    const child = await startChild<GitChildReady>('git-child.ts', [], { BENCH_DATA_DIR: path.join(dir, 'data'), BENCH_ROOT_TOKEN: token, BENCH_GIT_PROJECTS: String(RUNS) }, 120_000);
    try {
      const e = env(dir);
      const remote = (project: string) => {
        const u = new URL(`${child.info.url}/${project}.git`);
        u.username = 'root';
        u.password = token;
        return u.toString();
      };
      const pushes: number[] = [];
      const localPushes: number[] = [];
      const clones: number[] = [];
      const localClones: number[] = [];
      let pushCpu = 0;
      let cloneCpu = 0;
      for (let i = 0; i < RUNS; i++) {
        const bare = path.join(dir, `local-${i}.git`);
        await run('git', ['init', '-q', '--bare', '--initial-branch=main', bare]);
        localPushes.push(await timed(() => run('git', ['-C', source, 'push', '-q', `file://${bare}`, 'main'], { env: e })));
        const before = cpuSeconds(child.pid) ?? 0;
        pushes.push(await timed(() => run('git', ['-C', source, 'push', '-q', remote(child.info.projects[i]), 'main'], { env: e, maxBuffer: 16 * 1024 * 1024 })));
        pushCpu += (cpuSeconds(child.pid) ?? 0) - before;
      }
      for (let i = 0; i < RUNS; i++) {
        const target = path.join(dir, `clone-${i}`);
        localClones.push(await timed(() => run('git', ['clone', '-q', `file://${path.join(dir, 'local-0.git')}`, `${target}-local`], { env: e })));
        const before = cpuSeconds(child.pid) ?? 0;
        clones.push(await timed(() => run('git', ['clone', '-q', remote(child.info.projects[0]), `${target}-http`], { env: e })));
        cloneCpu += (cpuSeconds(child.pid) ?? 0) - before;
        const [a, b] = await Promise.all([run('git', ['-C', `${target}-local`, 'rev-parse', 'HEAD']), run('git', ['-C', `${target}-http`, 'rev-parse', 'HEAD'])]);
        if (a.stdout !== b.stdout) throw new Error('the clone over HTTP does not hold the pushed history');
        fs.rmSync(`${target}-local`, { recursive: true, force: true });
        fs.rmSync(`${target}-http`, { recursive: true, force: true });
      }
      const pack = (await run('git', ['-C', path.join(dir, 'local-0.git'), 'count-objects', '-v'])).stdout;
      const packBytes = Number(/size-pack: (\d+)/.exec(pack)?.[1] ?? 0) * 1024;
      return {
        commits: COMMITS,
        runs: RUNS,
        historyS,
        packBytes,
        rows: [
          { operation: 'push (new repository)', gatehouseS: median(pushes), localS: median(localPushes), serverCpuS: pushCpu / RUNS },
          { operation: 'clone', gatehouseS: median(clones), localS: median(localClones), serverCpuS: cloneCpu / RUNS },
        ],
      };
    } finally {
      await child.stop();
    }
  });
}

export function printGit(r: GitReport): void {
  console.log(`\nGit over smart HTTP (${r.commits.toLocaleString('en')} commits, pack ${(r.packBytes / 1024 / 1024).toFixed(1)} MB, median of ${r.runs}; history made in ${r.historyS.toFixed(2)} s)`);
  printAligned(
    ['operation', 'Gatehouse HTTP', 'git file://', 'ratio', 'server Node CPU'],
    r.rows.map((row) => [row.operation, `${row.gatehouseS.toFixed(2)} s`, `${row.localS.toFixed(2)} s`, `${(row.gatehouseS / row.localS).toFixed(2)}×`, row.serverCpuS === undefined ? '-' : `${row.serverCpuS.toFixed(2)} s`]),
    new Set([1, 2, 3, 4]),
  );
  console.log('  server Node CPU: the server process itself, without the git processes it runs (http-backend, pack-objects, hooks).');
  console.log(`  load average now: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')} (times are noisy on a busy machine)`);
}
