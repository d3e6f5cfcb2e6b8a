import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { namespacePath } from '../../../../shared/src/groups.ts';
import type { Actor } from '../../auth/actor.ts';
import type { Db } from '../../db/index.ts';
import type { GroupRow, JobRow } from '../../db/schema.ts';
import type { FileStore } from '../../files/index.ts';
import { canInstance } from '../../policies/index.ts';
import { jobTicket, type JobDeps } from '../../queue/define.ts';
import { enqueue } from '../../queue/queue.ts';
import { badRequest, forbidden } from '../../util/errors.ts';
import { nowIso } from '../../util/time.ts';
import { checkNewGroup, groupToCreateIn, insertGroup } from '../groups/groups.ts';
import { ARCHIVE_VERSION, ArchiveRefused, extractArchive, readNdjson, type ArchiveLimits } from './archive.ts';
import { levelName, PROJECT_CREATION_LEVELS, SUBGROUP_CREATION_LEVELS, VISIBILITY_LEVELS } from './levels.ts';
import { Contributors, type SourceUser } from './placeholders.ts';

/**
 * Group import from the platform's archive (archive.ts). The request checks the archive whole
 * (a hostile one is a 400 and leaves nothing), keeps it in the file store and makes the top
 * group, `import_status` scheduled, with its job in one transaction. The job imports the tree
 * in one transaction: a failure leaves the top group empty with `import_status` failed and the
 * reason in `import_error`, and the archive is removed from the store either way.
 */

export const groupImportTicket = jobTicket({
  kind: 'group_import',
  payload: z.object({ group_id: z.number().int(), user_id: z.number().int(), file_key: z.string(), source_hostname: z.string() }),
  maxAttempts: 3,
});

/** What the platform calls this kind of import in a placeholder's Import type. */
export const IMPORT_TYPE = 'import_group_from_file';

export interface ImportRequest {
  name: string;
  path: string;
  parent_id?: number | null;
}

/** POST /groups/import: checks the caller, the new group's place and the archive, then schedules the import. */
export async function startGroupImport(db: Db, files: FileStore, limits: ArchiveLimits, actor: Actor, body: ImportRequest, upload: string, sourceHostname: string): Promise<GroupRow> {
  const parent = body.parent_id == null ? null : await groupToCreateIn(db, actor, body.parent_id, 'create_subgroup', 'parent_id');
  if (!parent && !canInstance(actor, 'create_group')) throw forbidden('you cannot create top-level groups');
  // Private, unless imported into a parent: then the parent's visibility (the spec).
  const visibility = await checkNewGroup(db, { path: body.path, visibility: (parent ? parent.visibility : 'private') as 'private' }, parent);
  try {
    await extractArchive(fs.createReadStream(upload), null, limits);
  } catch (e) {
    if (e instanceof ArchiveRefused) throw badRequest(`The archive was refused: ${e.message}`);
    throw e;
  }
  const key = `group-imports/${crypto.randomUUID()}.tar.gz`;
  await files.put(key, fs.createReadStream(upload));
  try {
    return await db.transaction().execute(async (trx) => {
      const group = await insertGroup(trx, actor.user!, { name: body.name, path: body.path }, parent, visibility, { import_status: 'scheduled' });
      await enqueue(trx, groupImportTicket, { group_id: group.id, user_id: actor.user!.id, file_key: key, source_hostname: sourceHostname });
      return group;
    });
  } catch (e) {
    await files.delete(key);
    throw e;
  }
}

/** The import job: idempotent (a finished or failed import is left alone; a run cut short rolled back and runs again). */
export async function runGroupImport(deps: JobDeps & { job: JobRow }, payload: z.output<typeof groupImportTicket.payload>): Promise<void> {
  const { db, job, files, config, logger } = deps;
  const group = await db.selectFrom('groups').selectAll().where('id', '=', payload.group_id).executeTakeFirst();
  if (!group || group.import_status === 'finished' || group.import_status === 'failed') {
    await files.delete(payload.file_key);
    return;
  }
  await db.updateTable('groups').set({ import_status: 'started' }).where('id', '=', group.id).execute();
  const tmp = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'gatehouse-group-import-'));
  try {
    const file = await files.get(payload.file_key);
    if (!file) throw new ArchiveRefused('the uploaded archive is no longer there');
    await extractArchive(file.stream, tmp, config.importLimits);
    const version = (await fs.promises.readFile(path.join(tmp, 'VERSION'), 'utf8')).trim();
    if (version !== ARCHIVE_VERSION) throw new ArchiveRefused(`Import version mismatch: Required ${ARCHIVE_VERSION} but was ${version}`);
    await db.transaction().execute(async (trx) => {
      await new TreeImport(trx, group, tmp, payload).run();
      await trx.updateTable('groups').set({ import_status: 'finished', import_error: null }).where('id', '=', group.id).execute();
    });
  } catch (e) {
    if (!(e instanceof ArchiveRefused) && job.attempts < job.max_attempts) {
      await fs.promises.rm(tmp, { recursive: true, force: true });
      throw e;
    }
    logger.warn({ err: e, group: group.id }, 'group import failed');
    // Nothing of it is left once it says failed: the archive and the temporary folder go first.
    await fs.promises.rm(tmp, { recursive: true, force: true });
    await files.delete(payload.file_key);
    const reason = e instanceof ArchiveRefused ? e.message : `the import failed: ${String((e as Error)?.message ?? e)}`;
    await db.updateTable('groups').set({ import_status: 'failed', import_error: reason.slice(0, 1000) }).where('id', '=', group.id).execute();
    return;
  }
  await fs.promises.rm(tmp, { recursive: true, force: true });
  await files.delete(payload.file_key);
}

