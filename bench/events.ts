/**
 * The "events" section of `npm run bench` (label "events pages", so BENCH_ONLY=events runs
 * only it): GET /projects/:id/events page 1 and page 10,000 (per_page 20) of a project with
 * 1,000,000 events, on SQLite and (with BENCH_PG) PostgreSQL. The target is a deep page
 * within 1.5× of page 1: a project's pages are ranges of the events' numbers in it (migration
 * 015), so neither the page nor its X-Total scans the events before it. Each filter (action,
 * target_type, after, before) is measured beside it at page 1 and the deep page, with the same
 * target: its pages are ranges of the events' numbers among those of their kind, or of their
 * project between two dates (migration 033).
 *
 * The same targets are read from the author's lists, where every event is the seed user's:
 * GET /users/:id/events (as an administrator) and GET /events (as the author, here also an
 * administrator). Their pages are ranges of the events' numbers among their author's (migration
 * 036), with the same target.
 *
 * Requests are sequential (one connection): this measures what one page costs, not
 * throughput. It measures, never judges.
 *
 * Environment: BENCH_EVENTS (default 1000000), BENCH_EVENTS_REQUESTS (default 200 per target),
 * BENCH_EVENTS_FILTER_REQUESTS (default a quarter of that, per filtered target).
 */
import crypto from 'node:crypto';
import os from 'node:os';
import type { EventsChildReady } from './events-child.ts';
import { envNumber, fmtMs, percentile, printAligned, startChild, withPgDatabase, withTempDir } from './lib.ts';

export const EVENTS_LABEL = 'events pages';

const EVENTS = Math.round(envNumber('BENCH_EVENTS', 1_000_000, 100));
const REQUESTS = Math.round(envNumber('BENCH_EVENTS_REQUESTS', 200, 1));
const DEEP_PAGE = Math.min(10_000, Math.floor(EVENTS / 20));
/** The deep page of a filter (its kind may be a quarter of the events): 10,000 of 1,000,000. */
const FILTER_DEEP_PAGE = Math.min(DEEP_PAGE, Math.floor(EVENTS / 80));
/** Filtered targets were slow before migration 033 (a page read by offset): fewer requests by default. */
const FILTER_REQUESTS = Math.round(envNumber('BENCH_EVENTS_FILTER_REQUESTS', Math.max(1, Math.round(REQUESTS / 4)), 1));

const day = (iso: string, days = 0) => new Date(Date.parse(iso) + days * 86_400_000).toISOString().slice(0, 10);

/**
 * Every filter of the list, each alone: the seed's pushes (half the events), its comments (a
 * quarter), and a date on each side (the first and the last day excluded, or every event when
 * they span less than three days), so each filter has a page 10,000 to read.
 */
function filters(info: EventsChildReady): [name: string, query: string][] {
  const short = Date.parse(info.lastAt) - Date.parse(info.firstAt) < 3 * 86_400_000;
  const after = short ? day(info.firstAt, -1) : day(info.firstAt);
  const before = short ? day(info.lastAt, 1) : day(info.lastAt);
  return [
    ['action=pushed', 'action=pushed'],
    ['target_type=note', 'target_type=note'],
    [`after=${after}`, `after=${after}`],
    [`before=${before}`, `before=${before}`],
  ];
}

export interface EventsRow {
  engine: string;
  list: string;
  target: string;
  p50: number;
  p90: number;
  ids: string;
}
export interface EventsReport {
  events: number;
  seedS: Record<string, number>;
  rows: EventsRow[];
  pgNote?: string;
}

async function timeRequests(url: string, token: string, requests: number): Promise<{ p50: number; p90: number; ids: string }> {
  const times: number[] = [];
  let ids = '';
  // Warm-up (not measured): the first requests pay for the server's and the database's caches.
  for (let i = 0; i < Math.min(10, requests); i++) await (await fetch(url, { headers: { 'PRIVATE-TOKEN': token } })).arrayBuffer();
  for (let i = 0; i < requests; i++) {
    const t = performance.now();
    const res = await fetch(url, { headers: { 'PRIVATE-TOKEN': token } });
    const body = (await res.json()) as { id: number }[];
    times.push(performance.now() - t);
    if (res.status !== 200 || body.length !== 20) throw new Error(`${url}: HTTP ${res.status}, ${Array.isArray(body) ? body.length : 0} events`);
    if (i === 0) ids = `${body[0].id}…${body[19].id} of ${res.headers.get('x-total') ?? 'over 10,000 (not counted)'}`;
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p90: percentile(times, 90), ids };
}

