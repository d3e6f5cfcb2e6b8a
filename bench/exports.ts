/**
 * The "exports" section of `npm run bench` (BENCH_ONLY=exports): a CSV export of 1,000,000
 * vulnerabilities and a CycloneDX 1.6 export of 100,000 components, on SQLite and (with
 * BENCH_PG) PostgreSQL. The rows are written straight into the database in multi-row inserts
 * (not through the API); the export is then asked for over HTTP like any client would, and
 * polled until it is finished. Printed: the export's time (request to finished), rows per
 * second, the server process's resident memory before and at its peak (VmHWM), the file's size,
 * and for CycloneDX whether the document passes the official JSON schema validation (see
 * validInChunks).
 *
 * It measures, never judges. Environment: BENCH_EXPORT_FINDINGS (default 1000000),
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
import { envNumber, fmtInt, printAligned, startChild, withPgDatabase, withTempDir } from './lib.ts';

export const EXPORTS_LABEL = 'exports';
const FINDINGS = Math.round(envNumber('BENCH_EXPORT_FINDINGS', 1_000_000, 1));
const COMPONENTS = Math.round(envNumber('BENCH_EXPORT_COMPONENTS', 100_000, 1));

export interface ExportRow {
  engine: string;
  what: string;
  rows: number;
  seconds: number;
  rssBeforeBytes?: number;
  rssPeakBytes?: number;
  fileBytes: number;
  valid?: boolean;
}

/** Resident and peak resident memory of a process, from /proc (Linux). */
function memory(pid: number): { rss?: number; peak?: number } {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]) * 1024 || undefined;
    return { rss: kb('VmRSS'), peak: kb('VmHWM') };
  } catch {
    return {};
  }
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
  /** Asks for an export, waits for it, downloads it: the time is from the request to "finished". */
  const exportOf = async (create: string, body: object, get: (id: number) => string) => {
    const t = performance.now();
    const { id } = (await (await call(create, 'POST', body)).json()) as { id: number };
    for (;;) {
      const res = await call(get(id));
      if (res.status === 200) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const seconds = (performance.now() - t) / 1000;
    const file = path.join(dir, `download-${id}`);
    await pipeline(Readable.fromWeb((await call(`${get(id)}/download`)).body! as import('node:stream/web').ReadableStream), fs.createWriteStream(file));
    return { seconds, file, bytes: fs.statSync(file).size };
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
    let t = performance.now();
    await insertFindings(db, project.id, FINDINGS);
    console.log(`  ${engine}: ${fmtInt(FINDINGS)} findings inserted in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    t = performance.now();
    await insertComponents(db, components.id, COMPONENTS);
    console.log(`  ${engine}: ${fmtInt(COMPONENTS)} components inserted in ${((performance.now() - t) / 1000).toFixed(1)} s`);

    const rows: ExportRow[] = [];
    const before = memory(child.pid);
    const csv = await exportOf(`/security/projects/${project.id}/vulnerability_exports`, { export_format: 'csv' }, (id) => `/security/vulnerability_exports/${id}`);
    const afterCsv = memory(child.pid);
    const lines = await lineCount(csv.file);
    rows.push({ engine, what: `CSV, ${fmtInt(lines - 1)} findings`, rows: FINDINGS, seconds: csv.seconds, rssBeforeBytes: before.rss, rssPeakBytes: afterCsv.peak, fileBytes: csv.bytes });

    const bom = await exportOf(`/projects/${components.id}/dependency_list_exports`, { export_type: 'cyclonedx_1_6_json' }, (id) => `/dependency_list_exports/${id}`);
    const afterBom = memory(child.pid);
    const doc = JSON.parse(fs.readFileSync(bom.file, 'utf8')) as { components: { 'bom-ref': string }[] };
    const count = doc.components.length;
    const valid = await validInChunks(doc);
    rows.push({ engine, what: `CycloneDX 1.6, ${fmtInt(count)} components`, rows: COMPONENTS, seconds: bom.seconds, rssBeforeBytes: afterCsv.rss, rssPeakBytes: afterBom.peak, fileBytes: bom.bytes, valid });
    return rows;
  } finally {
    await db.destroy();
    await child.stop();
  }
}

export async function runExports(opts: { pgAdmin?: string }): Promise<ExportRow[]> {
  console.log(`\n${EXPORTS_LABEL}: CSV of ${fmtInt(FINDINGS)} vulnerabilities, CycloneDX of ${fmtInt(COMPONENTS)} components`);
  const rows = await withTempDir((dir) => runOn('sqlite', dir));
  if (opts.pgAdmin) rows.push(...(await withTempDir((dir) => withPgDatabase(opts.pgAdmin!, (url) => runOn('postgres', dir, url)))));
  else console.log('  PostgreSQL: skipped (set BENCH_PG)');
  return rows;
}

const mb = (bytes: number | undefined) => (bytes === undefined ? '-' : `${(bytes / 1_048_576).toFixed(1)} MB`);

export function printExports(rows: ExportRow[]): void {
  console.log('\nExports (time from the request to "finished"; memory of the server process)\n');
  printAligned(
    ['engine', 'export', 'time s', 'rows/s', 'RSS before', 'peak RSS', 'file', 'schema-valid'],
    rows.map((r) => [
      r.engine,
      r.what,
      r.seconds.toFixed(1),
      fmtInt(r.rows / r.seconds),
      mb(r.rssBeforeBytes),
      mb(r.rssPeakBytes),
      mb(r.fileBytes),
      r.valid === undefined ? '' : r.valid ? 'yes' : 'NO',
    ]),
    new Set([2, 3, 4, 5, 6]),
  );
}
