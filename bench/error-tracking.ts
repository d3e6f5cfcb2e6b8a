/**
 * The "error tracking" section of `npm run bench` (BENCH_ONLY=error): envelopes per second into
 * one project's collector from BENCH_CONNECTIONS concurrent senders (default 10), each envelope
 * one exception event as @sentry/node writes it (about 2 KB, 12 frames), rotating over
 * BENCH_ERROR_KINDS distinct errors (default 10) and 1,000 users; on SQLite and (with BENCH_PG)
 * PostgreSQL, beside bare Express reading the same body and answering `{}`. Then the errors list
 * (page 1, per_page 20) and an error's details, timed sequentially once the run recorded its
 * events. Each server runs in its own process (bench/delivery-child.ts, bench/bare-child.ts).
 *
 * Then the reads at scale, on SQLite and (with BENCH_PG) PostgreSQL: BENCH_ERROR_EVENTS events
 * (default 1,000,000) in BENCH_ERROR_ERRORS errors (default 10,000), inserted in bulk into the
 * server's database, each error with its last 24 hours counted; the errors list (page 1, a deep page, by frequency, a
 * text filter), an error's details and its events, BENCH_ERROR_READS requests each.
 */
import crypto from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';
import autocannon from 'autocannon';
import pg from 'pg';
import { CONNECTIONS, SECONDS, WARMUP_SECONDS, envNumber, fmtInt, fmtMs, gatehouseApi, percentile, printAligned, startChild, withPgDatabase, withTempDir, type LoadRow } from './lib.ts';
import type { DeliveryChildReady } from './delivery-child.ts';

export const ERROR_TRACKING_LABEL = 'error tracking';

const KINDS = envNumber('BENCH_ERROR_KINDS', 10, 1);
const READS = envNumber('BENCH_ERROR_READS', 30, 1);
const SCALE_EVENTS = envNumber('BENCH_ERROR_EVENTS', 1_000_000, 1);
const SCALE_ERRORS = envNumber('BENCH_ERROR_ERRORS', 10_000, 1);

interface Row extends LoadRow {
  non2xx: number;
  reads?: { what: string; ms: number[] }[];
}
export interface ErrorTrackingReport {
  rows: Row[];
  scale?: Scale[];
}

/** An envelope of one exception event, as the Node SDK sends it; `kind` picks the error, `user` who met it. */
function envelopeOf(kind: number, user: number): string {
  const frames = Array.from({ length: 12 }, (_, i) => ({
    filename: `/srv/app/lib/module${i}.js`,
    module: `lib:module${i}`,
    function: `step${i}`,
    lineno: 10 + i,
    colno: 5,
    in_app: i > 3,
    pre_context: ['  const a = 1;', '  const b = 2;'],
    context_line: `  throw new Error('kind ${kind}');`,
    post_context: ['}'],
  }));
  const event = {
    event_id: crypto.randomBytes(16).toString('hex'),
    timestamp: Date.now() / 1000,
    platform: 'node',
    level: 'error',
    environment: 'bench',
    release: 'bench@1.0.0',
    user: { id: `user-${user}` },
    exception: { values: [{ type: 'TypeError', value: `bench failure ${kind}`, stacktrace: { frames } }] },
    contexts: { runtime: { name: 'node', version: process.version } },
  };
  const payload = JSON.stringify(event);
  return `${JSON.stringify({ event_id: event.event_id, sent_at: new Date().toISOString() })}\n${JSON.stringify({ type: 'event', length: Buffer.byteLength(payload) })}\n${payload}\n`;
}

/** Bodies to rotate over: every kind of error for a share of the users. */
const BODIES = Array.from({ length: 1000 }, (_, i) => envelopeOf(i % KINDS, i));

