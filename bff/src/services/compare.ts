import { COMMIT_LOG_FORMAT, parseCommitLog, resolveCommit, type CommitInfo } from './branches.ts';
import { gitText } from './git-run.ts';
import { notFound } from './errors.ts';

export interface DiffInfo {
  diff: string;
  newPath: string;
  oldPath: string;
  aMode: string;
  bMode: string;
  newFile: boolean;
  renamedFile: boolean;
  deletedFile: boolean;
}

export interface ComparisonInfo {
  commits: CommitInfo[];
  diffs: DiffInfo[];
  sameRef: boolean;
}

/** Commits past this many are not listed, as the platform caps a comparison. */
const MAX_COMMITS = 1000;

/**
 * What `to` adds over `from`: the commits of `from..to`, oldest first, and the diffs from their
 * merge base to `to` (from `from` itself when `straight`); 404 Ref for a ref that names nothing.
 */
export async function compare(dir: string, from: string, to: string, straight: boolean): Promise<ComparisonInfo> {
  const [a, b] = await Promise.all([resolveCommit(dir, from), resolveCommit(dir, to)]);
  if (!a || !b) throw notFound('Ref');
  const base = straight ? a : (await gitText(dir, ['merge-base', a, b]).catch(() => '')).trim() || a;
  const [log, diffs] = await Promise.all([
    gitText(dir, ['log', '--reverse', `--max-count=${MAX_COMMITS}`, `--format=${COMMIT_LOG_FORMAT}`, `${a}..${b}`, '--']),
    diffBetween(dir, base, b),
  ]);
  return { commits: parseCommitLog(log).map((c) => c.commit), diffs, sameRef: from === to };
}

/**
 * The changes between two commits: `--raw -z` gives each file's modes, status and paths; the
 * patch that follows has one `diff --git` section per file in the same order.
 */
async function diffBetween(dir: string, from: string, to: string): Promise<DiffInfo[]> {
  const out = await gitText(dir, ['diff', '--raw', '-z', '-M', '--full-index', '--patch', '--no-color', '--no-ext-diff', from, to, '--']);
  const patchAt = out.indexOf('\0\0diff --git ');
  const raw = patchAt < 0 ? out : out.slice(0, patchAt + 1);
  const patches = patchAt < 0 ? [] : out.slice(patchAt + 2).split(/^(?=diff --git )/m);
  const fields = raw.split('\0');
  const diffs: DiffInfo[] = [];
  for (let i = 0; i + 1 < fields.length; ) {
    const meta = fields[i];
    if (!meta.startsWith(':')) {
      i++;
      continue;
    }
    const [aMode, bMode, , , status] = meta.slice(1).split(' ');
    const renamed = status.startsWith('R') || status.startsWith('C');
    const oldPath = fields[i + 1];
    const newPath = renamed ? fields[i + 2] : oldPath;
    i += renamed ? 3 : 2;
    const patch = patches[diffs.length] ?? '';
    const hunk = patch.search(/^@@/m);
    diffs.push({
      diff: hunk < 0 ? '' : patch.slice(hunk),
      oldPath,
      newPath,
      aMode,
      bMode,
      newFile: status === 'A',
      renamedFile: renamed,
      deletedFile: status === 'D',
    });
  }
  return diffs;
}
