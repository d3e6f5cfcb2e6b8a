import type { Db } from '../../db/index.ts';
import type { ProjectRow, SnippetFileRow, SnippetRow, UserRow } from '../../db/schema.ts';
import type { Actor } from '../../auth/actor.ts';
import { isAdmin } from '../../auth/actor.ts';
import { ACCESS_LEVELS as L } from '../../../../shared/src/roles.ts';
import { PROJECT_READS } from '../../policies/index.ts';
import { SNIPPET_MAX_FILES, type SnippetCreateBody, type SnippetFileAction, type SnippetUpdateBody } from '../../../../shared/src/snippets.ts';
import { offsetPage, type Page, type PageRequest } from '../../db/pagination.ts';
import { badRequest, forbidden, notFound } from '../../util/errors.ts';
import { nowIso } from '../../util/time.ts';
import { usersById } from '../access/users.ts';
import { deleteNotesOf } from './notes.ts';

/** A snippet with what its presenter shows: its author and its files, ordered by path. */
export interface SnippetView {
  snippet: SnippetRow;
  project: ProjectRow;
  author: UserRow | null;
  files: SnippetFileRow[];
}

/** Who sees a snippet of a project they may read: members (and administrators) all; others by the snippet's own visibility. */
export function canReadSnippet(actor: Actor, level: number, snippet: Pick<SnippetRow, 'visibility'>): boolean {
  if (isAdmin(actor) || level >= PROJECT_READS.read_all_snippets.role) return true;
  if (snippet.visibility === 'public') return true;
  return snippet.visibility === 'internal' && actor.user !== null && actor.user.external !== 1;
}

/** Changing or removing a snippet: its author (still a Reporter), a Maintainer or an administrator. */
export function canAdminSnippet(actor: Actor, level: number, snippet: Pick<SnippetRow, 'author_id'>): boolean {
  if (isAdmin(actor) || level >= L.maintainer) return true;
  return actor.user !== null && snippet.author_id === actor.user.id && level >= L.reporter;
}

const visibleTo = (actor: Actor, level: number): string[] | null =>
  isAdmin(actor) || level >= PROJECT_READS.read_all_snippets.role ? null : actor.user !== null && actor.user.external !== 1 ? ['public', 'internal'] : ['public'];

async function views(db: Db, project: ProjectRow, rows: SnippetRow[]): Promise<SnippetView[]> {
  if (rows.length === 0) return [];
  const users = await usersById(db, rows.map((r) => r.author_id));
  const files = await db.selectFrom('snippet_files').selectAll().where('snippet_id', 'in', rows.map((r) => r.id)).orderBy('path').execute();
  return rows.map((snippet) => ({
    snippet,
    project,
    author: snippet.author_id === null ? null : (users.get(snippet.author_id) ?? null),
    files: files.filter((f) => f.snippet_id === snippet.id),
  }));
}

export const viewSnippet = async (db: Db, project: ProjectRow, snippet: SnippetRow) => (await views(db, project, [snippet]))[0];

/** The project's snippets the caller may see, newest first. */
export async function listSnippets(db: Db, actor: Actor, level: number, project: ProjectRow, page: PageRequest): Promise<Page<SnippetView>> {
  const levels = visibleTo(actor, level);
  let q = db.selectFrom('snippets').selectAll().where('project_id', '=', project.id);
  if (levels) q = q.where('visibility', 'in', levels);
  const rows = await offsetPage(db, q.orderBy('id', 'desc'), page);
  return rows.mapAsync((items) => views(db, project, items));
}

/** A snippet of the project the caller may see; one they may not is as missing as one that is not there. */
export async function findSnippet(db: Db, actor: Actor, level: number, project: ProjectRow, id: number): Promise<SnippetRow> {
  const row = await db.selectFrom('snippets').selectAll().where('project_id', '=', project.id).where('id', '=', id).executeTakeFirst();
  if (!row || !canReadSnippet(actor, level, row)) throw notFound('Snippet');
  return row;
}

/** The snippet's content as the deprecated whole: its first file. */
export async function snippetContent(db: Db, snippet: SnippetRow): Promise<string> {
  const first = await db.selectFrom('snippet_files').select('content').where('snippet_id', '=', snippet.id).orderBy('path').limit(1).executeTakeFirst();
  return first?.content ?? '';
}

export async function snippetFileContent(db: Db, snippet: SnippetRow, path: string): Promise<string> {
  const file = await db.selectFrom('snippet_files').select('content').where('snippet_id', '=', snippet.id).where('path', '=', path).executeTakeFirst();
  if (!file) throw notFound('File');
  return file.content;
}

