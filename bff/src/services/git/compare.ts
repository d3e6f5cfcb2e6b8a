import { COMMIT_LOG_FORMAT, parseCommitLog, resolveCommit, type CommitInfo } from './branches.ts';
import { gitText } from './git-run.ts';
import { readDiffs, type DiffInfo } from './diffs.ts';
import { notFound } from '../../util/errors.ts';

export type { DiffInfo } from './diffs.ts';

export interface ComparisonInfo {
  commits: CommitInfo[];
  diffs: DiffInfo[];
  /** Files were left out past the diff limits (the platform's compare_timeout, and a merge request's overflow). */
  overflow: boolean;
  sameRef: boolean;
}

/** Commits past this many are not listed, as the platform caps a comparison. */
const MAX_COMMITS = 1000;

/** Both refs as commits; 404 Ref for a ref that names nothing. */
async function endsOf(dir: string, from: string, to: string): Promise<{ a: string; b: string }> {
  const [a, b] = await Promise.all([resolveCommit(dir, from), resolveCommit(dir, to)]);
  if (!a || !b) throw notFound('Ref');
  return { a, b };
}

const commitsOf = async (dir: string, a: string, b: string) =>
  parseCommitLog(await gitText(dir, ['log', '--reverse', `--max-count=${MAX_COMMITS}`, `--format=${COMMIT_LOG_FORMAT}`, `${a}..${b}`, '--'])).map((c) => c.commit);

/**
 * What `to` adds over `from`: the commits of `from..to`, oldest first, and the diffs from their
 * merge base to `to` (from `from` itself when `straight`), within the platform's diff limits:
 * past the safe ones patches are collapsed, as the platform's compare and merge request
 * changes show them.
 */
export async function compare(dir: string, from: string, to: string, straight: boolean): Promise<ComparisonInfo> {
  const { a, b } = await endsOf(dir, from, to);
  const base = straight ? a : (await gitText(dir, ['merge-base', a, b]).catch(() => '')).trim() || a;
  const [commits, changes] = await Promise.all([commitsOf(dir, a, b), readDiffs(dir, base, b, { collapse: true })]);
  return { commits, diffs: changes.diffs, overflow: changes.overflow, sameRef: from === to };
}

/** The commits of a comparison alone, with no diff read. */
export async function compareCommits(dir: string, from: string, to: string): Promise<CommitInfo[]> {
  const { a, b } = await endsOf(dir, from, to);
  return commitsOf(dir, a, b);
}
