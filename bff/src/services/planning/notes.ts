import type { Db } from '../../db/index.ts';
import type { NoteableType, NoteRow, UserRow } from '../../db/schema.ts';
import type { NoteCreateBody, NoteListQuery, NoteUpdateBody } from '../../../../shared/src/notes.ts';
import { notFound } from '../../util/errors.ts';
import { offsetPage, type Page, type PageRequest } from '../../db/pagination.ts';
import { nowIso } from '../../util/time.ts';
import { recordActivity } from './work-items.ts';
import { usersById } from '../access/users.ts';

/**
 * Notes (comments) on any noteable: issues and merge requests here, snippets and epics in their
 * areas through the same functions. The caller names the noteable and says what follows a
 * write (`after`: the webhook of its kind), so this module knows no noteable's rules.
 */
export interface Noteable {
  type: NoteableType;
  id: number;
  /** The project it lives in; null for group noteables (epics) and personal snippets. */
  projectId: number | null;
  groupId?: number | null;
}

export function listNotes(db: Db, noteable: Noteable, q: NoteListQuery, page: PageRequest, opts: { internalVisible: boolean }): Promise<Page<NoteRow>> {
  let query = db.selectFrom('notes').selectAll().where('noteable_type', '=', noteable.type).where('noteable_id', '=', noteable.id);
  if (!opts.internalVisible) query = query.where('internal', '=', 0);
  if (q.activity_filter === 'only_comments') query = query.where('system', '=', 0);
  if (q.activity_filter === 'only_activity') query = query.where('system', '=', 1);
  const dir = q.sort ?? 'desc';
  return offsetPage(db, query.orderBy(q.order_by ?? 'created_at', dir).orderBy('id', dir), page);
}

/** The note `id` of this noteable, or the platform's 404 (also for an internal note the caller may not see). */
export async function findNote(db: Db, noteable: Noteable, id: number, opts: { internalVisible: boolean } = { internalVisible: true }): Promise<NoteRow> {
  const note = await db.selectFrom('notes').selectAll().where('id', '=', id).where('noteable_type', '=', noteable.type).where('noteable_id', '=', noteable.id).executeTakeFirst();
  if (!note || (note.internal === 1 && !opts.internalVisible)) throw notFound('Note');
  return note;
}

/** A comment by `author`; its "commented on" activity and whatever `after` adds (the webhook), in one transaction. */
export async function createNote(db: Db, noteable: Noteable, author: UserRow, body: NoteCreateBody, after?: (trx: Db, note: NoteRow) => Promise<void>): Promise<NoteRow> {
  return db.transaction().execute(async (trx) => {
    const now = nowIso();
    const createdAt = body.created_at ? new Date(body.created_at).toISOString() : now;
    const note = await trx
      .insertInto('notes')
      .values({
        project_id: noteable.projectId,
        noteable_type: noteable.type,
        noteable_id: noteable.id,
        author_id: author.id,
        body: body.body,
        system: 0,
        internal: body.internal || body.confidential ? 1 : 0,
        resolvable: 0,
        resolved_by_id: null,
        resolved_at: null,
        updated_by_id: null,
        created_at: createdAt,
        updated_at: createdAt,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordActivity(trx, { projectId: noteable.projectId, groupId: noteable.groupId ?? null }, author, 'commented on', { type: 'Note', id: note.id });
    await after?.(trx, note);
    return note;
  });
}

/** A system note ("closed", "changed milestone to %v1"): what happened, written by the one who did it. */
export async function createSystemNote(trx: Db, noteable: Noteable, author: { id: number } | null, body: string): Promise<void> {
  const now = nowIso();
  await trx
    .insertInto('notes')
    .values({ project_id: noteable.projectId, noteable_type: noteable.type, noteable_id: noteable.id, author_id: author?.id ?? null, body, system: 1, internal: 0, resolvable: 0, resolved_by_id: null, resolved_at: null, updated_by_id: null, created_at: now, updated_at: now })
    .execute();
}

export async function updateNote(db: Db, note: NoteRow, editor: UserRow, body: NoteUpdateBody, after?: (trx: Db, note: NoteRow) => Promise<void>): Promise<NoteRow> {
  return db.transaction().execute(async (trx) => {
    const patch: { body?: string; internal?: number } = {};
    if (body.body !== undefined) patch.body = body.body;
    if (body.confidential !== undefined) patch.internal = body.confidential ? 1 : 0;
    const updated = await trx
      .updateTable('notes')
      .set({ ...patch, updated_by_id: editor.id, updated_at: nowIso() })
      .where('id', '=', note.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await after?.(trx, updated);
    return updated;
  });
}

/** A note, and the reactions to it (no foreign key can say so: awardables are polymorphic). */
export async function deleteNote(db: Db, note: NoteRow): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('award_emoji').where('awardable_type', '=', 'Note').where('awardable_id', '=', note.id).execute();
    await trx.deleteFrom('notes').where('id', '=', note.id).execute();
  });
}

/** Notes go with their noteable, and their reactions with them (the noteable is polymorphic too). */
export async function deleteNotesOf(trx: Db, noteable: Pick<Noteable, 'type' | 'id'>): Promise<void> {
  const ofNoteable = trx.selectFrom('notes').select('id').where('noteable_type', '=', noteable.type).where('noteable_id', '=', noteable.id);
  await trx.deleteFrom('award_emoji').where('awardable_type', '=', 'Note').where('awardable_id', 'in', ofNoteable).execute();
  await trx.deleteFrom('notes').where('noteable_type', '=', noteable.type).where('noteable_id', '=', noteable.id).execute();
}

/** A note with its author (null for Gatehouse's own notes, or an author since deleted). */
export interface NoteView {
  note: NoteRow;
  author: UserRow | null;
}

/** The notes with their authors, read in one query. */
export async function noteViews(db: Db, rows: NoteRow[]): Promise<NoteView[]> {
  const users = await usersById(db, rows.map((n) => n.author_id));
  return rows.map((n) => ({ note: n, author: n.author_id === null ? null : (users.get(n.author_id) ?? null) }));
}
