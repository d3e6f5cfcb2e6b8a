import { COMMIT_LOG_FORMAT, parseCommitLog, resolveCommit, type CommitInfo } from './branches.ts';
import { GitError, gitText } from './git-run.ts';
import { readDiffs, type DiffInfo } from './diffs.ts';
import { notFound } from '../../util/errors.ts';
import type { CommitListQuery } from '../../../../shared/src/commits.ts';

export interface CommitStats {
  additions: number;
  deletions: number;
  total: number;
}
export type CommitWithStats = CommitInfo & { stats?: CommitStats };

/** Lines added and removed, from `--numstat` lines (binary files count nothing, as on the platform). */
function statsOf(numstat: string): CommitStats {
  let additions = 0;
  let deletions = 0;
  for (const line of numstat.split('\n')) {
    const m = /^(\d+|-)\t(\d+|-)\t/.exec(line);
    if (!m) continue;
    additions += m[1] === '-' ? 0 : Number(m[1]);
    deletions += m[2] === '-' ? 0 : Number(m[2]);
  }
  return { additions, deletions, total: additions + deletions };
}

/** Commits by id, read in one git call; ids that name no commit are absent from the map. */
export async function readCommits(dir: string, ids: string[]): Promise<Map<string, CommitInfo>> {
  if (ids.length === 0) return new Map();
  const out = await gitText(dir, ['log', '--no-walk=unsorted', `--format=${COMMIT_LOG_FORMAT}`, '--stdin'], { input: ids.join('\n') + '\n' });
  return new Map(parseCommitLog(out).map(({ commit }) => [commit.id, commit]));
}

/**
 * A ref the commits list takes: a branch, a tag, a SHA or a range `a..b` / `a...b`, each side
 * resolved to a commit first (so nothing a client writes reaches git as an option).
 */
async function resolveRange(dir: string, ref: string): Promise<string[] | undefined> {
  const range = /^(.+?)(\.\.\.?)(.+)$/.exec(ref);
  if (!range) {
    const sha = await resolveCommit(dir, ref);
    return sha ? [sha] : undefined;
  }
  const [from, to] = await Promise.all([resolveCommit(dir, range[1]), resolveCommit(dir, range[3])]);
  return from && to ? [`${from}${range[2]}${to}`] : undefined;
}

/**
 * One page of commits, newest first (or topological), from `ref_name` (the default branch
 * when absent) or every ref (`all`); a ref that names nothing lists nothing, as on the platform.
 */
export async function listCommits(dir: string, defaultBranch: string, q: CommitListQuery, page: { limit: number; offset: number }): Promise<{ items: CommitWithStats[]; total: number }> {
  let revs: string[];
  if (q.all) revs = ['--all'];
  else {
    const resolved = await resolveRange(dir, q.ref_name ?? defaultBranch);
    if (!resolved) return { items: [], total: 0 };
    revs = resolved;
  }
  const filters = [
    ...(q.since ? [`--since=${new Date(q.since).toISOString()}`] : []),
    ...(q.until ? [`--until=${new Date(q.until).toISOString()}`] : []),
    ...(q.first_parent ? ['--first-parent'] : []),
    ...(q.order === 'topo' ? ['--topo-order'] : []),
  ];
  const paths = q.path ? ['--', q.path] : ['--'];
  const [out, count] = await Promise.all([
    gitText(dir, ['log', `--format=${COMMIT_LOG_FORMAT}`, ...(q.with_stats ? ['--numstat', '--diff-merges=first-parent'] : []), `--skip=${page.offset}`, `--max-count=${page.limit}`, ...filters, ...revs, ...paths]),
    gitText(dir, ['rev-list', '--count', ...filters, ...revs, ...paths]),
  ]);
  const items = parseCommitLog(out).map(({ commit, tail }) => (q.with_stats ? { ...commit, stats: statsOf(tail) } : commit));
  return { items, total: Number(count.trim()) || 0 };
}

/** A commit by SHA, branch or tag, with its stats (against its first parent) unless `stats` is false. */
export async function getCommit(dir: string, ref: string, withStats = true): Promise<CommitWithStats> {
  const sha = await resolveCommit(dir, ref);
  if (!sha) throw notFound('Commit');
  const out = await gitText(dir, ['log', '-1', `--format=${COMMIT_LOG_FORMAT}`, ...(withStats ? ['--numstat', '--diff-merges=first-parent'] : []), sha, '--']);
  const [found] = parseCommitLog(out);
  if (!found) throw notFound('Commit');
  return withStats ? { ...found.commit, stats: statsOf(found.tail) } : found.commit;
}

/** The last commit before (and including) `commit` that changed `path`, or undefined. */
export async function lastCommitOf(dir: string, commit: string, path: string): Promise<string | undefined> {
  try {
    return (await gitText(dir, ['log', '-1', '--format=%H', commit, '--', path])).trim() || undefined;
  } catch (e) {
    if (e instanceof GitError) return undefined;
    throw e;
  }
}

/** The commit `ref` (a SHA, branch or tag) names, or 404 Commit. */
export async function requireCommit(dir: string, ref: string): Promise<string> {
  const sha = await resolveCommit(dir, ref);
  if (!sha) throw notFound('Commit');
  return sha;
}

/**
 * What a commit changes against its first parent (a root commit: against the empty tree), every
 * file expanded as the platform's commit diff shows them: a patch past the limit of one file is
 * left out (too_large), none is collapsed.
 */
export async function commitDiffs(dir: string, ref: string): Promise<DiffInfo[]> {
  const sha = await requireCommit(dir, ref);
  const parent = (await gitText(dir, ['rev-list', '--parents', '-n', '1', sha])).trim().split(' ')[1];
  const from = parent ?? (await gitText(dir, ['hash-object', '-t', 'tree', '--stdin'])).trim();
  return (await readDiffs(dir, from, sha, { collapse: false })).diffs;
}

export interface RefOfCommit {
  type: 'branch' | 'tag';
  name: string;
}

/** The branches, then the tags, that contain the commit `ref` names, each by name. */
export async function refsContaining(dir: string, ref: string, type: 'branch' | 'tag' | 'all'): Promise<RefOfCommit[]> {
  const sha = await requireCommit(dir, ref);
  const namespaces = [...(type !== 'tag' ? ['refs/heads/'] : []), ...(type !== 'branch' ? ['refs/tags/'] : [])];
  const out = await gitText(dir, ['for-each-ref', '--contains', sha, '--format=%(refname)', ...namespaces]);
  return out
    .split('\n')
    .filter(Boolean)
    .map((name) => (name.startsWith('refs/heads/') ? { type: 'branch' as const, name: name.slice(11) } : { type: 'tag' as const, name: name.slice(10) }));
}