async function load(url: string, seconds: number, record: boolean) {
  let i = 0;
  const latencies: number[] = [];
  const instance = autocannon({
    url,
    method: 'POST',
    headers: { 'Content-Type': 'application/x-sentry-envelope' },
    connections: CONNECTIONS,
    duration: seconds,
    timeout: 30,
    requests: [{ method: 'POST', setupRequest: (req) => ({ ...req, body: BODIES[i++ % BODIES.length] }) }],
  });
  if (record) instance.on('response', (_c, status, _b, ms) => void (status >= 200 && status < 300 && latencies.push(ms)));
  const result = await instance;
  latencies.sort((a, b) => a - b);
  return { rps: result['2xx'] / result.duration, p50: percentile(latencies, 50), p99: percentile(latencies, 99), non2xx: result.non2xx };
}

async function measure(target: string, url: string): Promise<Row> {
  if (WARMUP_SECONDS > 0) await load(url, WARMUP_SECONDS, false);
  return { target, ...(await load(url, SECONDS, true)) };
}

async function gatehouse(target: string, env: Record<string, string>, dir: string): Promise<Row> {
  const token = `bench-${crypto.randomBytes(12).toString('hex')}`;
  const server = await startChild<DeliveryChildReady>('delivery-child.ts', [], { BENCH_DATA_DIR: path.join(dir, target.replace(/\W+/g, '-')), BENCH_ROOT_TOKEN: token, GATEHOUSE_WORKERS: '0', GATEHOUSE_ERROR_TRACKING_EVENTS_PER_MINUTE: '100000000', ...env }, 120_000);
  try {
    const api = gatehouseApi(server.info.url, token);
    const group = (await api('/groups', 'POST', { name: 'Errors bench', path: 'errors-bench' })) as { id: number };
    const project = (await api('/projects', 'POST', { name: 'app', namespace_id: group.id })) as { id: number };
    await api(`/projects/${project.id}/error_tracking/settings`, 'PUT', { active: true, integrated: true });
    const key = (await api(`/projects/${project.id}/error_tracking/client_keys`, 'POST')) as { public_key: string };
    const row = await measure(target, `${server.info.url}/api/v4/error_tracking/collector/api/${project.id}/envelope/?sentry_key=${key.public_key}&sentry_version=7`);
    const errors = (await api(`/projects/${project.id}/error_tracking/errors?per_page=20`)) as { id: number }[];
    row.reads = await timedReads(api, [
      ['errors list, page 1', `/projects/${project.id}/error_tracking/errors?per_page=20`],
      ['an error’s details', `/projects/${project.id}/error_tracking/errors/${errors[0]!.id}`],
    ]);
    return row;
  } finally {
    await server.stop();
  }
}

/** `READS` sequential requests of each path, after one not counted; their times ascending. */
async function timedReads(api: (p: string) => Promise<unknown>, paths: (readonly [string, string])[]): Promise<{ what: string; ms: number[] }[]> {
  const out: { what: string; ms: number[] }[] = [];
  for (const [what, p] of paths) {
    await api(p);
    const ms: number[] = [];
    for (let i = 0; i < READS; i++) {
      const started = performance.now();
      await api(p);
      ms.push(performance.now() - started);
    }
    out.push({ what, ms: ms.sort((a, b) => a - b) });
  }
  return out;
}

