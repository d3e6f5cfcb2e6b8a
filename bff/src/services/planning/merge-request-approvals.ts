import type { Db } from '../../db/index.ts';
import type { MergeRequestRow, UserRow } from '../../db/schema.ts';
import { conflict, unauthorized } from '../../util/errors.ts';
import { nowIso } from '../../util/time.ts';
import { usersById } from '../access/users.ts';
import type { Acting } from './issues.ts';
import { createSystemNote } from './notes.ts';
import { fireMergeRequestHook } from './work-item-hook-payloads.ts';
import { recordActivity } from './work-items.ts';

/*
 * Approvals of merge requests, as the platform's approvals API: anyone who may update a merge
 * request (Developers and up; the caller's role is the route's part) approves it once, its author
 * excepted (the platform's default "prevent approval by author"), and takes the approval back.
 * No approval rules: none is required.
 */

export interface Approval {
  user: UserRow | null;
  approvedAt: string;
}

export interface ApprovalsView {
  mr: MergeRequestRow;
  approvals: Approval[];
  /** The caller approved it. */
  userHasApproved: boolean;
  /** The caller may approve it now (not its author, not approved yet, and the role for it). */
  userCanApprove: boolean;
}

/** The approvals of a merge request, oldest first, with what the caller (`me`, allowed by role or not) may do. */
export async function approvalsOf(db: Db, mr: MergeRequestRow, me: { id: number; mayApprove: boolean } | null): Promise<ApprovalsView> {
  const rows = await db.selectFrom('merge_request_approvals').selectAll().where('merge_request_id', '=', mr.id).orderBy('created_at').orderBy('user_id').execute();
  const users = await usersById(db, rows.map((r) => r.user_id));
  const userHasApproved = me !== null && rows.some((r) => r.user_id === me.id);
  return {
    mr,
    approvals: rows.map((r) => ({ user: users.get(r.user_id) ?? null, approvedAt: r.created_at })),
    userHasApproved,
    userCanApprove: me !== null && me.mayApprove && !userHasApproved && mr.author_id !== me.id,
  };
}

/**
 * Approves the merge request as the caller. `sha`, when given, must be the source branch's head
 * (`head`; 409 otherwise). The author, or a second approval by the same person, is the
 * platform's 401. A system note, an "approved" event and the merge request hook follow.
 */
export async function approveMergeRequest(db: Db, acting: Acting, mr: MergeRequestRow, head: string | null, sha: string | undefined): Promise<void> {
  if (sha !== undefined && sha !== head) throw conflict(`SHA does not match HEAD of source branch: ${head ?? ''}`);
  if (mr.author_id === acting.user.id) throw unauthorized();
  await db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('merge_request_approvals')
      .values({ merge_request_id: mr.id, user_id: acting.user.id, created_at: nowIso() })
      .onConflict((oc) => oc.columns(['merge_request_id', 'user_id']).doNothing())
      .returning('user_id')
      .executeTakeFirst();
    // Approved already (now, or by a request that raced this one).
    if (!inserted) throw unauthorized();
    await createSystemNote(trx, { type: 'MergeRequest', id: mr.id, projectId: mr.project_id }, acting.user, 'approved this merge request');
    await recordActivity(trx, { projectId: mr.project_id }, acting.user, 'approved', { type: 'MergeRequest', id: mr.id });
    await fireMergeRequestHook(trx, acting, mr, 'approved', {});
  });
}

/** Takes the caller's approval back; when there was none nothing changes (the platform answers as for a removal). */
export async function unapproveMergeRequest(db: Db, acting: Acting, mr: MergeRequestRow): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const removed = await trx.deleteFrom('merge_request_approvals').where('merge_request_id', '=', mr.id).where('user_id', '=', acting.user.id).executeTakeFirst();
    if (Number(removed.numDeletedRows) === 0) return;
    await createSystemNote(trx, { type: 'MergeRequest', id: mr.id, projectId: mr.project_id }, acting.user, 'unapproved this merge request');
    await fireMergeRequestHook(trx, acting, mr, 'unapproved', {});
  });
}