type Rec = Record<string, unknown>;
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isSafeInteger(v) ? v : null);
const flag = (v: unknown): 0 | 1 => (v === true || v === 1 ? 1 : 0);
const date = (v: unknown): string | null => (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v)) ? v : null);
function time(v: unknown, fallback: string): string {
  if (typeof v !== 'string') return fallback;
  const t = Date.parse(v.replace(' UTC', 'Z').replace(' ', 'T'));
  return Number.isNaN(t) ? fallback : new Date(t).toISOString();
}
const ACCESS_LEVELS = new Set([10, 20, 30, 40, 50]);
const VISIBILITY_ORDER = ['private', 'internal', 'public'];

/** One import of an extracted archive's tree, in the caller's transaction. */
class TreeImport {
  private readonly groups = new Map<number, GroupRow>();
  private readonly labels = new Map<number, number>();
  private readonly epics = new Map<number, number>();
  private readonly epicParents: [number, number][] = [];
  private readonly now = nowIso();
  private readonly contributors: Contributors;

  constructor(
    private readonly trx: Db,
    private readonly top: GroupRow,
    private readonly dir: string,
    payload: { source_hostname: string },
  ) {
    const rootId = Number(top.traversal.split('/')[1]);
    this.contributors = new Contributors(trx, { namespace_id: rootId, source_hostname: payload.source_hostname, import_type: IMPORT_TYPE });
  }

  private file = (...parts: string[]) => path.join(this.dir, 'tree', 'groups', ...parts);

  async run(): Promise<void> {
    const ids: number[] = [];
    for await (const line of readNdjson(this.file('_all.ndjson'))) {
      const id = num(line);
      if (id === null) throw new ArchiveRefused('tree/groups/_all.ndjson holds something other than group ids');
      ids.push(id);
    }
    if (!ids.length) throw new ArchiveRefused('tree/groups/_all.ndjson names no group');
    // Who is who first: members and contributors of every group name the people the records point to.
    for (const id of ids) {
      for await (const m of readNdjson(this.file(String(id), 'members.ndjson'))) this.contributors.know(sourceUser(m.user as Rec | undefined, m.user_id));
      for await (const u of readNdjson(this.file(String(id), 'user_contributions.ndjson'))) this.contributors.know(sourceUser(u, u.id));
    }
    await this.contributors.resolve();
    for (const [i, id] of ids.entries()) await this.importGroup(id, i === 0);
    for (const [epic, sourceParent] of this.epicParents) {
      const parent = this.epics.get(sourceParent);
      if (parent !== undefined) await this.trx.updateTable('epics').set({ parent_id: parent }).where('id', '=', epic).execute();
    }
  }

