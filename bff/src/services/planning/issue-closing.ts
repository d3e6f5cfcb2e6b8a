import type { PushedTo } from '../git/push-events.ts';
import { isZero, readCommits, revList, type RefUpdate } from '../git/push-git.ts';
import { moveIssueState } from './issues.ts';

/**
 * Closing issues from commit messages, as the platform's default closing pattern does: "Closes
 * #12", "fixes #3, #4 and #5", "Resolves issue #7" (also close/closed/closing, fix/fixed/fixing,
 * resolve/resolved/resolving, implement…), when the commit reaches the default branch.
 */
const CLOSING = /\b(?:clos(?:e[sd]?|ing)|fix(?:e[sd]|ing)?|resolv(?:e[sd]?|ing)|implement(?:s|ed|ing)?):?\s+(?:issues?\s+)?((?:#\d+(?:\s*,?\s+and\s+|\s*,\s*|\s+)?)+)/gi;

/** The issue iids a commit message closes, in order, once each. */
export function closedIids(message: string): number[] {
  const out: number[] = [];
  for (const m of message.matchAll(CLOSING)) for (const ref of m[1].matchAll(/#(\d+)/g)) out.push(Number(ref[1]));
  return [...new Set(out)];
}

/** After a push: issues its new default-branch commits close, each closed by the pusher with the commit as source. */
export async function closeIssuesFromPush(pushed: PushedTo, updates: RefUpdate[]): Promise<void> {
  const branch = `refs/heads/${pushed.project.default_branch ?? 'main'}`;
  const update = updates.find((u) => u.ref === branch && !isZero(u.after));
  if (!update || !pushed.user) return;
  const ids = await revList(pushed.dir, [update.after], isZero(update.before) ? [] : [update.before]);
  const commits = (await readCommits(pushed.dir, ids.slice(0, 1000))).filter((c) => closedIids(c.message).length);
  if (!commits.length) return;
  const acting = { project: pushed.project, group: pushed.group, baseUrl: pushed.baseUrl, user: pushed.user };
  await pushed.db.transaction().execute(async (trx) => {
    for (const commit of commits.reverse()) {
      const iids = closedIids(commit.message);
      const open = await trx.selectFrom('issues').selectAll().where('project_id', '=', pushed.project.id).where('iid', 'in', iids).where('state', '=', 'opened').execute();
      for (const issue of open) await moveIssueState(trx, acting, issue, 'closed', { commit: commit.id });
    }
  });
}
