import type { Branch, Commit } from '../../../shared/src/branches.ts';
import type { BranchInfo, CommitInfo } from '../services/git/branches.ts';
import { mayPushUnder, type BranchProtection, type WriterRole } from '../services/git/protected-refs.ts';

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

/**
 * A branch, with the protections that name it (exactly or by a wildcard): protected when any
 * does; Developers push or merge when one of them has the Developer level for it, as the platform says.
 */
export function presentBranch(b: BranchInfo, ctx: { projectUrl: string; defaultBranch: string; protections: BranchProtection[]; canPush: boolean; role: WriterRole }): Branch {
  const isProtected = ctx.protections.length > 0;
  const developers = (levels: (p: BranchProtection) => number[]) => !isProtected || ctx.protections.some((p) => levels(p).includes(30));
  return {
    name: b.name,
    merged: b.merged,
    protected: isProtected,
    default: b.name === ctx.defaultBranch,
    developers_can_push: developers((p) => p.push),
    developers_can_merge: developers((p) => p.merge),
    can_push: ctx.canPush && mayPushUnder(ctx.protections, ctx.role),
    web_url: `${ctx.projectUrl}/-/tree/${encodeURIComponent(b.name).replace(/%2F/g, '/')}`,
    commit: presentCommit(b.commit, ctx.projectUrl),
  };
}