  private async importGroup(id: number, isTop: boolean): Promise<void> {
    const attrsFile = this.file(`${id}.json`);
    if (!fs.existsSync(attrsFile)) throw new ArchiveRefused(`the archive has no tree/groups/${id}.json`);
    let attrs: Rec;
    try {
      attrs = JSON.parse(await fs.promises.readFile(attrsFile, 'utf8')) as Rec;
    } catch {
      throw new ArchiveRefused(`tree/groups/${id}.json is not JSON`);
    }
    if (attrs?.id !== id) throw new ArchiveRefused(`Invalid group_id for ${id}`);
    let group: GroupRow;
    if (isTop) {
      // The top group's name and path are the request's; its other attributes the archive's.
      group = this.top;
      await this.trx.updateTable('groups').set({ description: str(attrs.description) ?? '' }).where('id', '=', group.id).execute();
    } else {
      const parent = this.groups.get(num(attrs.parent_id) ?? -1);
      if (!parent) throw new ArchiveRefused(`Parent group not found for group ${id}`);
      const name = str(attrs.name)?.trim();
      const pathOk = namespacePath.safeParse(attrs.path);
      if (!name || name.length > 255 || !pathOk.success) throw new ArchiveRefused(`group ${id} has no valid name or path`);
      const taken = await this.trx.selectFrom('groups').select('id').where('parent_id', '=', parent.id).where('path', '=', pathOk.data).executeTakeFirst();
      if (taken) throw new ArchiveRefused(`group ${id}: the path ${pathOk.data} is taken in ${parent.full_path}`);
      const own = levelName(VISIBILITY_LEVELS, attrs.visibility_level) ?? 'private';
      const visibility = VISIBILITY_ORDER[Math.min(VISIBILITY_ORDER.indexOf(own), VISIBILITY_ORDER.indexOf(parent.visibility))];
      group = await insertGroup(
        this.trx,
        null,
        {
          name,
          path: pathOk.data,
          description: (str(attrs.description) ?? '').slice(0, 500),
          project_creation_level: levelName(PROJECT_CREATION_LEVELS, attrs.project_creation_level) as never,
          subgroup_creation_level: levelName(SUBGROUP_CREATION_LEVELS, attrs.subgroup_creation_level) as never,
          request_access_enabled: typeof attrs.request_access_enabled === 'boolean' ? attrs.request_access_enabled : undefined,
          lfs_enabled: typeof attrs.lfs_enabled === 'boolean' ? attrs.lfs_enabled : undefined,
          emails_enabled: typeof attrs.emails_enabled === 'boolean' ? attrs.emails_enabled : undefined,
        },
        parent,
        visibility,
      );
    }
    this.groups.set(id, group);
    await this.importLabels(id, group);
    await this.importMilestones(id, group);
    await this.importEpics(id, group);
    await this.importBoards(id, group);
    await this.importBadges(id, group);
    await this.importMembers(id, group);
  }

  private async importLabels(id: number, group: GroupRow): Promise<void> {
    for await (const l of readNdjson(this.file(String(id), 'labels.ndjson'))) {
      const title = str(l.title);
      if (!title) throw new ArchiveRefused(`a label of group ${id} has no title`);
      const row = await this.trx
        .insertInto('labels')
        .values({ group_id: group.id, project_id: null, title, color: str(l.color) ?? '#6699cc', description: str(l.description), priority: null, created_at: time(l.created_at, this.now), updated_at: time(l.updated_at, this.now) })
        .returning('id')
        .executeTakeFirstOrThrow();
      const sourceId = num(l.id);
      if (sourceId !== null) this.labels.set(sourceId, row.id);
    }
  }

  private async importMilestones(id: number, group: GroupRow): Promise<void> {
    let next = 1;
    for await (const m of readNdjson(this.file(String(id), 'milestones.ndjson'))) {
      const title = str(m.title);
      if (!title) throw new ArchiveRefused(`a milestone of group ${id} has no title`);
      const iid = num(m.iid) ?? next;
      next = Math.max(next, iid + 1);
      await this.trx
        .insertInto('milestones')
        .values({
          group_id: group.id,
          project_id: null,
          iid,
          title,
          description: str(m.description),
          state: m.state === 'closed' ? 'closed' : 'active',
          start_date: date(m.start_date),
          due_date: date(m.due_date),
          created_at: time(m.created_at, this.now),
          updated_at: time(m.updated_at, this.now),
        })
        .execute();
    }
  }

