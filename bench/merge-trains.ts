/**
 * The "merge trains" section of `npm run bench`: a train of BENCH_TRAIN_CARS merge requests
 * (default 50) into main, every car's train pipeline built (the project's cars limit raised to
 * the train's length, so all run at once), then every pipeline reported passed at once (the
 * statuses sent in reverse train order, the hardest case: every car but the last waits for the
 * one ahead). Measured: the time from the last status to the last merge, and merges per
 * minute over the whole run (from the first status to the last merge). The server runs in its
 * own process (bench/delivery-child.ts) on a fresh SQLite database with its job workers.
 */
import crypto from 'node:crypto';
import path from 'node:path';
import { envNumber, fmtMs, printAligned, startChild, withTempDir } from './lib.ts';
import type { DeliveryChildReady } from './delivery-child.ts';

export const MERGE_TRAINS_LABEL = 'merge trains';
const CARS = envNumber('BENCH_TRAIN_CARS', 50, 2);

export interface MergeTrainsReport {
  cars: number;
  buildMs?: number;
  lastStatusToLastMergeMs?: number;
  firstStatusToLastMergeMs?: number;
  merged?: number;
  problem?: string;
}

interface Car {
  merge_request: { iid: number };
  status: string;
  merged_at: string | null;
  pipeline: { sha: string; ref: string } | null;
}

export async function runMergeTrains(): Promise<MergeTrainsReport> {
  console.log(`\n${MERGE_TRAINS_LABEL}: ${CARS} merge requests on one train, every pipeline passing at once`);
  const report: MergeTrainsReport = { cars: CARS };
  try {
    await withTempDir(async (dir) => {
      const token = `bench-${crypto.randomBytes(12).toString('hex')}`;
      const server = await startChild<DeliveryChildReady>('delivery-child.ts', [], { BENCH_DATA_DIR: path.join(dir, 'data'), BENCH_ROOT_TOKEN: token }, 120_000);
      try {
        const call = async <T>(p: string, init: { method?: string; json?: unknown } = {}): Promise<T> => {
          const res = await fetch(`${server.info.url}${p.startsWith('/api/') ? '' : '/api/v4'}${p}`, {
            method: init.method ?? 'GET',
            headers: { 'PRIVATE-TOKEN': token, ...(init.json ? { 'Content-Type': 'application/json' } : {}) },
            body: init.json ? JSON.stringify(init.json) : undefined,
          });
          if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${p}: ${res.status} ${await res.text()}`);
          return (await res.json()) as T;
        };
        const group = await call<{ id: number }>('/groups', { method: 'POST', json: { name: 'Train bench', path: 'train-bench' } });
        const project = await call<{ id: number }>('/projects', { method: 'POST', json: { name: 'train', namespace_id: group.id } });
        const commit = (branch: string, file: string, start?: string) =>
          call(`/projects/${project.id}/repository/commits`, {
            method: 'POST',
            json: { branch, ...(start ? { start_branch: start } : {}), commit_message: `Add ${file}`, actions: [{ action: 'create', file_path: file, content: `${file}\n` }] },
          });
        await commit('main', 'README.md');
        await call(`/api/console/projects/${project.id}/merge_settings`, { method: 'PUT', json: { merge_trains_enabled: true, merge_trains_cars_limit: Math.min(100, CARS) } });
        const iids: number[] = [];
        for (let i = 0; i < CARS; i++) {
          await commit(`car-${i}`, `car-${i}.txt`, 'main');
          iids.push((await call<{ iid: number }>(`/projects/${project.id}/merge_requests`, { method: 'POST', json: { source_branch: `car-${i}`, target_branch: 'main', title: `Car ${i}` } })).iid);
        }
        const started = performance.now();
        for (const iid of iids) await call(`/projects/${project.id}/merge_trains/merge_requests/${iid}`, { method: 'POST', json: {} });
        const active = () => call<Car[]>(`/projects/${project.id}/merge_trains?scope=active&per_page=100`);
        let cars: Car[] = [];
        for (;;) {
          cars = await active();
          if (cars.length === CARS && cars.every((c) => c.status === 'fresh' && c.pipeline)) break;
          await new Promise((r) => setTimeout(r, 100));
        }
        report.buildMs = performance.now() - started;
        const firstStatus = performance.now();
        // Reverse train order: the last car passes first and must wait for all the others.
        for (const c of [...cars].reverse()) {
          await call(`/projects/${project.id}/statuses/${c.pipeline!.sha}`, { method: 'POST', json: { state: 'success', ref: c.pipeline!.ref, name: 'bench' } });
        }
        const lastStatus = performance.now();
        for (;;) {
          const left = await active();
          if (!left.length) break;
          await new Promise((r) => setTimeout(r, 50));
        }
        const lastMerge = performance.now();
        const complete = await call<Car[]>(`/projects/${project.id}/merge_trains?scope=complete&per_page=100`);
        report.merged = complete.length;
        report.lastStatusToLastMergeMs = lastMerge - lastStatus;
        report.firstStatusToLastMergeMs = lastMerge - firstStatus;
      } finally {
        await server.stop();
      }
    });
  } catch (e) {
    report.problem = (e as Error).message;
  }
  return report;
}

export function printMergeTrains(r: MergeTrainsReport): void {
  console.log(`\nMerge trains: ${r.cars} cars into main, every pipeline passed at once`);
  if (r.problem) {
    console.log(`  could not run: ${r.problem}`);
    return;
  }
  const perMinute = (r.merged! / r.firstStatusToLastMergeMs!) * 60_000;
  printAligned(
    ['measure', 'value'],
    [
      ['cars merged', String(r.merged)],
      ['building every train ref and pipeline, ms', fmtMs(r.buildMs)],
      ['last status → last merge, ms', fmtMs(r.lastStatusToLastMergeMs)],
      ['first status → last merge, ms', fmtMs(r.firstStatusToLastMergeMs)],
      ['merges per minute', perMinute.toFixed(0)],
    ],
    new Set([1]),
  );
}
