import type { Db } from '../../db/index.ts';
import type { MilestoneRow } from '../../db/schema.ts';
import type { BurndownEvent } from '../../../../shared/src/burndown.ts';
import type { Actor } from '../../auth/actor.ts';
import { issuesReadable, readableIssueIds } from '../../policies/readable.ts';

/**
 * A milestone's burndown events, from the resource events of every issue that was ever in it:
 * joining and leaving (milestone events), closing and reopening (state events) and weight
 * changes. Issues that carry the milestone without a recorded joining (written before events
 * were kept) join at their creation, and a closed one without a state event closes at its
 * closed_at, so the chart still adds up to what the milestone holds. Only the issues the caller
 * may see count, by the issue list's rule (as the platform's chart asks its issue finder).
 */
export async function burndownEvents(db: Db, milestone: MilestoneRow, actor: Actor): Promise<BurndownEvent[]> {
  const moves = await db
    .selectFrom('resource_milestone_events')
    .select(['issue_id', 'milestone_id', 'action', 'created_at'])
    .where('milestone_id', '=', milestone.id)
    .where('issue_id', 'in', readableIssueIds(db, actor))
    .execute();
  const current = await db
    .selectFrom('issues')
    .select(['id', 'created_at', 'closed_at', 'state', 'weight'])
    .where('milestone_id', '=', milestone.id)
    .where(issuesReadable(db, actor))
    .execute();
  const issueIds = [...new Set([...moves.map((m) => m.issue_id as number), ...current.map((i) => i.id)])];
  if (!issueIds.length) return [];
  const [states, weights, issues] = await Promise.all([
    db.selectFrom('resource_state_events').select(['issue_id', 'state', 'created_at']).where('issue_id', 'in', issueIds).where('state', 'in', ['closed', 'reopened']).execute(),
    db.selectFrom('resource_weight_events').select(['issue_id', 'weight', 'created_at']).where('issue_id', 'in', issueIds).orderBy('created_at').orderBy('id').execute(),
    db.selectFrom('issues').select(['id', 'created_at', 'closed_at', 'state', 'weight']).where('id', 'in', issueIds).execute(),
  ]);

  /**
   * An issue's weight at a moment: its last weight event by then. Before any, the weight it was
   * created with: its first event when that was written with the issue (within a second of its
   * creation, the events of one request), its weight now when it never changed, else none.
   */
  // Indexed once: a milestone may hold thousands of issues.
  const weightsOf = new Map<number, typeof weights>();
  for (const w of weights) {
    const list = weightsOf.get(w.issue_id);
    if (list) list.push(w);
    else weightsOf.set(w.issue_id, [w]);
  }
  const issueById = new Map(issues.map((i) => [i.id, i]));
  const weightAt = (issueId: number, at: string): number | null => {
    const own = weightsOf.get(issueId) ?? [];
    const before = own.filter((w) => w.created_at <= at);
    if (before.length) return before[before.length - 1].weight;
    const issue = issueById.get(issueId);
    if (!own.length) return issue?.weight ?? null;
    const atCreation = issue && Date.parse(own[0].created_at) - Date.parse(issue.created_at) <= 1000;
    return atCreation ? own[0].weight : null;
  };

  const events: BurndownEvent[] = [];
  for (const m of moves) {
    const issueId = m.issue_id as number;
    events.push({ created_at: m.created_at, issue_id: issueId, action: m.action === 'remove' ? 'removed' : 'created', weight: weightAt(issueId, m.created_at) });
  }
  const moved = new Set(moves.map((m) => m.issue_id));
  const stateEventsOf = new Set(states.map((s) => s.issue_id));
  for (const issue of current) {
    if (moved.has(issue.id)) continue;
    events.push({ created_at: issue.created_at, issue_id: issue.id, action: 'created', weight: weightAt(issue.id, issue.created_at) });
  }
  for (const s of states) {
    events.push({ created_at: s.created_at, issue_id: s.issue_id as number, action: s.state === 'closed' ? 'closed' : 'reopened', weight: weightAt(s.issue_id as number, s.created_at) });
  }
  for (const issue of issues) {
    if (issue.state === 'closed' && issue.closed_at && !stateEventsOf.has(issue.id)) {
      events.push({ created_at: issue.closed_at, issue_id: issue.id, action: 'closed', weight: weightAt(issue.id, issue.closed_at) });
    }
  }
  for (const w of weights) events.push({ created_at: w.created_at, issue_id: w.issue_id, action: 'weight', weight: w.weight });
  // Same-moment events keep a sensible order: joining before closing, closing before leaving.
  const rank: Record<BurndownEvent['action'], number> = { created: 0, weight: 1, reopened: 2, closed: 3, removed: 4 };
  return events.sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : rank[a.action] - rank[b.action]));
}