/** SCALE_EVENTS events spread over SCALE_ERRORS errors of the project, written straight into the SQLite file in one transaction. */
function insertAtScale(file: string, projectId: number): void {
  const db = new Database(file);
  try {
    db.pragma('busy_timeout = 60000');
    const now = Date.now();
    const hourNow = Math.floor(now / 3_600_000) * 3600;
    const frames = JSON.stringify(Array.from({ length: 8 }, (_, i) => ({ filename: `/srv/app/m${i}.js`, function: `f${i}`, module: null, lineNo: i + 1, colNo: 1, context: [], inApp: true })));
    const error = db.prepare(
      "INSERT INTO error_tracking_errors (project_id, fingerprint, name, description, actor, platform, status, events_count, users_count, first_seen_at, last_seen_at, stack_trace) VALUES (?, ?, 'TypeError', ?, ?, 'node', ?, ?, ?, ?, ?, ?)",
    );
    const event = db.prepare("INSERT INTO error_tracking_error_events (error_id, event_id, description, level, environment, platform, user_identity, occurred_at, payload) VALUES (?, ?, ?, 'error', 'bench', 'node', ?, ?, ?)");
    const hour = db.prepare('INSERT INTO error_tracking_error_hours (error_id, hour, count) VALUES (?, ?, ?)');
    const statuses = ['unresolved', 'unresolved', 'unresolved', 'resolved', 'ignored'];
    db.transaction(() => {
      for (let e = 0; e < SCALE_ERRORS; e++) {
        // Counts skewed as real ones are: a few errors hold most events.
        const count = Math.max(1, Math.floor(SCALE_EVENTS / SCALE_ERRORS / ((e % 50) + 1)) * (e % 50 === 0 ? 10 : 1));
        const last = new Date(now - (e % 1440) * 60_000).toISOString();
        const { lastInsertRowid } = error.run(projectId, crypto.createHash('sha256').update(String(e)).digest('hex'), `bench failure ${e}`, `handler${e % 100}(/srv/app/m${e % 8}.js)`, statuses[e % 5], count, count % 97, new Date(now - 30 * 86_400_000).toISOString(), last, frames);
        for (let h = 0; h < 24; h++) hour.run(lastInsertRowid, hourNow - h * 3600, 1 + ((e + h) % 7));
      }
      // The events: SCALE_EVENTS rows over the errors, round robin (their counts above are what the list shows).
      const payload = JSON.stringify({ frames: JSON.parse(frames), user: { id: 'u', username: null, email: null, ip_address: null } });
      for (let i = 0; i < SCALE_EVENTS; i++) event.run((i % SCALE_ERRORS) + 1, crypto.randomUUID().replace(/-/g, ''), `bench failure ${i % SCALE_ERRORS}`, `id:u${i % 997}`, new Date(now - (i % 86_400) * 1000).toISOString(), payload);
    })();
  } finally {
    db.close();
  }
}

/**
 * The same rows as insertAtScale, written by PostgreSQL itself (generate_series) into the
 * server's database: the errors, their 24 hours, then the events round robin over them.
 */
async function insertAtScalePg(url: string, projectId: number): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const iso = (at: string) => `to_char((${at}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  const frames = JSON.stringify(Array.from({ length: 8 }, (_, i) => ({ filename: `/srv/app/m${i}.js`, function: `f${i}`, module: null, lineNo: i + 1, colNo: 1, context: [], inApp: true })));
  const payload = JSON.stringify({ frames: JSON.parse(frames), user: { id: 'u', username: null, email: null, ip_address: null } });
  try {
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO error_tracking_errors (project_id, fingerprint, name, description, actor, platform, status, events_count, users_count, first_seen_at, last_seen_at, stack_trace)
       SELECT $1, md5(e::text), 'TypeError', 'bench failure ' || e, 'handler' || (e % 100) || '(/srv/app/m' || (e % 8) || '.js)', 'node',
              (ARRAY['unresolved', 'unresolved', 'unresolved', 'resolved', 'ignored'])[e % 5 + 1], c, c % 97,
              ${iso("now() - interval '30 days'")}, ${iso("now() - (e % 1440) * interval '1 minute'")}, $4
       FROM generate_series(0, $2::int - 1) AS e,
            LATERAL (SELECT GREATEST(1, ($3::int / $2::int / ((e % 50) + 1)) * CASE WHEN e % 50 = 0 THEN 10 ELSE 1 END) AS c) AS counted
       ORDER BY e`,
      [projectId, SCALE_ERRORS, SCALE_EVENTS, frames],
    );
    await client.query(
      `INSERT INTO error_tracking_error_hours (error_id, hour, count)
       SELECT id, (floor(extract(epoch FROM now()) / 3600) * 3600)::int - h * 3600, 1 + ((id - 1 + h) % 7)
       FROM error_tracking_errors, generate_series(0, 23) AS h WHERE project_id = $1`,
      [projectId],
    );
    await client.query(
      `INSERT INTO error_tracking_error_events (error_id, event_id, description, level, environment, platform, user_identity, occurred_at, payload)
       SELECT first.id + i % $2::int, md5(i::text || random()::text), 'bench failure ' || (i % $2::int), 'error', 'bench', 'node', 'id:u' || (i % 997), ${iso("now() - (i % 86400) * interval '1 second'")}, $4
       FROM generate_series(0, $3::int - 1) AS i, (SELECT min(id) AS id FROM error_tracking_errors WHERE project_id = $1) AS first`,
      [projectId, SCALE_ERRORS, SCALE_EVENTS, payload],
    );
    await client.query('COMMIT');
    await client.query('ANALYZE error_tracking_errors, error_tracking_error_events, error_tracking_error_hours');
  } finally {
    await client.end();
  }
}

