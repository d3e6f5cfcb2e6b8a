/**
 * The "push rules" section of `npm run bench`: what checking a push against every push rule
 * costs per commit. The same history of BENCH_PUSH_COMMITS commits (default 2,000, each adding
 * a file, signed off) is pushed with the real `git` client over HTTP to projects without a
 * push rule and to projects whose rule turns every check on that the commits pass (all but
 * reject_unsigned_commits: signing thousands of commits would time the signer, and the check
 * itself only looks for a signature header). Each push goes to a fresh project, alternating
 * off and on, BENCH_PUSH_ROUNDS times (default 3); medians are printed. The server runs in
 * its own process (bench/delivery-child.ts) on a fresh SQLite database.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { envNumber, fmtMs, printAligned, startChild, withTempDir } from './lib.ts';
import type { DeliveryChildReady } from './delivery-child.ts';

export const PUSH_RULES_LABEL = 'push rules';

const COMMITS = envNumber('BENCH_PUSH_COMMITS', 2000, 1);
const ROUNDS = envNumber('BENCH_PUSH_ROUNDS', 3, 1);

export interface PushRulesReport {
  commits: number;
  rounds: number;
  offMs: number[];
  onMs: number[];
  problem?: string;
}

function run(command: string, args: string[], opts: { cwd?: string; input?: string } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: opts.cwd, env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${command} ${args[0]} exited ${code}: ${out.slice(-2000)}`))));
    child.stdin.end(opts.input ?? '');
  });
}

/**
 * A history of `n` commits by `who`, each adding one small file, written with git fast-import.
 * The files spread over 64 folders so that no tree grows with the history (one flat folder
 * would make every push and diff quadratic in the commit count, whatever the checks).
 */
async function buildHistory(dir: string, n: number, who: { name: string; email: string }): Promise<void> {
  await run('git', ['init', '--quiet', '--initial-branch=main', dir]);
  const chunks: string[] = [];
  const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  const start = 1_700_000_000;
  for (let i = 1; i <= n; i++) {
    chunks.push(`commit refs/heads/main\nmark :${i}\n`);
    chunks.push(`author ${who.name} <${who.email}> ${start + i} +0000\ncommitter ${who.name} <${who.email}> ${start + i} +0000\n`);
    chunks.push(data(`feat: change ${i}\n\nSigned-off-by: ${who.name} <${who.email}>\n`));
    if (i > 1) chunks.push(`from :${i - 1}\n`);
    chunks.push(`M 100644 inline src/${i % 64}/file-${i}.txt\n${data(`content of file ${i}\n`)}`);
  }
  await run('git', ['fast-import', '--quiet'], { cwd: dir, input: chunks.join('') });
}

const ALL_RULES = {
  commit_message_regex: '^(feat|fix): ',
  commit_message_negative_regex: 'WIP|fixup!',
  branch_name_regex: '^(main|feature/.+)$',
  author_email_regex: '@',
  file_name_regex: '\\.(exe|dll)$',
  deny_delete_tag: true,
  member_check: true,
  prevent_secrets: true,
  commit_committer_check: true,
  commit_committer_name_check: true,
  reject_non_dco_commits: true,
  max_file_size: 10,
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function runPushRules(): Promise<PushRulesReport> {
  console.log(`\n${PUSH_RULES_LABEL}: pushing ${COMMITS} commits to projects with and without every push rule, ${ROUNDS} rounds`);
  const report: PushRulesReport = { commits: COMMITS, rounds: ROUNDS, offMs: [], onMs: [] };
  try {
    await withTempDir(async (dir) => {
      const token = `bench-${crypto.randomBytes(12).toString('hex')}`;
      const server = await startChild<DeliveryChildReady>('delivery-child.ts', [], { BENCH_DATA_DIR: path.join(dir, 'data'), BENCH_ROOT_TOKEN: token }, 120_000);
      try {
        const api = async (p: string, init: { method?: string; json?: unknown } = {}) => {
          const res = await fetch(`${server.info.url}/api/v4${p}`, {
            method: init.method ?? 'GET',
            headers: { 'PRIVATE-TOKEN': token, ...(init.json ? { 'Content-Type': 'application/json' } : {}) },
            body: init.json ? JSON.stringify(init.json) : undefined,
          });
          if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${p}: ${res.status} ${await res.text()}`);
          return res.json();
        };
        const root = (await api('/user')) as { name: string; email: string };
        const group = (await api('/groups', { method: 'POST', json: { name: 'Push bench', path: 'push-bench' } })) as { id: number };
        const work = path.join(dir, 'history');
        await buildHistory(work, COMMITS, root);
        for (let round = 0; round < ROUNDS; round++) {
          for (const withRules of [false, true]) {
            const project = (await api('/projects', { method: 'POST', json: { name: `${withRules ? 'on' : 'off'}-${round}`, namespace_id: group.id } })) as { id: number; path_with_namespace: string };
            if (withRules) await api(`/projects/${project.id}/push_rule`, { method: 'POST', json: ALL_RULES });
            const url = new URL(`${server.info.url}/${project.path_with_namespace}.git`);
            url.username = 'root';
            url.password = token;
            const started = performance.now();
            await run('git', ['push', '--quiet', url.toString(), 'main'], { cwd: work });
            (withRules ? report.onMs : report.offMs).push(performance.now() - started);
          }
        }
      } finally {
        await server.stop();
      }
      fs.rmSync(path.join(dir, 'history'), { recursive: true, force: true });
    });
  } catch (e) {
    report.problem = (e as Error).message;
  }
  return report;
}

export function printPushRules(report: PushRulesReport): void {
  console.log(`\nPush rules: a push of ${report.commits} commits over HTTP, median of ${report.rounds}`);
  if (report.problem) {
    console.log(`  could not run: ${report.problem}`);
    return;
  }
  const off = median(report.offMs);
  const on = median(report.onMs);
  printAligned(
    ['push', 'median ms', 'runs ms', 'per commit ms'],
    [
      ['no push rule', fmtMs(off), report.offMs.map((m) => m.toFixed(0)).join(' '), fmtMs(off / report.commits)],
      ['every check on', fmtMs(on), report.onMs.map((m) => m.toFixed(0)).join(' '), fmtMs(on / report.commits)],
    ],
    new Set([1, 3]),
  );
  console.log(`  push-rule checking costs ${(((on - off) / report.commits) * 1000).toFixed(1)} µs per commit (the difference of the medians, over ${report.commits} commits).`);
}
