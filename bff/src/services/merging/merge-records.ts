import type { Db } from '../../db/index.ts';
import type { GroupRow, MergeRequestRow, ProjectRow, UserRow } from '../../db/schema.ts';
import { nowIso } from '../../util/time.ts';
import { refUpdateRefusals } from '../git/push-checks.ts';
import { recordPush, type PushedTo } from '../git/push-events.ts';
import { fireMergeRequestHook } from '../planning/work-item-hook-payloads.ts';
import { ZERO_SHA, type RefUpdate } from '../git/push-git.ts';
import { swapRef } from './trains/git-merge.ts';
import type { WriterRole } from '../git/protected-refs.ts';

/*
 * What every way of merging records, beneath the merge API, auto-merge and the train engine:
 * the checked branch move, the merged state with its events and hook, and system notes.
 */

/** A push rule refused the ref move (its reasons are the message). */
export class PushRefused extends Error {}

/** Where a branch moves and who moves it: their role, which the target's protection reads (its merge access levels as well as its push ones). */
export type MoveAs = PushedTo & { role: WriterRole };

/**
 * Moves a branch as a push of it would: checked against the branch's protection and the
 * project's push rule first, moved by compare-and-swap, then the push event, hooks and
 * activity. False when the branch moved meanwhile (nothing happened).
 */
export async function moveBranchAsPush(to: MoveAs, update: RefUpdate): Promise<boolean> {
  await checkMove(to, update);
  const old = update.before === ZERO_SHA ? '' : update.before;
  if (!(await swapRef(to.dir, update.ref, update.after, old, 'merge'))) return false;
  await recordPush(to, [update]);
  return true;
}

/** The branch's protection (as a merge) and the project's push rule, as a push of this move would meet them; PushRefused with their reasons. */
export async function checkMove(to: MoveAs, update: RefUpdate): Promise<void> {
  const refused = await refUpdateRefusals({ ...to, write: { role: to.role, via: 'web', merge: true } }, [update]);
  if (refused.length) throw new PushRefused(refused.join('\n'));
}

export async function addSystemNote(trx: Db, project: ProjectRow, mr: MergeRequestRow, author: UserRow | null, body: string): Promise<void> {
  const now = nowIso();
  await trx
    .insertInto('notes')
    .values({ project_id: project.id, noteable_type: 'MergeRequest', noteable_id: mr.id, author_id: author?.id ?? mr.author_id, body, system: 1, internal: 0, created_at: now, updated_at: now })
    .execute();
}

/**
 * The merge request is merged (its target branch already moved): its state and merge
 * fields, a "merged" state event, the "merged" activity and the merge request hook.
 */
export async function markMerged(
  trx: Db,
  scope: { project: ProjectRow; group: GroupRow; baseUrl: string },
  mr: MergeRequestRow,
  m: { user: UserRow | null; mergeCommitSha: string; squashCommitSha: string | null },
): Promise<void> {
  const now = nowIso();
  await trx
    .updateTable('merge_requests')
    .set({ state: 'merged', merged_at: now, merge_user_id: m.user?.id ?? null, merge_commit_sha: m.mergeCommitSha, squash_commit_sha: m.squashCommitSha, updated_at: now })
    .where('id', '=', mr.id)
    .execute();
  await trx.insertInto('resource_state_events').values({ user_id: m.user?.id ?? null, merge_request_id: mr.id, issue_id: null, epic_id: null, state: 'merged', source_commit: null, source_merge_request_id: null, created_at: now }).execute();
  await trx
    .insertInto('events')
    .values({ project_id: scope.project.id, group_id: null, author_id: m.user?.id ?? null, action_name: 'merged', target_type: 'MergeRequest', target_id: mr.id, push_data: null, created_at: now })
    .execute();
  const merged = await trx.selectFrom('merge_requests').selectAll().where('id', '=', mr.id).executeTakeFirstOrThrow();
  // The merge request hook's `merge` event, as the platform sends it (no user: nobody to name, no event).
  if (m.user) await fireMergeRequestHook(trx, { ...scope, user: m.user }, merged, 'merge', { state: { previous: mr.state, current: 'merged' } });
}
