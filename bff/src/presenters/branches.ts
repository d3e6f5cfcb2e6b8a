import type { Branch, Commit } from '../../../shared/src/branches.ts';
import type { BranchInfo, CommitInfo } from '../services/git/branches.ts';

/** A commit as the platform shows it; `created_at` is the commit date, as there. */
export function presentCommit(c: CommitInfo, projectUrl: string): Commit {
  const extended: Record<string, string[]> = {};
  for (const [k, v] of c.trailers) (extended[k] ??= []).push(v);
  return {
    id: c.id,
    short_id: c.id.slice(0, 8),
    created_at: c.committedDate,
    parent_ids: c.parentIds,
    title: c.subject,
    message: c.message,
    author_name: c.authorName,
    author_email: c.authorEmail,
    authored_date: c.authoredDate,
    committer_name: c.committerName,
    committer_email: c.committerEmail,
    committed_date: c.committedDate,
    trailers: Object.fromEntries(c.trailers),
    extended_trailers: extended,
    web_url: `${projectUrl}/-/commit/${c.id}`,
  };
}

/** A branch; the default branch is the one protected (Maintainers push, Developers do not). */
export function presentBranch(b: BranchInfo, ctx: { projectUrl: string; defaultBranch: string; canPush: boolean; canPushProtected: boolean }): Branch {
  const isDefault = b.name === ctx.defaultBranch;
  return {
    name: b.name,
    merged: b.merged,
    protected: isDefault,
    default: isDefault,
    developers_can_push: !isDefault,
    developers_can_merge: !isDefault,
    can_push: isDefault ? ctx.canPushProtected : ctx.canPush,
    web_url: `${ctx.projectUrl}/-/tree/${encodeURIComponent(b.name).replace(/%2F/g, '/')}`,
    commit: presentCommit(b.commit, ctx.projectUrl),
  };
}
