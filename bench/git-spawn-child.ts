/**
 * One measurement of bench/git-spawn.ts, in a process of its own: `git rev-parse` run N times
 * from a process holding `heapMb` of live objects (a server's heap), either started from this
 * process (`direct`, as git() did before the spawner) or through the spawner (`spawner`, git()).
 * Prints one JSON line: wall ms and CPU ms per run, the CPU of this process, of the spawner and
 * of every git they started and waited for (from /proc: utime, stime, cutime, cstime).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { git, spawnGit } from '../bff/src/services/git/git-run.ts';

const [mode, heapArg, runsArg] = process.argv.slice(2);
const heapMb = Number(heapArg);
const runs = Number(runsArg);

/** CPU ms of a process and of the children it waited for. */
function cpuMs(pid: number | 'self'): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14–17 of stat (utime, stime, cutime, cstime), counted from the state (field 3).
  const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(f[i]), 0);
  return (ticks * 1000) / 100;
}

function spawnerPid(): number | undefined {
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === process.pid && fs.readFileSync(`/proc/${d}/cmdline`, 'utf8').includes('git-spawner.mjs')) return Number(d);
    } catch {
      /* gone */
    }
  }
  return undefined;
}

/** git() as it was before the spawner: started from this process. */
const direct = (dir: string, args: string[]) =>
  new Promise<void>((resolve, reject) => {
    const child = spawnGit(dir, args);
    child.stdout.resume();
    child.stderr.resume();
    child.stdin.end();
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`git exited ${code}`))));
  });

// Live objects in small pieces, as a server's heap is: many pages, scattered.
const ballast: { n: number; s: string; a: number[] }[] = [];
for (let i = 0; i < heapMb * 1024; i++) ballast.push({ n: i, s: `x${i}`.repeat(40), a: Array.from({ length: 60 }, (_, k) => k + i) });

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-spawn-'));
execFileSync('git', ['init', '--quiet', '--bare', dir]);
const run = mode === 'direct' ? () => direct(dir, ['rev-parse', '--git-dir']) : () => git(dir, ['rev-parse', '--git-dir']).then(() => undefined);
for (let i = 0; i < 20; i++) await run();
const pid = mode === 'spawner' ? spawnerPid() : undefined;
const before = cpuMs('self') + (pid ? cpuMs(pid) : 0);
const started = performance.now();
for (let i = 0; i < runs; i++) await run();
const wallMs = performance.now() - started;
const cpu = cpuMs('self') + (pid ? cpuMs(pid) : 0) - before;
const rssMb = process.memoryUsage().rss / 1024 / 1024;
const pteKb = Number(/VmPTE:\s+(\d+)/.exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0);
fs.rmSync(dir, { recursive: true, force: true });
console.log(JSON.stringify({ mode, heapMb, rssMb, pteKb, runs, wallMsPerRun: wallMs / runs, cpuMsPerRun: cpu / runs, live: ballast.length }));
