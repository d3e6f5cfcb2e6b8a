/**
 * The "git spawn" section of `npm run bench` (label "git spawn", BENCH_ONLY=spawn): what one
 * git run costs the machine, started from the server's own process (as git() did before the
 * spawner) or through the spawner process (git-spawner.mjs), while the process starting it
 * holds 0, 250 or 1,000 MB of live objects. A fork copies the page tables of what its process
 * has touched, so a run started from a large process costs more; the spawner stays small.
 *
 * Each measurement runs in a fresh process (bench/git-spawn-child.ts): BENCH_SPAWN_RUNS runs
 * (default 300) of `git rev-parse --git-dir`, one after the other; CPU is that process's, the
 * spawner's and every git's (from /proc). It measures, never judges.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { envNumber, printAligned } from './lib.ts';

export const GIT_SPAWN_LABEL = 'git spawn';

const run = promisify(execFile);
const RUNS = Math.round(envNumber('BENCH_SPAWN_RUNS', 300, 10));
const HEAPS_MB = [0, 250, 1000];

interface Measurement {
  mode: 'direct' | 'spawner';
  heapMb: number;
  rssMb: number;
  pteKb: number;
  wallMsPerRun: number;
  cpuMsPerRun: number;
}
export type GitSpawnReport = Measurement[];

export async function runGitSpawn(): Promise<GitSpawnReport> {
  console.log(`\ngit spawn: ${RUNS} runs of git rev-parse per measurement, from processes holding ${HEAPS_MB.join(', ')} MB…`);
  const out: Measurement[] = [];
  for (const heapMb of HEAPS_MB) {
    for (const mode of ['direct', 'spawner'] as const) {
      const { stdout } = await run(process.execPath, ['--max-old-space-size=4096', '--import', 'tsx', 'bench/git-spawn-child.ts', mode, String(heapMb), String(RUNS)], { maxBuffer: 1 << 20 });
      out.push(JSON.parse(stdout.trim().split('\n').pop()!) as Measurement);
    }
  }
  return out;
}

export function printGitSpawn(report: GitSpawnReport): void {
  console.log(`\nGit spawn (${RUNS} runs of git rev-parse each; CPU of the process, the spawner and git)\n`);
  const cells = report.map((m) => {
    const direct = report.find((d) => d.mode === 'direct' && d.heapMb === m.heapMb)!;
    return [
      `${m.heapMb} MB`,
      m.mode === 'direct' ? 'from the process' : 'through the spawner',
      `${Math.round(m.rssMb)} MB`,
      `${(m.pteKb / 1024).toFixed(1)} MB`,
      m.wallMsPerRun.toFixed(2),
      m.cpuMsPerRun.toFixed(2),
      m.mode === 'direct' ? '' : `${(direct.cpuMsPerRun / m.cpuMsPerRun).toFixed(2)}×`,
    ];
  });
  printAligned(['heap held', 'git started', 'RSS', 'page tables', 'wall ms/run', 'CPU ms/run', 'CPU saved'], cells, new Set([2, 3, 4, 5, 6]));
}
