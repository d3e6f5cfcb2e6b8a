import type { Comparison } from '../../../shared/src/compare.ts';
import type { ComparisonInfo, DiffInfo } from '../services/git/compare.ts';
import { presentCommit } from './branches.ts';

export function presentComparison(c: ComparisonInfo, q: { from: string; to: string }, projectUrl: string): Comparison {
  const commits = c.commits.map((commit) => presentCommit(commit, projectUrl));
  return {
    commit: commits[commits.length - 1] ?? null,
    commits,
    diffs: c.diffs.map(presentDiff),
    compare_timeout: c.overflow,
    compare_same_ref: c.sameRef,
    web_url: `${projectUrl}/-/compare/${encodeURIComponent(q.from)}...${encodeURIComponent(q.to)}`,
  };
}

/** A side's mode as the platform prints it: git's `000000` for a side that does not exist is `0` there. */
const shownMode = (mode: string) => (/^0+$/.test(mode) ? '0' : mode);

/** One file's change (compare, and a merge request's changes and diffs); a collapsed or too large one without its patch. */
export function presentDiff(d: DiffInfo) {
  return {
    diff: d.diff,
    collapsed: d.collapsed,
    too_large: d.tooLarge,
    new_path: d.newPath,
    old_path: d.oldPath,
    a_mode: shownMode(d.aMode),
    b_mode: shownMode(d.bMode),
    new_file: d.newFile,
    renamed_file: d.renamedFile,
    deleted_file: d.deletedFile,
    generated_file: false,
  };
}
