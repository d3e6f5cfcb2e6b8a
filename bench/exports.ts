/**
 * The "exports" section of `npm run bench` (BENCH_ONLY=exports): a CSV export of 1,000,000
 * vulnerabilities and a CycloneDX 1.6 export of 100,000 components, on SQLite and (with
 * BENCH_PG) PostgreSQL. The rows are written straight into the database in multi-row inserts
 * (not through the API); the export is then asked for over HTTP like any client would, and
 * polled until it is finished. Printed: the export's time (request to finished), rows per
 * second, the server process's resident memory before, its peak while the file was written
 * and its peak while it was downloaded, the file's size, the download's speed (from the file
 * store: the data directory on SQLite, the database on PostgreSQL), and for CycloneDX whether the
 * document passes the official JSON schema validation (see validInChunks).
 *
 * The CSV export runs twice on the same server: first over BENCH_EXPORT_FINDINGS_SMALL
 * findings, then (more inserted) over BENCH_EXPORT_FINDINGS, so that the two peaks side by
 * side show whether memory grows with the number of rows.
 *
 * It measures, never judges. Environment: BENCH_EXPORT_FINDINGS (default 1000000),
 * BENCH_EXPORT_FINDINGS_SMALL (default a tenth of it; 0 skips the small run),
 * BENCH_EXPORT_COMPONENTS (default 100000).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as CDX from '@cyclonedx/cyclonedx-library';
import { openDb } from '../bff/src/db/index.ts';
import { insertComponents, insertFindings } from '../bff/test/export-fixtures.ts';
import type { ExportsChildReady } from './exports-child.ts';
import { envNumber, fmtInt, memory, peakDuring, printAligned, startChild, withPgDatabase, withTempDir } from './lib.ts';

export const EXPORTS_LABEL = 'exports';
const FINDINGS = Math.round(envNumber('BENCH_EXPORT_FINDINGS', 1_000_000, 1));
const SMALL = Math.min(FINDINGS, Math.round(envNumber('BENCH_EXPORT_FINDINGS_SMALL', Math.round(FINDINGS / 10), 0)));
const COMPONENTS = Math.round(envNumber('BENCH_EXPORT_COMPONENTS', 100_000, 1));

export interface ExportRow {
  engine: string;
  what: string;
  rows: number;
  seconds: number;
  rssBeforeBytes?: number;
  /** While the file was written (request to finished). */
  rssPeakBytes?: number;
  /** While it was downloaded. */
  rssDownloadPeakBytes?: number;
  /** The download's time, from the request to the last byte (from the file store: the data directory on SQLite, the database on PostgreSQL). */
  downloadSeconds?: number;
  fileBytes: number;
  valid?: boolean;
}

/**
 * The official validator on the whole document, its components a thousand at a time: the
 * schema's uniqueItems check compares every pair of components, which for 100,000 of them
 * runs for hours; uniqueness across the chunks is checked by bom-ref instead.
 */
async function validInChunks(doc: { components: { 'bom-ref': string }[] }): Promise<boolean> {
  const validator = new CDX.Validation.JsonStrictValidator(CDX.Spec.Version.v1dot6);
  for (let i = 0; i < Math.max(1, doc.components.length); i += 1000) {
    if ((await validator.validate(JSON.stringify({ ...doc, components: doc.components.slice(i, i + 1000) }))) !== null) return false;
  }
  return new Set(doc.components.map((c) => c['bom-ref'])).size === doc.components.length;
}

