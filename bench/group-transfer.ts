/**
 * The "group transfer" section of `npm run bench` (BENCH_ONLY="group transfer"): a group tree
 * exported in the platform's archive and imported back under a new path, on SQLite and (with
 * BENCH_PG) PostgreSQL. The tree is a top group with BENCH_GROUP_SUBGROUPS subgroups (a tenth
 * of them children of the top group, the others their children), BENCH_GROUP_EPICS epics,
 * BENCH_GROUP_LABELS labels and BENCH_GROUP_MILESTONES milestones spread over all its groups
 * (a third of the epics have a parent epic, a fifth are closed), and BENCH_GROUP_USERS users
 * who are members of the top group and two each of the subgroups and author the epics (half
 * have a public email, so the import finds them; the others become placeholder users).
 *
 * The groups and users are made through the API (a hundred requests); the epics, labels and
 * milestones are written straight into the database in multi-row inserts. Then, over HTTP as a
 * client would: the export is asked for and the download polled until it answers 200 (time
 * from the request to ready), the archive downloaded, and imported under a new path with a
 * multipart upload, the new group polled until its import_status is finished (time from the
 * request to finished). Printed: both times, the archive's size, the server process's
 * resident memory before each and its peak during each (VmHWM, reset first, and VmRSS
 * sampled), and whether the imported tree's counts (groups, epics, epics with a parent,
 * labels, milestones, memberships: a user's here or a placeholder's) match the exported one's.
 *
 * The same is done first with a tree BENCH_GROUP_SMALL times the size (default 0.1; 0 skips
 * it) on the same server, so that the two peaks side by side show whether memory grows with
 * the archive. V8 collects its old space lazily, so an uncapped server's peak grows with the
 * garbage a longer run leaves before its first full collection, whatever it keeps alive:
 * BENCH_NODE_ARGS=--max-old-space-size=96 caps the server's heap (its live heap is about 60 MB
 * here), and then the peaks show what the work needs. It measures, never judges.
 *
 * Environment: BENCH_GROUP_SUBGROUPS (default 100), BENCH_GROUP_EPICS, BENCH_GROUP_LABELS,
 * BENCH_GROUP_MILESTONES (default 10000 each), BENCH_GROUP_USERS (default 20),
 * BENCH_GROUP_SMALL (default 0.1), BENCH_GROUP_TIMEOUT_SECONDS (how long an export or an
 * import is waited for, default 1800).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { Insertable } from 'kysely';
import { openDb, type Db } from '../bff/src/db/index.ts';
import { isPostgres } from '../bff/src/db/dialect.ts';
import type { EpicsTable, LabelsTable, MilestonesTable } from '../bff/src/db/schema.ts';
import type { ExportsChildReady } from './exports-child.ts';
import { envNumber, fmtInt, memory, peakDuring, printAligned, startChild, withPgDatabase, withTempDir } from './lib.ts';

export const GROUP_TRANSFER_LABEL = 'group transfer';

const SUBGROUPS = Math.round(envNumber('BENCH_GROUP_SUBGROUPS', 100, 0));
const EPICS = Math.round(envNumber('BENCH_GROUP_EPICS', 10_000, 0));
const LABELS = Math.round(envNumber('BENCH_GROUP_LABELS', 10_000, 0));
const MILESTONES = Math.round(envNumber('BENCH_GROUP_MILESTONES', 10_000, 0));
const USERS = Math.round(envNumber('BENCH_GROUP_USERS', 20, 1));
const SMALL = Math.min(1, envNumber('BENCH_GROUP_SMALL', 0.1, 0));
/** How long an export or an import may take before the bench stops waiting for it. */
const TIMEOUT_MS = envNumber('BENCH_GROUP_TIMEOUT_SECONDS', 1800, 1) * 1000;

interface TreeSize {
  subgroups: number;
  epics: number;
  labels: number;
  milestones: number;
}

/** What a group tree holds, counted in the database. */
interface Counts {
  groups: number;
  epics: number;
  epicsWithParent: number;
  labels: number;
  milestones: number;
  /** Memberships of users here. */
  members: number;
  /** Memberships held by placeholder users (an imported tree's people not found here). */
  placeholderMembers: number;
}

