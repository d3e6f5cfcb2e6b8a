import type { Db } from '../../db/index.ts';
import type { ProjectRow } from '../../db/schema.ts';
import { git, gitSucceeds, gitText } from './git-run.ts';
import { DEFAULT_BRANCH } from './repositories.ts';
import { isZero, type RefUpdate } from './push-git.ts';

/** Points the repository's HEAD at a branch: what a clone checks out (the platform's change_head). */
export async function pointHead(dir: string, branch: string): Promise<void> {
  await git(dir, ['symbolic-ref', 'HEAD', `refs/heads/${branch}`]);
}

/**
 * The branch the platform takes as the default when the one HEAD names does not exist: the only
 * branch, else `main`, else `master`, else the first by name (its git server's answer, which the
 * first push then makes the default).
 */
export function fallbackDefault(branches: string[]): string | undefined {
  if (branches.length <= 1) return branches[0];
  if (branches.includes('main')) return 'main';
  if (branches.includes('master')) return 'master';
  return [...branches].sort()[0];
}

/**
 * After a branch was created (a first push, a commit through the API): when the project's
 * default branch does not exist, a branch that does becomes the default, as on the platform:
 * HEAD points at it and the project says so, so that it is protected as the default and a
 * clone checks it out. The database decides between two pushes at once; HEAD follows it.
 * Answers the project as it is now.
 */
export async function adoptDefaultBranch(db: Db, dir: string, project: ProjectRow, updates: RefUpdate[]): Promise<ProjectRow> {
  // Only a push that creates a branch can give a repository without its default branch one (and most pushes create none: no git call).
  if (!updates.some((u) => u.ref.startsWith('refs/heads/') && isZero(u.before) && !isZero(u.after))) return project;
  const current = project.default_branch ?? DEFAULT_BRANCH;
  if (await gitSucceeds(dir, ['rev-parse', '--verify', '--quiet', `refs/heads/${current}`])) return project;
  const branches = (await gitText(dir, ['for-each-ref', '--format=%(refname:lstrip=2)', 'refs/heads'])).split('\n').filter(Boolean);
  const chosen = fallbackDefault(branches);
  if (!chosen) return project;
  const unchanged = project.default_branch === null ? db.updateTable('projects').where('default_branch', 'is', null) : db.updateTable('projects').where('default_branch', '=', project.default_branch);
  await unchanged.set({ default_branch: chosen }).where('id', '=', project.id).execute();
  const now = await db.selectFrom('projects').selectAll().where('id', '=', project.id).executeTakeFirstOrThrow();
  if (now.default_branch) await pointHead(dir, now.default_branch);
  return now;
}
