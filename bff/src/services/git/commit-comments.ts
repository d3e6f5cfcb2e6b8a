import type { Db } from '../../db/index.ts';
import type { CommitNoteRow, UserRow } from '../../db/schema.ts';
import { offsetPage, type Page, type PageRequest } from '../../db/pagination.ts';
import { nowIso } from '../../util/time.ts';
import { commitDiffs, requireCommit } from './commits.ts';
import type { CommitCommentBody } from '../../../../shared/src/commits.ts';

export type CommitNoteWithAuthor = CommitNoteRow & { author: UserRow | null };

/** A line of a patch as the platform's diff parser numbers it: removed lines carry the new side's position too. */
interface PatchLine {
  type: 'new' | 'old';
  oldPos: number;
  newPos: number;
}

/** The added and removed lines of a patch (from its first hunk on), numbered as the platform numbers them. */
export function patchLines(patch: string): PatchLine[] {
  const lines: PatchLine[] = [];
  let oldPos = 1;
  let newPos = 1;
  for (const line of patch.split('\n')) {
    const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)/.exec(line);
    if (hunk) {
      oldPos = Number(hunk[1]);
      newPos = Number(hunk[2]);
    } else if (line.startsWith('+')) lines.push({ type: 'new', oldPos, newPos: newPos++ });
    else if (line.startsWith('-')) lines.push({ type: 'old', oldPos: oldPos++, newPos });
    else if (line.startsWith(' ')) {
      oldPos++;
      newPos++;
    }
  }
  return lines;
}

/**
 * Where on the commit's diff a comment sits: the added (`new`) or removed (`old`) line whose
 * new-side position is `line` in the file `path`. The platform keeps such a comment as a diff
 * note (shown with its path, its line, old-side for a removed one, and its type); one that names
 * no such line is a plain comment on the commit.
 */
async function diffPosition(dir: string, sha: string, b: CommitCommentBody): Promise<Pick<CommitNoteRow, 'path' | 'line' | 'line_type'>> {
  const none = { path: null, line: null, line_type: null };
  if (b.path === undefined || b.line === undefined) return none;
  const type = b.line_type ?? 'new';
  for (const diff of await commitDiffs(dir, sha)) {
    if (diff.newPath !== b.path) continue;
    const hit = patchLines(diff.diff).find((l) => l.type === type && l.newPos === b.line);
    if (hit) return { path: diff.newPath, line: type === 'new' ? hit.newPos : hit.oldPos, line_type: type };
  }
  return none;
}

/** The comments on the commit `ref` names, oldest first, with their authors. */
export async function listCommitNotes(db: Db, dir: string, projectId: number, ref: string, page: PageRequest): Promise<Page<CommitNoteWithAuthor>> {
  const sha = await requireCommit(dir, ref);
  const rows = db.selectFrom('commit_notes').selectAll().where('project_id', '=', projectId).where('commit_sha', '=', sha).orderBy('created_at').orderBy('id');
  return (await offsetPage(db, rows, page)).mapAsync(async (notes) => {
    // The git room reads users itself: services/access is a room above it.
    const ids = [...new Set(notes.map((n) => n.author_id).filter((id): id is number => id !== null))];
    const authors = new Map((ids.length ? await db.selectFrom('users').selectAll().where('id', 'in', ids).execute() : []).map((u) => [u.id, u]));
    return notes.map((n) => ({ ...n, author: n.author_id === null ? null : (authors.get(n.author_id) ?? null) }));
  });
}

/** A comment on the commit `ref` names, on a line of its diff where `path`, `line` and `line_type` name one. */
export async function createCommitNote(db: Db, dir: string, projectId: number, author: UserRow, ref: string, body: CommitCommentBody): Promise<CommitNoteWithAuthor> {
  const sha = await requireCommit(dir, ref);
  const position = await diffPosition(dir, sha, body);
  const row = await db
    .insertInto('commit_notes')
    .values({ project_id: projectId, commit_sha: sha, author_id: author.id, note: body.note, ...position, created_at: nowIso() })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { ...row, author };
}