interface Scale {
  engine: 'SQLite' | 'PostgreSQL';
  events: number;
  errors: number;
  insertSeconds: number;
  reads: { what: string; ms: number[] }[];
  problem?: string;
}

async function readsAtScale(dir: string, databaseUrl?: string): Promise<Scale> {
  const token = `bench-${crypto.randomBytes(12).toString('hex')}`;
  const server = await startChild<DeliveryChildReady>(
    'delivery-child.ts',
    [],
    { BENCH_DATA_DIR: path.join(dir, databaseUrl ? 'scale-pg' : 'scale'), BENCH_ROOT_TOKEN: token, GATEHOUSE_WORKERS: '0', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) },
    120_000,
  );
  try {
    const api = gatehouseApi(server.info.url, token);
    const group = (await api('/groups', 'POST', { name: 'Errors at scale', path: 'errors-scale' })) as { id: number };
    const project = (await api('/projects', 'POST', { name: 'big', namespace_id: group.id })) as { id: number };
    await api(`/projects/${project.id}/error_tracking/settings`, 'PUT', { active: true, integrated: true });
    const started = performance.now();
    if (databaseUrl) await insertAtScalePg(databaseUrl, project.id);
    else insertAtScale(server.info.sqliteFile!, project.id);
    const insertSeconds = (performance.now() - started) / 1000;
    // The error the list shows first, as a user opens it.
    const first = ((await api(`/projects/${project.id}/error_tracking/errors?per_page=1`)) as { id: number }[])[0]!.id;
    const base = `/projects/${project.id}/error_tracking/errors`;
    const deep = Math.max(1, Math.floor(SCALE_ERRORS / 100 / 2));
    const reads = await timedReads(api, [
      ['errors, page 1', `${base}?per_page=20`],
      [`errors, page ${deep} (per_page 100)`, `${base}?per_page=100&page=${deep}`],
      ['errors by frequency, page 1', `${base}?sort=frequency&per_page=20`],
      ['unresolved errors matching text', `${base}?status=unresolved&query=failure%2012&per_page=20`],
      ['an error’s details', `${base}/${first}`],
      ['its events, page 1', `${base}/${first}/events?per_page=20`],
    ]);
    return { engine: databaseUrl ? 'PostgreSQL' : 'SQLite', events: SCALE_EVENTS, errors: SCALE_ERRORS, insertSeconds, reads };
  } finally {
    await server.stop();
  }
}

