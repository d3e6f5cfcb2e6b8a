import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { Db } from '../../db/index.ts';
import type { GroupExportRow, GroupRow, JobRow } from '../../db/schema.ts';
import type { FileStore, StoredFile } from '../../files/index.ts';
import { jobTicket, type JobDeps } from '../../queue/define.ts';
import { enqueue } from '../../queue/queue.ts';
import { isoPlus, nowIso } from '../../util/time.ts';
import { EXPORT_RETENTION_MS } from '../security/exports/exports.ts';
import { ARCHIVE_VERSION, EXPORTER_REVISION, EXPORTER_VERSION, NdjsonWriter, packArchive, type ArchiveFile } from './archive.ts';
import { archiveBadge, archiveBoard, archiveContributor, archiveEpic, archiveGroup, archiveLabel, archiveMember, archiveMilestone } from './archive-records.ts';

/**
 * A group's export in the platform's archive (archive.ts): asked for by an Owner, written by
 * a durable job into the file store, downloaded until the next export replaces it or it
 * expires with the retention of every other export.
 */

export const groupExportTicket = jobTicket({ kind: 'group_export', payload: z.object({ export_id: z.number().int() }), maxAttempts: 3 });

/** The file of a group's export in the file store. */
const fileKey = (groupId: number) => `group-exports/${groupId}.tar.gz`;

/** Starts an export of the group (replacing the one before, once this one is written) in one transaction with its job. */
export async function requestGroupExport(db: Db, group: Pick<GroupRow, 'id'>, authorId: number): Promise<void> {
  const now = nowIso();
  await db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('group_exports')
      .values({ group_id: group.id, author_id: authorId, status: 'scheduled', expires_at: isoPlus(EXPORT_RETENTION_MS), created_at: now, updated_at: now })
      .onConflict((oc) => oc.column('group_id').doUpdateSet({ author_id: authorId, status: 'scheduled', error: null, expires_at: isoPlus(EXPORT_RETENTION_MS), updated_at: now }))
      .returning('id')
      .executeTakeFirstOrThrow();
    await enqueue(trx, groupExportTicket, { export_id: row.id });
  });
}

/**
 * The group's exported archive, or null (never exported, or not written yet, or expired). A
 * new export being written still serves the one before: its file stays until replaced.
 */
export async function openGroupExport(db: Db, files: FileStore, group: Pick<GroupRow, 'id'>): Promise<StoredFile | null> {
  const row = await db.selectFrom('group_exports').select(['file_key', 'expires_at']).where('group_id', '=', group.id).executeTakeFirst();
  if (!row?.file_key || row.expires_at <= nowIso()) return null;
  return files.get(row.file_key);
}

/**
 * Writes the export's archive: the tree into a temporary folder, one ndjson file at a time a
 * page of rows at a time, then packed and gzipped as the file store takes it. Idempotent: a
 * run cut short left at most an unfinished put, never published.
 */
export async function writeGroupExport(deps: JobDeps & { job: JobRow }, exportId: number): Promise<void> {
  const { db, job, logger } = deps;
  const exp = await db.selectFrom('group_exports').selectAll().where('id', '=', exportId).executeTakeFirst();
  if (!exp || exp.status === 'finished' || exp.status === 'failed') return;
  await db.updateTable('group_exports').set({ status: 'started', updated_at: nowIso() }).where('id', '=', exp.id).execute();
  const tmp = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'gatehouse-group-export-'));
  try {
    const files = await writeTree(db, exp, tmp);
    const key = fileKey(exp.group_id);
    const written = await deps.files.put(key, packArchive(files));
    const done = nowIso();
    await db
      .updateTable('group_exports')
      .set({ status: 'finished', file_key: key, file_size: written.size, finished_at: done, expires_at: isoPlus(EXPORT_RETENTION_MS), error: null, updated_at: done })
      .where('id', '=', exp.id)
      .execute();
  } catch (e) {
    if (job.attempts < job.max_attempts) throw e;
    logger.warn({ err: e, group_export: exp.id }, 'group export failed');
    await db
      .updateTable('group_exports')
      .set({ status: 'failed', error: String((e as Error)?.message ?? e).slice(0, 1000), updated_at: nowIso() })
      .where('id', '=', exp.id)
      .execute();
  } finally {
    await fs.promises.rm(tmp, { recursive: true, force: true });
  }
}

const PAGE = 500;

/** Rows of a table in id order, a page at a time (keyset on id). */
async function* pages<T extends { id: number }>(read: (afterId: number) => Promise<T[]>): AsyncGenerator<T> {
  let after = 0;
  for (;;) {
    const rows = await read(after);
    for (const r of rows) yield r;
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1].id;
  }
}

/** Writes the archive's files for the export's group and every group below it; returns them in the archive's order. */
async function writeTree(db: Db, exp: GroupExportRow, dir: string): Promise<ArchiveFile[]> {
  const files: ArchiveFile[] = [];
  const plain = async (name: string, text: string) => {
    const file = path.join(dir, name);
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    await fs.promises.writeFile(file, text);
    files.push({ name, file });
  };
  await plain('VERSION', ARCHIVE_VERSION);
  await plain('GITLAB_VERSION', EXPORTER_VERSION);
  await plain('GITLAB_REVISION', EXPORTER_REVISION);
  const top = await db.selectFrom('groups').selectAll().where('id', '=', exp.group_id).executeTakeFirstOrThrow();
  // Parents before children: a parent's traversal is a prefix of its children's.
  const tree = await db.selectFrom('groups').selectAll().where('traversal', 'like', `${top.traversal}%`).orderBy('traversal').execute();
  await plain('tree/groups/_all.ndjson', tree.map((g) => `${g.id}\n`).join(''));
  for (const g of tree) {
    await plain(`tree/groups/${g.id}.json`, JSON.stringify(archiveGroup(g, g.id === top.id)));
    for (const [relation, write] of Object.entries(RELATION_WRITERS)) {
      const name = `tree/groups/${g.id}/${relation}.ndjson`;
      const out = new NdjsonWriter(path.join(dir, name));
      try {
        await write(db, g, out);
      } finally {
        await out.close();
      }
      files.push({ name, file: out.file });
    }
  }
  return files;
}

