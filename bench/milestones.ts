/**
 * The "milestones" section of `npm run bench`: a group milestone's issues list when the
 * milestone holds BENCH_MILESTONE_ISSUES issues (default 10,000, inserted directly in bulk
 * into the server's SQLite file), page 1 and a deep page (per_page 100), and its burndown
 * events, each requested BENCH_MILESTONE_ROUNDS times (default 30) one after another;
 * median and p95 are printed. The server runs in its own process (bench/delivery-child.ts).
 */
import crypto from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';
import { envNumber, fmtMs, percentile, printAligned, startChild, withTempDir } from './lib.ts';
import type { DeliveryChildReady } from './delivery-child.ts';

export const MILESTONES_LABEL = 'milestones';

const ISSUES = envNumber('BENCH_MILESTONE_ISSUES', 10_000, 1);
const ROUNDS = envNumber('BENCH_MILESTONE_ROUNDS', 30, 1);

export interface MilestonesReport {
  issues: number;
  rows: { what: string; ms: number[] }[];
  problem?: string;
}

/** Issues of one project in the milestone, with a backdated history (joining, closing) for the burndown. */
function insertIssues(file: string, projectId: number, milestoneId: number, n: number): void {
  const db = new Database(file);
  try {
    const start = Date.now() - 30 * 86_400_000;
    const issue = db.prepare('INSERT INTO issues (project_id, iid, title, description, state, milestone_id, weight, closed_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
    const joined = db.prepare("INSERT INTO resource_milestone_events (issue_id, milestone_id, action, state, created_at) VALUES (?, ?, 'add', 'opened', ?)");
    const closed = db.prepare("INSERT INTO resource_state_events (issue_id, state, created_at) VALUES (?, 'closed', ?)");
    db.transaction(() => {
      for (let i = 1; i <= n; i++) {
        const created = new Date(start + (i % 20) * 3_600_000).toISOString();
        const isClosed = i % 3 === 0;
        const closedAt = isClosed ? new Date(start + (i % 29) * 86_400_000).toISOString() : null;
        const { lastInsertRowid } = issue.run(projectId, i, `Issue ${i}`, 'Benchmark issue', isClosed ? 'closed' : 'opened', milestoneId, 1 + (i % 5), closedAt, created, closedAt ?? created);
        joined.run(lastInsertRowid, milestoneId, created);
        if (closedAt) closed.run(lastInsertRowid, closedAt);
      }
    })();
  } finally {
    db.close();
  }
}

export async function runMilestones(): Promise<MilestonesReport> {
  console.log(`\n${MILESTONES_LABEL}: a milestone's issues list and burndown events with ${ISSUES} issues, ${ROUNDS} requests each`);
  const report: MilestonesReport = { issues: ISSUES, rows: [] };
  try {
    await withTempDir(async (dir) => {
      const token = `bench-${crypto.randomBytes(12).toString('hex')}`;
      const server = await startChild<DeliveryChildReady>('delivery-child.ts', [], { BENCH_DATA_DIR: path.join(dir, 'data'), BENCH_ROOT_TOKEN: token, GATEHOUSE_WORKERS: '0' }, 120_000);
      try {
        const api = async (p: string, init: { method?: string; json?: unknown } = {}) => {
          const res = await fetch(`${server.info.url}/api/v4${p}`, {
            method: init.method ?? 'GET',
            headers: { 'PRIVATE-TOKEN': token, ...(init.json ? { 'Content-Type': 'application/json' } : {}) },
            body: init.json ? JSON.stringify(init.json) : undefined,
          });
          if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${p}: ${res.status} ${(await res.text()).slice(0, 300)}`);
          return res.json();
        };
        const group = (await api('/groups', { method: 'POST', json: { name: 'Milestone bench', path: 'milestone-bench' } })) as { id: number };
        const project = (await api('/projects', { method: 'POST', json: { name: 'planned', namespace_id: group.id } })) as { id: number };
        const milestone = (await api(`/groups/${group.id}/milestones`, { method: 'POST', json: { title: 'Big', start_date: new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10) } })) as { id: number };
        if (!server.info.sqliteFile) throw new Error('the milestone bench inserts into SQLite only');
        insertIssues(server.info.sqliteFile, project.id, milestone.id, ISSUES);
        const base = `/groups/${group.id}/milestones/${milestone.id}`;
        const deep = Math.max(1, Math.floor(ISSUES / 100));
        for (const [what, p] of [
          ['issues, page 1', `${base}/issues?per_page=100`],
          [`issues, page ${deep}`, `${base}/issues?per_page=100&page=${deep}`],
          ['burndown events', `${base}/burndown_events`],
        ] as const) {
          await api(p);
          const ms: number[] = [];
          for (let i = 0; i < ROUNDS; i++) {
            const started = performance.now();
            await api(p);
            ms.push(performance.now() - started);
          }
          report.rows.push({ what, ms });
        }
      } finally {
        await server.stop();
      }
    });
  } catch (e) {
    report.problem = (e as Error).message;
  }
  return report;
}

export function printMilestones(report: MilestonesReport): void {
  console.log(`\nMilestones: a group milestone holding ${report.issues} issues, sequential requests`);
  if (report.problem) {
    console.log(`  could not run: ${report.problem}`);
    return;
  }
  printAligned(
    ['request', 'median ms', 'p95 ms'],
    report.rows.map((r) => {
      const sorted = [...r.ms].sort((a, b) => a - b);
      return [r.what, fmtMs(percentile(sorted, 50)), fmtMs(percentile(sorted, 95))];
    }),
    new Set([1, 2]),
  );
}
