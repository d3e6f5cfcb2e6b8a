import { spawnGit, git, gitSucceeds, gitText } from '../../git/git-run.ts';

/**
 * Merging in a bare repository, without a working copy: `merge-tree --write-tree` computes
 * the merged tree (or the conflicting paths), `commit-tree` makes the commit, and refs move
 * only by compare-and-swap (`update-ref` with the old value), so a branch that moved
 * meanwhile makes the move fail rather than be overwritten.
 */

export class MergeConflict extends Error {
  constructor(readonly paths: string[]) {
    super(paths.length ? `Merge conflict in ${paths.join(', ')}` : 'Merge conflict');
  }
}
/** A fast-forward (or semi-linear) merge asked of a source branch that is behind its target. */
export class NeedsRebase extends Error {
  constructor() {
    super('The source branch must be rebased onto the target branch');
  }
}

export type MergeMethod = 'merge' | 'rebase_merge' | 'ff';

export interface Identity {
  name: string;
  email: string;
}

const identityEnv = (who: Identity) => ({ GIT_AUTHOR_NAME: who.name, GIT_AUTHOR_EMAIL: who.email, GIT_COMMITTER_NAME: who.name, GIT_COMMITTER_EMAIL: who.email });

/** The tree of `ours` and `theirs` merged, or a MergeConflict naming the paths. */
export function mergeTree(dir: string, ours: string, theirs: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawnGit(dir, ['merge-tree', '--write-tree', '--name-only', '--no-messages', ours, theirs]);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.stdin.end();
    child.on('error', reject);
    child.on('close', (code) => {
      const lines = Buffer.concat(out).toString('utf8').split('\n').filter(Boolean);
      // Exit 1 is "merged with conflicts": the first line is still a tree, the rest the paths.
      if (code === 0) resolve(lines[0]);
      else if (code === 1) reject(new MergeConflict([...new Set(lines.slice(1))]));
      else reject(new Error(`git merge-tree failed (${code}): ${Buffer.concat(err).toString('utf8').trim().slice(0, 500)}`));
    });
  });
}

export const isAncestorOf = (dir: string, ancestor: string, descendant: string) => gitSucceeds(dir, ['merge-base', '--is-ancestor', ancestor, descendant]);

async function commitTree(dir: string, tree: string, parents: string[], message: string, who: Identity): Promise<string> {
  const args = ['commit-tree', tree, ...parents.flatMap((p) => ['-p', p]), '-F', '-'];
  return (await gitText(dir, args, { env: identityEnv(who), input: message })).trim();
}

/** One commit holding all of the source's changes, on the point where it left the target. */
async function squashCommit(dir: string, target: string, source: string, message: string, who: Identity): Promise<string> {
  const base = (await gitText(dir, ['merge-base', target, source])).trim();
  return commitTree(dir, `${source}^{tree}`, base ? [base] : [], message, who);
}

export interface MergePlan {
  target: string;
  source: string;
  method: MergeMethod;
  message: string;
  squash?: { message: string };
  who: Identity;
}

/**
 * The commit the target branch moves to, by the project's merge method: a merge commit
 * (`merge`; `rebase_merge` too, but only of a source already on top of the target), or the
 * source itself (`ff`). A squash folds the source into one commit first. Moves no ref.
 */
export async function mergeResult(dir: string, plan: MergePlan): Promise<{ sha: string; squashSha: string | null }> {
  const { target, method, who } = plan;
  const upToDate = await isAncestorOf(dir, target, plan.source);
  if (method !== 'merge' && !upToDate) throw new NeedsRebase();
  const source = plan.squash ? await squashCommit(dir, target, plan.source, plan.squash.message, who) : plan.source;
  const squashSha = plan.squash ? source : null;
  if (method === 'ff') return { sha: plan.squash ? await commitTree(dir, `${source}^{tree}`, [target], plan.squash.message, who) : source, squashSha };
  const tree = await mergeTree(dir, target, source);
  return { sha: await commitTree(dir, tree, [target, source], plan.message, who), squashSha };
}

/** A merge commit of `base` and `head` (a train car's ref), or a MergeConflict. */
export async function trainCommit(dir: string, base: string, head: string, message: string, who: Identity): Promise<string> {
  const tree = await mergeTree(dir, base, head);
  return commitTree(dir, tree, [base, head], message, who);
}

/** Is `sha` a merge commit of exactly `first` and `second`, in that order (a train commit of that base and source)? */
export async function mergeOf(dir: string, sha: string, first: string, second: string): Promise<boolean> {
  const parents = (await gitText(dir, ['rev-list', '--no-walk', '--parents', sha]).catch(() => '')).trim().split(' ').slice(1);
  return parents.length === 2 && parents[0] === first && parents[1] === second;
}

/** Moves `ref` to `sha` only if it still points at `old` (empty: it must not exist); false when it moved meanwhile. */
export async function swapRef(dir: string, ref: string, sha: string, old: string, reason: string): Promise<boolean> {
  try {
    await git(dir, /^0+$/.test(sha) ? ['update-ref', '-m', reason, '-d', ref, old] : ['update-ref', '-m', reason, ref, sha, old]);
    return true;
  } catch {
    return false;
  }
}

export async function deleteRef(dir: string, ref: string): Promise<void> {
  await git(dir, ['update-ref', '-d', ref]).catch(() => undefined);
}