  private async importEpics(id: number, group: GroupRow): Promise<void> {
    let next = 1;
    for await (const e of readNdjson(this.file(String(id), 'epics.ndjson'))) {
      const title = str(e.title);
      if (!title) throw new ArchiveRefused(`an epic of group ${id} has no title`);
      const iid = num(e.iid) ?? next;
      next = Math.max(next, iid + 1);
      const state = e.state ?? e.state_id;
      const closed = state === 'closed' || state === 2;
      const author = this.contributors.userOf(num(e.author_id));
      const closer = this.contributors.userOf(num(e.closed_by_id));
      const row = await this.trx
        .insertInto('epics')
        .values({
          group_id: group.id,
          iid,
          author_id: author.userId,
          title,
          description: str(e.description),
          state: closed ? 'closed' : 'opened',
          confidential: flag(e.confidential),
          color: /^#[0-9a-fA-F]{6}$/.test(str(e.color) ?? '') ? (e.color as string) : undefined,
          start_date_fixed: date(e.start_date_fixed),
          start_date_is_fixed: flag(e.start_date_is_fixed),
          due_date_fixed: date(e.due_date_fixed),
          due_date_is_fixed: flag(e.due_date_is_fixed),
          closed_at: closed ? time(e.closed_at, this.now) : null,
          closed_by_id: closed ? closer.userId : null,
          created_at: time(e.created_at, this.now),
          updated_at: time(e.updated_at, this.now),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await this.contributors.hold(author, 'Epic', row.id, 'author_id');
      if (closed) await this.contributors.hold(closer, 'Epic', row.id, 'closed_by_id');
      const sourceId = num(e.id);
      if (sourceId !== null) this.epics.set(sourceId, row.id);
      const parent = num(e.parent_id) ?? num((e.parent as Rec | undefined)?.id);
      if (parent !== null) this.epicParents.push([row.id, parent]);
    }
  }

  private async importBoards(id: number, group: GroupRow): Promise<void> {
    for await (const b of readNdjson(this.file(String(id), 'boards.ndjson'))) {
      const board = await this.trx
        .insertInto('boards')
        .values({
          group_id: group.id,
          name: str(b.name) ?? 'Development',
          hide_backlog_list: flag(b.hide_backlog_list),
          hide_closed_list: flag(b.hide_closed_list),
          created_at: time(b.created_at, this.now),
          updated_at: time(b.updated_at, this.now),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (const l of Array.isArray(b.lists) ? (b.lists as Rec[]) : []) {
        const type = str(l.list_type);
        if (type !== 'backlog' && type !== 'closed' && type !== 'label') continue;
        const labelId = type === 'label' ? await this.boardLabel(group, l) : null;
        if (type === 'label' && labelId === null) continue;
        await this.trx
          .insertInto('board_lists')
          .values({ board_id: board.id, list_type: type, position: num(l.position), label_id: labelId, created_at: time(l.created_at, this.now), updated_at: time(l.updated_at, this.now) })
          .execute();
      }
    }
  }

  /** A label list's label: the imported label it was, or one of the group's (or its ancestors') by title. */
  private async boardLabel(group: GroupRow, list: Rec): Promise<number | null> {
    const mapped = this.labels.get(num(list.label_id) ?? -1);
    if (mapped !== undefined) return mapped;
    const title = str((list.label as Rec | undefined)?.title);
    if (!title) return null;
    const ancestors = group.traversal.split('/').filter(Boolean).map(Number);
    const found = await this.trx.selectFrom('labels').select('id').where('group_id', 'in', ancestors).where('title', '=', title).executeTakeFirst();
    return found?.id ?? null;
  }

  private async importBadges(id: number, group: GroupRow): Promise<void> {
    for await (const b of readNdjson(this.file(String(id), 'badges.ndjson'))) {
      const link = str(b.link_url);
      const image = str(b.image_url);
      if (!link || !image) throw new ArchiveRefused(`a badge of group ${id} has no link_url or image_url`);
      await this.trx
        .insertInto('badges')
        .values({ group_id: group.id, name: str(b.name), link_url: link, image_url: image, created_at: time(b.created_at, this.now), updated_at: time(b.updated_at, this.now) })
        .execute();
    }
  }

  private async importMembers(id: number, group: GroupRow): Promise<void> {
    for await (const m of readNdjson(this.file(String(id), 'members.ndjson'))) {
      const level = num(m.access_level);
      if (level === null || !ACCESS_LEVELS.has(level)) continue;
      const who = this.contributors.userOf(num((m.user as Rec | undefined)?.id) ?? num(m.user_id));
      const expires = date(m.expires_at) ?? (typeof m.expires_at === 'string' ? (date(m.expires_at.slice(0, 10)) ?? null) : null);
      if (who.userId === null) {
        await this.contributors.holdMembership(who, group.id, level, expires);
        continue;
      }
      const existing = await this.trx
        .selectFrom('members')
        .select(['id', 'access_level'])
        .where('source_type', '=', 'group')
        .where('source_id', '=', group.id)
        .where('user_id', '=', who.userId)
        .executeTakeFirst();
      if (existing) continue;
      await this.trx
        .insertInto('members')
        .values({ source_type: 'group', source_id: group.id, user_id: who.userId, access_level: level, expires_at: expires, created_by_id: null, created_at: this.now, updated_at: this.now })
        .execute();
    }
  }
}

/** Who a member's `user` (or a user_contributions line) names. */
function sourceUser(u: Rec | undefined, fallbackId: unknown): SourceUser | null {
  const id = num(u?.id) ?? num(fallbackId);
  if (id === null) return null;
  return { id, username: str(u?.username), name: str(u?.name), public_email: str(u?.public_email) };
}