export async function createSnippet(db: Db, author: UserRow, project: ProjectRow, body: SnippetCreateBody): Promise<SnippetView> {
  const files = body.files?.map((f) => ({ path: f.file_path, content: f.content })) ?? [{ path: body.file_name!, content: body.content! }];
  const now = nowIso();
  const id = await db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('snippets')
      .values({ project_id: project.id, author_id: author.id, title: body.title, description: body.description ?? null, visibility: body.visibility ?? 'private', created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx.insertInto('snippet_files').values(files.map((f) => ({ snippet_id: inserted.id, ...f }))).execute();
    return inserted.id;
  });
  const row = await db.selectFrom('snippets').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  return viewSnippet(db, project, row);
}

/**
 * The files after the actions, applied in order to a copy, so a failing action leaves the
 * snippet as it was. Messages are the platform's.
 */
export function applyFileActions(current: Map<string, string>, actions: SnippetFileAction[]): Map<string, string> {
  const files = new Map(current);
  for (const a of actions) {
    const path = a.file_path;
    switch (a.action) {
      case 'create':
        if (!path) throw badRequest('files file_path is missing');
        if (a.content === undefined || a.content === '') throw badRequest('files content is missing');
        if (files.has(path)) throw badRequest(`A file with this name already exists: ${path}`);
        files.set(path, a.content);
        break;
      case 'update':
        if (!path) throw badRequest('files file_path is missing');
        if (a.content === undefined) throw badRequest('files content is missing');
        if (!files.has(path)) throw badRequest(`A file with this name doesn't exist: ${path}`);
        files.set(path, a.content);
        break;
      case 'delete':
        if (!path) throw badRequest('files file_path is missing');
        if (!files.delete(path)) throw badRequest(`A file with this name doesn't exist: ${path}`);
        break;
      case 'move': {
        const from = a.previous_path;
        if (!from || !path) throw badRequest('files previous_path and file_path are missing');
        const content = files.get(from);
        if (content === undefined) throw badRequest(`A file with this name doesn't exist: ${from}`);
        if (from !== path && files.has(path)) throw badRequest(`A file with this name already exists: ${path}`);
        files.delete(from);
        files.set(path, a.content ?? content);
        break;
      }
    }
  }
  if (files.size === 0) throw badRequest('Snippet must have at least one file');
  if (files.size > SNIPPET_MAX_FILES) throw badRequest(`Snippet files count exceeds the maximum of ${SNIPPET_MAX_FILES}`);
  return files;
}

/** Title, description, visibility and files; the deprecated single-file form only for a snippet of one file. */
export async function updateSnippet(db: Db, actor: Actor, level: number, view: SnippetView, body: SnippetUpdateBody): Promise<SnippetView> {
  if (!canAdminSnippet(actor, level, view.snippet)) throw forbidden();
  const current = new Map(view.files.map((f) => [f.path, f.content]));
  let next: Map<string, string> | undefined;
  if (body.files) next = applyFileActions(current, body.files);
  else if (body.content !== undefined || body.file_name !== undefined) {
    if (view.files.length > 1) throw badRequest('To update Snippets with multiple files, you must use the `files` parameter');
    const [only] = view.files;
    next = new Map([[body.file_name ?? only.path, body.content ?? only.content]]);
  }
  const updated_at = nowIso();
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('snippets')
      .set({
        ...(body.title !== undefined && { title: body.title }),
        ...(body.description !== undefined && { description: body.description }),
        ...(body.visibility !== undefined && { visibility: body.visibility }),
        updated_at,
      })
      .where('id', '=', view.snippet.id)
      .execute();
    if (next) {
      await trx.deleteFrom('snippet_files').where('snippet_id', '=', view.snippet.id).execute();
      await trx.insertInto('snippet_files').values([...next].map(([path, content]) => ({ snippet_id: view.snippet.id, path, content }))).execute();
    }
  });
  const row = await db.selectFrom('snippets').selectAll().where('id', '=', view.snippet.id).executeTakeFirstOrThrow();
  return viewSnippet(db, view.project, row);
}

/** Removes a snippet with its files, reactions and the reactions on its notes. */
export async function deleteSnippet(db: Db, actor: Actor, level: number, snippet: SnippetRow): Promise<void> {
  if (!canAdminSnippet(actor, level, snippet)) throw forbidden();
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('award_emoji').where('awardable_type', '=', 'Snippet').where('awardable_id', '=', snippet.id).execute();
    await deleteNotesOf(trx, { type: 'Snippet', id: snippet.id });
    await trx.deleteFrom('snippets').where('id', '=', snippet.id).execute();
  });
}