async function runEngine(engine: string, env: Record<string, string>, report: EventsReport): Promise<void> {
  const token = `bench-root-${crypto.randomBytes(12).toString('hex')}`;
  console.log(`  ${engine}: inserting ${EVENTS.toLocaleString('en')} events…`);
  const child = await startChild<EventsChildReady>('events-child.ts', [], { ...env, BENCH_ROOT_TOKEN: token, BENCH_EVENTS: String(EVENTS) }, 900_000);
  try {
    report.seedS[engine] = child.info.seedMs / 1000;
    const lists = [
      ['/projects/:id/events', `/projects/${child.info.projectId}/events`],
      ['/users/:id/events', `/users/${child.info.authorId}/events`],
      ['/events', '/events'],
    ] as const;
    for (const [list, path] of lists) await runList(engine, list, `${child.info.url}/api/v4${path}?per_page=20`, child.info, token, report);
  } finally {
    await child.stop();
  }
}

/** One list's targets: page 1, the deep page (both directions), each filter at page 1 and at its deep page. */
async function runList(engine: string, list: string, base: string, info: EventsChildReady, token: string, report: EventsReport): Promise<void> {
  const deep = DEEP_PAGE.toLocaleString('en');
  const requests = (filtered: boolean) => (filtered ? FILTER_REQUESTS : REQUESTS);
  for (const [target, query] of [
      ['page 1', '&page=1'],
      [`page ${deep}`, `&page=${DEEP_PAGE}`],
      [`page ${deep} sort=asc`, `&page=${DEEP_PAGE}&sort=asc`],
      ...filters(info).flatMap(([name, filter]) => [
        [`page 1 ${name}`, `&page=1&${filter}`],
        [`page ${FILTER_DEEP_PAGE.toLocaleString('en')} ${name}`, `&page=${FILTER_DEEP_PAGE}&${filter}`],
      ]),
    ] as const) {
      const r = await timeRequests(base + query, token, requests(/action=|target_type=|before=|after=/.test(query)));
      report.rows.push({ engine, list, target, ...r });
      console.log(`  ${engine} ${list} ${target}: p50 ${fmtMs(r.p50)} ms (${r.ids})`);
    }
}

export async function runEvents(pgAdmin: string | undefined): Promise<EventsReport> {
  console.log(`\n${EVENTS_LABEL}: GET /projects/:id/events on ${EVENTS.toLocaleString('en')} events, ${REQUESTS} sequential requests per target`);
  const report: EventsReport = { events: EVENTS, seedS: {}, rows: [] };
  await withTempDir((dir) => runEngine('sqlite', { BENCH_DATA_DIR: dir }, report));
  if (pgAdmin) await withTempDir((dir) => withPgDatabase(pgAdmin, (url) => runEngine('postgres', { BENCH_DATA_DIR: dir, DATABASE_URL: url }, report)));
  else report.pgNote = 'PostgreSQL: skipped (set BENCH_PG).';
  return report;
}

export function printEvents(r: EventsReport): void {
  console.log(`\nActivity events pages (${r.events.toLocaleString('en')} events in one project, all by one user, per_page 20; inserted in ${Object.entries(r.seedS).map(([e, s]) => `${s.toFixed(1)} s on ${e}`).join(', ')})`);
  const first = (row: EventsRow) => r.rows.find((x) => x.engine === row.engine && x.list === row.list && x.target === 'page 1')!;
  const deepUnfiltered = (row: EventsRow) => r.rows.find((x) => x.engine === row.engine && x.list === row.list && x.target === `page ${FILTER_DEEP_PAGE.toLocaleString('en')}`);
  printAligned(
    ['engine', 'list', 'target', 'p50 ms', 'p90 ms', '× page 1 (p50)', '× same page unfiltered', 'first page seen'],
    r.rows.map((row) => {
      const unfiltered = row.target.startsWith('page 1 ') ? first(row) : / (action|target_type|before|after)=/.test(row.target) ? deepUnfiltered(row) : undefined;
      return [row.engine, row.list, row.target, fmtMs(row.p50), fmtMs(row.p90), `${(row.p50 / first(row).p50).toFixed(2)}×`, unfiltered ? `${(row.p50 / unfiltered.p50).toFixed(2)}×` : '', row.ids];
    }),
    new Set([3, 4, 5, 6]),
  );
  console.log('  Target: every row of each list (the deep page, each filter at page 1 and at the deep page) within 1.5× of the list\'s unfiltered page 1.');
  if (r.pgNote) console.log(`  ${r.pgNote}`);
  console.log(`  load average now: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
}