export async function runErrorTracking(opts: { pgAdmin?: string }): Promise<ErrorTrackingReport> {
  console.log(`\n${ERROR_TRACKING_LABEL}: envelopes into one project's collector from ${CONNECTIONS} senders, ${SECONDS} s each, beside bare Express`);
  const report: ErrorTrackingReport = { rows: [] };
  const attempt = async (target: string, run: () => Promise<Row>) => {
    try {
      report.rows.push(await run());
    } catch (e) {
      report.rows.push({ target, rps: NaN, p50: NaN, p99: NaN, non2xx: 0, problem: (e as Error).message });
    }
  };
  await attempt('bare Express', async () => {
    const bare = await startChild<{ url: string }>('bare-child.ts', ['express'], {}, 30_000);
    try {
      return await measure('bare Express', `${bare.info.url}/envelope`);
    } finally {
      await bare.stop();
    }
  });
  await withTempDir(async (dir) => {
    await attempt('Gatehouse, SQLite', () => gatehouse('Gatehouse, SQLite', {}, dir));
    const pgUrl = opts.pgAdmin;
    if (pgUrl) await attempt('Gatehouse, PostgreSQL', () => withPgDatabase(pgUrl, (url) => gatehouse('Gatehouse, PostgreSQL', { DATABASE_URL: url }, dir)));
    report.scale = [];
    const engines: Scale['engine'][] = pgUrl ? ['SQLite', 'PostgreSQL'] : ['SQLite'];
    for (const engine of engines) {
      console.log(`  reads at scale: inserting ${fmtInt(SCALE_EVENTS)} events in ${fmtInt(SCALE_ERRORS)} errors (${engine})…`);
      try {
        report.scale.push(engine === 'SQLite' ? await readsAtScale(dir) : await withPgDatabase(pgUrl!, (url) => readsAtScale(dir, url)));
      } catch (e) {
        report.scale.push({ engine, events: SCALE_EVENTS, errors: SCALE_ERRORS, insertSeconds: NaN, reads: [], problem: (e as Error).message });
      }
    }
  });
  return report;
}

export function printErrorTracking(report: ErrorTrackingReport): void {
  console.log(`\nError tracking: envelopes (one exception event each, ${KINDS} errors, 1,000 users) from ${CONNECTIONS} concurrent senders into one project`);
  const bare = report.rows.find((r) => r.target === 'bare Express')?.rps;
  printAligned(
    ['target', 'envelopes/s', 'p50 ms', 'p99 ms', 'non-2xx', 'of bare Express'],
    report.rows.map((r) =>
      r.problem ? [r.target, `could not run: ${r.problem.slice(0, 120)}`, '', '', '', ''] : [r.target, fmtInt(r.rps), fmtMs(r.p50), fmtMs(r.p99), fmtInt(r.non2xx), bare ? `${((r.rps / bare) * 100).toFixed(0)} %` : '-'],
    ),
    new Set([1, 2, 3, 4, 5]),
  );
  const reads = report.rows.filter((r) => r.reads?.length);
  if (reads.length) printReads(reads);
  for (const scale of report.scale ?? []) {
    console.log(`\n  reads at scale, ${scale.engine}: ${fmtInt(scale.events)} events in ${fmtInt(scale.errors)} errors (inserted in ${scale.insertSeconds.toFixed(1)} s), ${READS} sequential requests each`);
    if (scale.problem) {
      console.log(`  could not run: ${scale.problem}`);
      continue;
    }
    printAligned(
      ['request', 'median ms', 'p95 ms'],
      scale.reads.map((x) => [x.what, fmtMs(percentile(x.ms, 50)), fmtMs(percentile(x.ms, 95))]),
      new Set([1, 2]),
    );
  }
}

function printReads(reads: Row[]): void {
  console.log('\n  reads once the run recorded its events (sequential requests): median / p95 ms');
  printAligned(
    ['target', 'request', 'median ms', 'p95 ms'],
    reads.flatMap((r) => r.reads!.map((x) => [r.target, x.what, fmtMs(percentile(x.ms, 50)), fmtMs(percentile(x.ms, 95))])),
    new Set([2, 3]),
  );
}