export interface GroupTransferRow {
  engine: string;
  size: TreeSize;
  exportSeconds: number;
  exportRssBefore?: number;
  exportRssPeak?: number;
  archiveBytes: number;
  /** The archive's tar, decompressed. */
  unpackedBytes: number;
  downloadSeconds: number;
  /** From the start of the upload to its 202 (the archive checked whole and stored). */
  uploadSeconds: number;
  importSeconds: number;
  importRssBefore?: number;
  importRssPeak?: number;
  importStatus: string;
  importError?: string | null;
  exported: Counts;
  imported?: Counts;
}

const scaled = (s: TreeSize, f: number): TreeSize => ({
  subgroups: Math.max(1, Math.round(s.subgroups * f)),
  epics: Math.round(s.epics * f),
  labels: Math.round(s.labels * f),
  milestones: Math.round(s.milestones * f),
});

async function insertChunked<T>(db: Db, rows: T[], insert: (trx: Db, part: T[]) => Promise<unknown>): Promise<void> {
  // Under the engines' bound-parameter limits (SQLite 32,766; PostgreSQL 65,535) with ~20 columns.
  const size = isPostgres(db) ? 2000 : 1000;
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += size) await insert(trx, rows.slice(i, i + size));
  });
}

/** The ids of a tree's groups (top first), from its top group's traversal. */
async function treeIds(db: Db, topId: number): Promise<number[]> {
  const top = await db.selectFrom('groups').select('traversal').where('id', '=', topId).executeTakeFirstOrThrow();
  const rows = await db.selectFrom('groups').select('id').where('traversal', 'like', `${top.traversal}%`).orderBy('traversal').execute();
  return rows.map((r) => r.id);
}

/** What a tree holds; `importer`: the user whose Owner membership of the top group the import request made (not the archive's, not counted). */
async function countTree(db: Db, topId: number, importer?: number): Promise<Counts> {
  const ids = await treeIds(db, topId);
  const count = async (table: 'epics' | 'labels' | 'milestones', withParent = false) => {
    let q = db.selectFrom(table).select((eb) => eb.fn.countAll<number | string>().as('n')).where('group_id', 'in', ids);
    if (withParent) q = q.where('parent_id' as never, 'is not', null);
    return Number((await q.executeTakeFirstOrThrow()).n);
  };
  const members = await db
    .selectFrom('members')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('source_type', '=', 'group')
    .where('source_id', 'in', ids)
    .where((w) => (importer === undefined ? w.lit(true) : w.or([w('source_id', '!=', topId), w('user_id', '!=', importer)])))
    .executeTakeFirstOrThrow();
  const held = await db
    .selectFrom('import_placeholder_memberships')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('group_id', 'in', ids)
    .executeTakeFirstOrThrow();
  return {
    groups: ids.length,
    epics: await count('epics'),
    epicsWithParent: await count('epics', true),
    labels: await count('labels'),
    milestones: await count('milestones'),
    members: Number(members.n),
    placeholderMembers: Number(held.n),
  };
}

/** Whether an imported tree holds what the exported one did (a membership either a user's here or a placeholder's). */
function sameCounts(a: Counts, b: Counts): boolean {
  const key = (c: Counts) => [c.groups, c.epics, c.epicsWithParent, c.labels, c.milestones, c.members + c.placeholderMembers].join();
  return key(a) === key(b);
}

/**
 * Epics, labels and milestones spread over the tree's groups (item i in group i mod n), in
 * multi-row inserts; then a third of the epics get a parent in their group (iid ÷ 3, a tree a
 * few levels deep). Authors rotate over `authors`; every fifth epic is closed by the next one.
 */