async function runOn(engine: 'sqlite' | 'postgres', dir: string, databaseUrl?: string): Promise<ExportRow[]> {
  const token = `bench-root-${crypto.randomBytes(12).toString('hex')}`;
  const child = await startChild<ExportsChildReady>('exports-child.ts', [], { BENCH_DATA_DIR: dir, BENCH_ROOT_TOKEN: token, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) }, 120_000);
  const db = openDb({ databaseUrl, sqliteFile: path.join(dir, 'gatehouse.sqlite3'), poolSize: 2 });
  const call = async (p: string, method = 'GET', body?: unknown) => {
    const send = () => fetch(`${child.info.url}/api/v4${p}`, { method, headers: { 'PRIVATE-TOKEN': token, 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    // A kept-alive connection the server closed while the rows were inserted fails once: ask again.
    const res = await send().catch(send);
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
    return res;
  };
  /**
   * Asks for an export, waits for it, downloads it: the time is from the request to "finished";
   * the server's memory before, at its peak while the file was written and while it was downloaded.
   */
  const exportOf = async (create: string, body: object, get: (id: number) => string) => {
    const before = memory(child.pid).rss;
    const written = await peakDuring(child.pid, async () => {
      const t = performance.now();
      const { id } = (await (await call(create, 'POST', body)).json()) as { id: number };
      for (;;) {
        const res = await call(get(id));
        if (res.status === 200) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      return { id, seconds: (performance.now() - t) / 1000 };
    });
    const { id, seconds } = written.result;
    const file = path.join(dir, `download-${id}`);
    const downloaded = await peakDuring(child.pid, async () => {
      const t = performance.now();
      await pipeline(Readable.fromWeb((await call(`${get(id)}/download`)).body! as import('node:stream/web').ReadableStream), fs.createWriteStream(file));
      return (performance.now() - t) / 1000;
    });
    return { seconds, file, bytes: fs.statSync(file).size, before, peak: written.peak, downloadPeak: downloaded.peak, downloadSeconds: downloaded.result };
  };
  /** Lines of a file, counted as it is read (the fixtures' fields hold no line breaks). */
  const lineCount = async (file: string) => {
    let n = 0;
    for await (const chunk of fs.createReadStream(file)) for (const byte of chunk as Buffer) if (byte === 10) n++;
    return n;
  };
  try {
    const group = (await (await call('/groups', 'POST', { name: 'Bench exports', path: 'bench-exports' })).json()) as { id: number };
    const project = (await (await call('/projects', 'POST', { name: 'findings', namespace_id: group.id })).json()) as { id: number };
    const components = (await (await call('/projects', 'POST', { name: 'components', namespace_id: group.id })).json()) as { id: number };
    const rows: ExportRow[] = [];
    let inserted = 0;
    for (const size of [...new Set([SMALL, FINDINGS])].filter((n) => n > 0)) {
      const t = performance.now();
      await insertFindings(db, project.id, size - inserted);
      console.log(`  ${engine}: ${fmtInt(size - inserted)} findings inserted in ${((performance.now() - t) / 1000).toFixed(1)} s`);
      inserted = size;
      const csv = await exportOf(`/security/projects/${project.id}/vulnerability_exports`, { export_format: 'csv' }, (id) => `/security/vulnerability_exports/${id}`);
      const lines = await lineCount(csv.file);
      fs.rmSync(csv.file);
      rows.push({ engine, what: `CSV, ${fmtInt(lines - 1)} findings`, rows: size, seconds: csv.seconds, rssBeforeBytes: csv.before, rssPeakBytes: csv.peak, rssDownloadPeakBytes: csv.downloadPeak, downloadSeconds: csv.downloadSeconds, fileBytes: csv.bytes });
    }

    const t = performance.now();
    await insertComponents(db, components.id, COMPONENTS);
    console.log(`  ${engine}: ${fmtInt(COMPONENTS)} components inserted in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    const bom = await exportOf(`/projects/${components.id}/dependency_list_exports`, { export_type: 'cyclonedx_1_6_json' }, (id) => `/dependency_list_exports/${id}`);
    const doc = JSON.parse(fs.readFileSync(bom.file, 'utf8')) as { components: { 'bom-ref': string }[] };
    const count = doc.components.length;
    const valid = await validInChunks(doc);
    rows.push({ engine, what: `CycloneDX 1.6, ${fmtInt(count)} components`, rows: COMPONENTS, seconds: bom.seconds, rssBeforeBytes: bom.before, rssPeakBytes: bom.peak, rssDownloadPeakBytes: bom.downloadPeak, downloadSeconds: bom.downloadSeconds, fileBytes: bom.bytes, valid });
    return rows;
  } finally {
    await db.destroy();
    await child.stop();
  }
}

export async function runExports(opts: { pgAdmin?: string }): Promise<ExportRow[]> {
  console.log(`\n${EXPORTS_LABEL}: CSV of ${SMALL && SMALL < FINDINGS ? `${fmtInt(SMALL)} then ` : ''}${fmtInt(FINDINGS)} vulnerabilities, CycloneDX of ${fmtInt(COMPONENTS)} components`);
  const rows = await withTempDir((dir) => runOn('sqlite', dir));
  if (opts.pgAdmin) rows.push(...(await withTempDir((dir) => withPgDatabase(opts.pgAdmin!, (url) => runOn('postgres', dir, url)))));
  else console.log('  PostgreSQL: skipped (set BENCH_PG)');
  return rows;
}

const mb = (bytes: number | undefined) => (bytes === undefined ? '-' : `${(bytes / 1_048_576).toFixed(1)} MB`);

export function printExports(rows: ExportRow[]): void {
  console.log(
    '\nExports (time from the request to "finished"; resident memory of the server process: before, peak while writing, peak while downloading; the download\'s speed, from the file store: the data directory on SQLite, the database on PostgreSQL)\n',
  );
  printAligned(
    ['engine', 'export', 'time s', 'rows/s', 'RSS before', 'peak writing', 'peak download', 'file', 'download MB/s', 'schema-valid'],
    rows.map((r) => [
      r.engine,
      r.what,
      r.seconds.toFixed(1),
      fmtInt(r.rows / r.seconds),
      mb(r.rssBeforeBytes),
      mb(r.rssPeakBytes),
      mb(r.rssDownloadPeakBytes),
      mb(r.fileBytes),
      r.downloadSeconds ? (r.fileBytes / 1_048_576 / r.downloadSeconds).toFixed(1) : '-',
      r.valid === undefined ? '' : r.valid ? 'yes' : 'NO',
    ]),
    new Set([2, 3, 4, 5, 6, 7, 8]),
  );
}