type RelationWriter = (db: Db, g: GroupRow, out: NdjsonWriter) => Promise<void>;

const RELATION_WRITERS: Record<string, RelationWriter> = {
  labels: async (db, g, out) => {
    for await (const l of pages((after) => db.selectFrom('labels').selectAll().where('group_id', '=', g.id).where('id', '>', after).orderBy('id').limit(PAGE).execute())) {
      await out.write(archiveLabel(l, g.id));
    }
  },
  milestones: async (db, g, out) => {
    for await (const m of pages((after) => db.selectFrom('milestones').selectAll().where('group_id', '=', g.id).where('id', '>', after).orderBy('id').limit(PAGE).execute())) {
      await out.write(archiveMilestone(m, g.id));
    }
  },
  epics: async (db, g, out) => {
    const read = (after: number) =>
      db
        .selectFrom('epics as e')
        .leftJoin('epics as p', 'p.id', 'e.parent_id')
        .selectAll('e')
        .select(['p.iid as parent_iid', 'p.group_id as parent_group_id', 'p.title as parent_title', 'p.state as parent_state'])
        .where('e.group_id', '=', g.id)
        .where('e.id', '>', after)
        .orderBy('e.id')
        .limit(PAGE)
        .execute();
    for await (const e of pages(read)) await out.write(archiveEpic(e, g.id));
  },
  boards: async (db, g, out) => {
    for await (const b of pages((after) => db.selectFrom('boards').selectAll().where('group_id', '=', g.id).where('id', '>', after).orderBy('id').limit(PAGE).execute())) {
      const lists = await db
        .selectFrom('board_lists as bl')
        .leftJoin('labels as l', 'l.id', 'bl.label_id')
        .select(['bl.id', 'bl.list_type', 'bl.position', 'bl.label_id', 'bl.created_at', 'bl.updated_at', 'l.title', 'l.color', 'l.description', 'l.group_id'])
        .where('bl.board_id', '=', b.id)
        .orderBy('bl.id')
        .execute();
      await out.write(archiveBoard(b, lists, g.id));
    }
  },
  badges: async (db, g, out) => {
    for await (const b of pages((after) => db.selectFrom('badges').selectAll().where('group_id', '=', g.id).where('id', '>', after).orderBy('id').limit(PAGE).execute())) {
      await out.write(archiveBadge(b, g.id));
    }
  },
  members: async (db, g, out) => {
    const read = (after: number) =>
      db
        .selectFrom('members as m')
        .innerJoin('users as u', 'u.id', 'm.user_id')
        .select(['m.id', 'm.access_level', 'm.user_id', 'm.expires_at', 'm.created_by_id', 'm.created_at', 'm.updated_at', 'u.username', 'u.public_email'])
        .where('m.source_type', '=', 'group')
        .where('m.source_id', '=', g.id)
        .where('u.bot', '=', 0)
        .where('m.id', '>', after)
        .orderBy('m.id')
        .limit(PAGE)
        .execute();
    for await (const m of pages(read)) await out.write(archiveMember(m, g.id));
  },
  user_contributions: async (db, g, out) => {
    const contributors = db
      .selectFrom('epics')
      .select('author_id as user_id')
      .where('group_id', '=', g.id)
      .where('author_id', 'is not', null)
      .union(db.selectFrom('epics').select('closed_by_id as user_id').where('group_id', '=', g.id).where('closed_by_id', 'is not', null));
    const read = (after: number) =>
      db
        .selectFrom('users')
        .select(['id', 'username', 'name', 'public_email'])
        .where('id', 'in', contributors)
        .where('id', '>', after)
        .orderBy('id')
        .limit(PAGE)
        .execute();
    for await (const u of pages(read)) await out.write(archiveContributor(u));
  },
};

/**
 * Deletes group exports past their expiry and their files; run by the hourly housekeeping. A
 * file is never older than its export's retention (it is written when its expiry is set), so
 * files of the area older than that are purged too: those of groups deleted meanwhile (their
 * rows went with them), and import archives a day old whose job gave up without removing them.
 */
export async function purgeExpiredGroupExports(db: Db, files: FileStore, now = nowIso()): Promise<number> {
  const expired = await db.selectFrom('group_exports').select(['id', 'file_key']).where('expires_at', '<=', now).where('status', 'in', ['finished', 'failed']).execute();
  for (const e of expired) if (e.file_key) await files.delete(e.file_key);
  if (expired.length)
    await db
      .deleteFrom('group_exports')
      .where(
        'id',
        'in',
        expired.map((e) => e.id),
      )
      .execute();
  const at = Date.parse(now);
  const orphans = await files.purgeOlderThan(new Date(at - EXPORT_RETENTION_MS), { prefix: 'group-exports/' });
  const archives = await files.purgeOlderThan(new Date(at - 86_400_000), { prefix: 'group-imports/' });
  return expired.length + orphans + archives;
}