async function insertContent(db: Db, groupIds: number[], size: TreeSize, authors: number[], tag: string): Promise<void> {
  const now = new Date().toISOString();
  const n = groupIds.length;
  const iidOf = (i: number) => Math.floor(i / n) + 1;
  const labels: Insertable<LabelsTable>[] = [];
  for (let i = 0; i < size.labels; i++) {
    labels.push({ group_id: groupIds[i % n], project_id: null, title: `${tag} label ${i}`, color: `#${(i * 2654435761 % 0xffffff).toString(16).padStart(6, '0')}`, description: `Label ${i} of the ${tag} tree`, priority: null, created_at: now, updated_at: now });
  }
  await insertChunked(db, labels, (trx, part) => trx.insertInto('labels').values(part).execute());
  const milestones: Insertable<MilestonesTable>[] = [];
  for (let i = 0; i < size.milestones; i++) {
    milestones.push({
      group_id: groupIds[i % n],
      project_id: null,
      iid: iidOf(i),
      title: `${tag} milestone ${i}`,
      description: `Milestone ${i}: what ships in it and when.`,
      state: i % 4 === 0 ? 'closed' : 'active',
      start_date: '2026-01-01',
      due_date: '2026-12-31',
      created_at: now,
      updated_at: now,
    });
  }
  await insertChunked(db, milestones, (trx, part) => trx.insertInto('milestones').values(part).execute());
  const epics: Insertable<EpicsTable>[] = [];
  for (let i = 0; i < size.epics; i++) {
    const closed = i % 5 === 0;
    epics.push({
      group_id: groupIds[i % n],
      iid: iidOf(i),
      author_id: authors[i % authors.length],
      title: `${tag} epic ${i}`,
      description: `Epic ${i} of the ${tag} tree: a paragraph of what it is about, long enough to look like one written by a person planning work.`,
      state: closed ? 'closed' : 'opened',
      confidential: i % 10 === 3 ? 1 : 0,
      parent_id: null,
      start_date_fixed: '2026-02-01',
      start_date_is_fixed: 1,
      due_date_fixed: null,
      due_date_is_fixed: 0,
      closed_at: closed ? now : null,
      closed_by_id: closed ? authors[(i + 1) % authors.length] : null,
      created_at: now,
      updated_at: now,
    });
  }
  await insertChunked(db, epics, (trx, part) => trx.insertInto('epics').values(part).execute());
  await db
    .updateTable('epics as e')
    .set((eb) => ({
      parent_id: eb
        .selectFrom('epics as p')
        .select('p.id')
        .whereRef('p.group_id', '=', 'e.group_id')
        .where((w) => w('p.iid', '=', w(w.ref('e.iid'), '/', 3))),
    }))
    .where('e.group_id', 'in', groupIds)
    .where('e.iid', '>=', 3)
    .where((w) => w(w(w.ref('e.iid'), '%', 3), '=', 0))
    .execute();
}

