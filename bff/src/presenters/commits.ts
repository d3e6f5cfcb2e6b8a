import type { BasicRef, CommitDetail, CommitNote } from '../../../shared/src/commits.ts';
import type { Diff } from '../../../shared/src/compare.ts';
import type { UserRow } from '../db/schema.ts';
import type { CommitWithStats, RefOfCommit } from '../services/git/commits.ts';
import type { CommitNoteWithAuthor } from '../services/git/commit-comments.ts';
import type { DiffInfo } from '../services/git/diffs.ts';
import { presentCommit } from './branches.ts';
import { presentDiff } from './compare.ts';
import { presentUserBasic } from './users.ts';

/** Who a comment's deleted author is shown as, as the platform shows them. */
const GHOST = { id: 0, username: 'ghost', name: 'Ghost User', state: 'active' } as UserRow;

/** A commit of a list: `stats` only where they were read (`with_stats`). */
export function presentCommitListItem(c: CommitWithStats, projectUrl: string) {
  return { ...presentCommit(c, projectUrl), ...(c.stats ? { stats: { ...c.stats } } : {}) };
}

/** One commit: no pipelines run here, so `status` and `last_pipeline` are null. */
export function presentCommitDetail(c: CommitWithStats, project: { id: number }, projectUrl: string): CommitDetail {
  return { ...presentCommitListItem(c, projectUrl), status: null, project_id: project.id, last_pipeline: null };
}

/**
 * A file's change in a commit's diff; with `unidiff`, its patch headed by the `---` and `+++`
 * lines of a unified diff (`/dev/null` for an added or deleted side), as the platform adds them
 * to a patch that is neither empty nor binary.
 */
export function presentCommitDiff(d: DiffInfo, unidiff: boolean): Diff {
  const shown = presentDiff(d);
  if (!unidiff || d.diff === '' || /^Binary files .* and .* differ/.test(d.diff)) return shown;
  const from = d.newFile ? '/dev/null' : `a/${d.oldPath}`;
  const to = d.deletedFile ? '/dev/null' : `b/${d.newPath}`;
  return { ...shown, diff: `--- ${from}\n+++ ${to}\n${d.diff}` };
}

export const presentRefOfCommit = (r: RefOfCommit): BasicRef => ({ type: r.type, name: r.name });

/** A comment on a commit; a deleted author shows as the platform's ghost user. */
export function presentCommitNote(n: CommitNoteWithAuthor, baseUrl: string): CommitNote {
  return {
    note: n.note,
    path: n.path,
    line: n.line,
    line_type: n.line_type,
    author: presentUserBasic(n.author ?? GHOST, baseUrl),
    created_at: n.created_at,
  };
}