async function runOn(engine: 'sqlite' | 'postgres', dir: string, databaseUrl?: string): Promise<GroupTransferRow[]> {
  const token = `bench-root-${crypto.randomBytes(12).toString('hex')}`;
  const child = await startChild<ExportsChildReady>('exports-child.ts', [], { BENCH_DATA_DIR: dir, BENCH_ROOT_TOKEN: token, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) }, 120_000);
  const db = openDb({ databaseUrl, sqliteFile: path.join(dir, 'gatehouse.sqlite3'), poolSize: 2 });
  const send = (p: string, init: { method?: string; json?: unknown; form?: FormData } = {}) => {
    const go = () =>
      fetch(`${child.info.url}/api/v4${p}`, {
        method: init.method ?? 'GET',
        headers: { 'PRIVATE-TOKEN': token, ...(init.json !== undefined ? { 'Content-Type': 'application/json' } : {}) },
        body: init.form ?? (init.json === undefined ? undefined : JSON.stringify(init.json)),
      });
    // A kept-alive connection the server closed while the rows were inserted fails once: ask again.
    return go().catch(go);
  };
  const call = async <T>(p: string, init: { method?: string; json?: unknown } = {}): Promise<T> => {
    const res = await send(p, init);
    const text = await res.text();
    if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${p}: ${res.status} ${text.slice(0, 300)}`);
    return JSON.parse(text) as T;
  };
  const waitUntil = async <T>(what: string, check: () => Promise<T | undefined>): Promise<T> => {
    const until = Date.now() + TIMEOUT_MS;
    for (;;) {
      const found = await check();
      if (found !== undefined) return found;
      if (Date.now() > until) throw new Error(`gave up waiting for ${what} after ${TIMEOUT_MS / 1000} s`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  try {
    // The people: members of the trees and authors of their epics; half of them can be found by their public email.
    const me = await call<{ id: number }>('/user');
    const users: number[] = [];
    for (let i = 0; i < USERS; i++) {
      const username = `bench-person-${i}`;
      const u = await call<{ id: number }>('/users', {
        method: 'POST',
        json: { username, name: `Bench Person ${i}`, email: `${username}@example.com`, password: 'bench-person-password', skip_confirmation: true, ...(i % 2 === 0 ? { public_email: `${username}@example.com` } : {}) },
      });
      users.push(u.id);
    }

    /** A tree made and filled: the groups through the API, their content straight into the database. */
    const makeTree = async (tag: string, size: TreeSize): Promise<number> => {
      const t = performance.now();
      const top = await call<{ id: number }>('/groups', { method: 'POST', json: { name: `Bench ${tag}`, path: `bench-${tag}` } });
      for (const u of users) await call(`/groups/${top.id}/members`, { method: 'POST', json: { user_id: u, access_level: 30 } });
      const children = Math.max(1, Math.round(size.subgroups / 10));
      const made: number[] = [];
      for (let i = 0; i < size.subgroups; i++) {
        const parent = i < children ? top.id : made[i % children];
        const g = await call<{ id: number }>('/groups', { method: 'POST', json: { name: `${tag} subgroup ${i}`, path: `${tag}-sub-${i}`, parent_id: parent } });
        made.push(g.id);
        // Two members each, at a higher role than the one inherited.
        for (const k of [0, 1]) await call(`/groups/${g.id}/members`, { method: 'POST', json: { user_id: users[(2 * i + k) % users.length], access_level: 40 } });
      }
      await insertContent(db, [top.id, ...made], size, users, tag);
      console.log(`  ${engine}: ${tag} tree made in ${((performance.now() - t) / 1000).toFixed(1)} s`);
      return top.id;
    };

    const rows: GroupTransferRow[] = [];
    const full: TreeSize = { subgroups: SUBGROUPS, epics: EPICS, labels: LABELS, milestones: MILESTONES };
    const sizes = SMALL > 0 && SMALL < 1 ? [{ tag: 'small', size: scaled(full, SMALL) }, { tag: 'full', size: full }] : [{ tag: 'full', size: full }];
    for (const { tag, size } of sizes) {
      const topId = await makeTree(tag, size);
      const exported = await countTree(db, topId);

      // Export: from the request to the download's first 200.
      const exportBefore = memory(child.pid).rss;
      const exp = await peakDuring(child.pid, async () => {
        const t = performance.now();
        const res = await send(`/groups/${topId}/export`, { method: 'POST' });
        if (res.status !== 202) throw new Error(`POST /groups/${topId}/export: ${res.status} ${await res.text()}`);
        await waitUntil(`the export of the ${tag} tree`, async () => {
          const r = await send(`/groups/${topId}/export/download`);
          await r.body?.cancel();
          return r.status === 200 ? true : undefined;
        });
        return (performance.now() - t) / 1000;
      });
      const file = path.join(dir, `${tag}-export.tar.gz`);
      let t = performance.now();
      const download = await send(`/groups/${topId}/export/download`);
      await pipeline(Readable.fromWeb(download.body! as WebReadableStream), fs.createWriteStream(file));
      const downloadSeconds = (performance.now() - t) / 1000;
      const archiveBytes = fs.statSync(file).size;
      let unpackedBytes = 0;
      for await (const chunk of fs.createReadStream(file).pipe(zlib.createGunzip())) unpackedBytes += (chunk as Buffer).length;
      console.log(`  ${engine}: ${tag} tree exported in ${exp.result.toFixed(1)} s, ${mb(archiveBytes)}`);

      // Import: from the start of the upload to import_status finished (or failed).
      const newPath = `bench-${tag}-imported`;
      const importBefore = memory(child.pid).rss;
      let uploadSeconds = 0;
      const imp = await peakDuring(child.pid, async () => {
        t = performance.now();
        const form = new FormData();
        form.append('name', `Bench ${tag} imported`);
        form.append('path', newPath);
        form.append('file', await fs.openAsBlob(file), 'export.tar.gz');
        const res = await send('/groups/import', { method: 'POST', form });
        if (res.status !== 202) throw new Error(`POST /groups/import: ${res.status} ${await res.text()}`);
        uploadSeconds = (performance.now() - t) / 1000;
        const group = await waitUntil(`the import of the ${tag} tree`, async () => {
          const r = await send(`/groups/${encodeURIComponent(newPath)}`);
          const body = (await r.json()) as { id: number; import_status?: string; import_error?: string | null };
          return r.status === 200 && (body.import_status === 'finished' || body.import_status === 'failed') ? body : undefined;
        });
        return { group, seconds: (performance.now() - t) / 1000 };
      });
      fs.rmSync(file);
      const { group } = imp.result;
      const imported = group.import_status === 'finished' ? await countTree(db, group.id, me.id) : undefined;
      console.log(`  ${engine}: ${tag} tree imported in ${imp.result.seconds.toFixed(1)} s (${group.import_status}${group.import_error ? `: ${group.import_error}` : ''})`);
      rows.push({
        engine,
        size,
        exportSeconds: exp.result,
        exportRssBefore: exportBefore,
        exportRssPeak: exp.peak,
        archiveBytes,
        unpackedBytes,
        downloadSeconds,
        uploadSeconds,
        importSeconds: imp.result.seconds,
        importRssBefore: importBefore,
        importRssPeak: imp.peak,
        importStatus: group.import_status ?? '?',
        importError: group.import_error,
        exported,
        imported,
      });
    }
    return rows;
  } finally {
    await db.destroy();
    await child.stop();
  }
}

export async function runGroupTransfer(opts: { pgAdmin?: string }): Promise<GroupTransferRow[]> {
  const full: TreeSize = { subgroups: SUBGROUPS, epics: EPICS, labels: LABELS, milestones: MILESTONES };
  console.log(
    `\n${GROUP_TRANSFER_LABEL}: export and import of a tree of ${fmtInt(SUBGROUPS)} subgroups, ${fmtInt(EPICS)} epics, ${fmtInt(LABELS)} labels, ${fmtInt(MILESTONES)} milestones` +
      (SMALL > 0 && SMALL < 1 ? ` (after one ${SMALL} times the size: ${fmtInt(scaled(full, SMALL).subgroups)} subgroups, ${fmtInt(scaled(full, SMALL).epics)} epics…)` : ''),
  );
  const rows: GroupTransferRow[] = [];
  const attempt = async (engine: string, run: () => Promise<GroupTransferRow[]>) => {
    try {
      rows.push(...(await run()));
    } catch (err) {
      console.log(`  ${engine}: ERROR ${err instanceof Error ? err.message : String(err)}`);
    }
  };
  await attempt('sqlite', () => withTempDir((dir) => runOn('sqlite', dir)));
  if (opts.pgAdmin) await attempt('postgres', () => withTempDir((dir) => withPgDatabase(opts.pgAdmin!, (url) => runOn('postgres', dir, url))));
  else console.log('  PostgreSQL: skipped (set BENCH_PG)');
  return rows;
}

const mb = (bytes: number | undefined) => (bytes === undefined ? '-' : bytes < 1_048_576 ? `${(bytes / 1024).toFixed(0)} kB` : `${(bytes / 1_048_576).toFixed(1)} MB`);
const countsText = (c: Counts) =>
  `${fmtInt(c.groups)} groups, ${fmtInt(c.epics)} epics (${fmtInt(c.epicsWithParent)} with a parent), ${fmtInt(c.labels)} labels, ${fmtInt(c.milestones)} milestones, ${fmtInt(c.members)} memberships + ${fmtInt(c.placeholderMembers)} held by placeholders`;

export function printGroupTransfer(rows: GroupTransferRow[]): void {
  console.log(
    '\nGroup export and import (export: request to the download\'s first 200; import: the upload\'s start to import_status finished, "upload" to its 202; resident memory of the server process before each and its peak during it)\n',
  );
  printAligned(
    ['engine', 'tree', 'export s', 'archive', 'unpacked', 'download s', 'RSS before', 'peak export', 'import s', 'upload s', 'RSS before', 'peak import', 'imported rec/s', 'counts match'],
    rows.map((r) => {
      const records = r.exported.groups + r.exported.epics + r.exported.labels + r.exported.milestones;
      const same = r.imported && sameCounts(r.imported, r.exported);
      return [
        r.engine,
        `${fmtInt(r.size.subgroups)} subgroups, ${fmtInt(r.size.epics)}/${fmtInt(r.size.labels)}/${fmtInt(r.size.milestones)} e/l/m`,
        r.exportSeconds.toFixed(1),
        mb(r.archiveBytes),
        mb(r.unpackedBytes),
        r.downloadSeconds.toFixed(2),
        mb(r.exportRssBefore),
        mb(r.exportRssPeak),
        r.importSeconds.toFixed(1),
        r.uploadSeconds.toFixed(2),
        mb(r.importRssBefore),
        mb(r.importRssPeak),
        fmtInt(records / r.importSeconds),
        r.importStatus !== 'finished' ? `import ${r.importStatus}` : same ? 'yes' : 'NO',
      ];
    }),
    new Set([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]),
  );
  for (const r of rows) {
    const tree = `${r.engine}, ${fmtInt(r.size.subgroups)} subgroups`;
    if (r.importError) console.log(`  ${tree}: the import failed: ${r.importError}`);
    console.log(`  ${tree}: exported ${countsText(r.exported)}`);
    if (r.imported) console.log(`  ${' '.repeat(tree.length)}  imported ${countsText(r.imported)}`);
  }
}
