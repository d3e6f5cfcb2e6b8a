import type { Db } from '../../db/index.ts';
import type { GroupRow, MergeRequestRow, ProjectRow, UserRow } from '../../db/schema.ts';
import type { MergeRequestMergeBody } from '../../../../shared/src/merge-request-merge.ts';
import { nowIso } from '../../util/time.ts';
import { bool } from '../../util/rows.ts';
import { resolveCommit } from '../git/branches.ts';
import { conflict, notAllowed, unauthorized, unprocessable } from '../../util/errors.ts';
import { ZERO_SHA } from '../git/push-git.ts';
import { mayMergeUnder, protectionsFor } from '../git/protected-refs.ts';
import { DEFAULT_BRANCH } from '../git/repositories.ts';
import { deleteRef, mergeResult, type MergeMethod } from './trains/git-merge.ts';
import { kickTrain, trainRef } from './trains/run.ts';
import { markMerged, moveBranchAsPush, PushRefused, type MoveAs } from './merge-records.ts';
import { cancelAutoMerge, enableAutoMerge, headPipelineStatus, isActivePipeline } from './auto-merge.ts';
import { addToTrain, removeFromTrain } from './merge-trains.ts';
import type { AutoMergeCancelResult } from '../../../../shared/src/merge-request-merge.ts';

export interface MergeCaller extends MoveAs {
  user: UserRow;
}

/**
 * PUT …/merge_requests/:iid/merge: the target branch moves to the merge (or the source,
 * fast-forward) by the project's merge method, as the caller's push. The platform's answers:
 * 405 not mergeable (draft, closed, merged, on a train), 409 `sha` not the source head,
 * 401 target protected from the caller; a MergeConflict or NeedsRebase is its 406.
 */
export async function mergeMergeRequest(to: MergeCaller, mr: MergeRequestRow, body: MergeRequestMergeBody): Promise<MergeRequestRow> {
  const { db, project, user } = to;
  if (mr.state !== 'opened' || bool(mr.draft)) throw notAllowed(`merge request is ${mr.state === 'opened' ? 'a draft' : mr.state}`);
  const car = await db.selectFrom('merge_train_cars').selectAll().where('active_merge_request_id', '=', mr.id).executeTakeFirst();
  const skip = Boolean(body.skip_merge_train) && bool(project.merge_trains_skip_train_allowed);
  if (car && !skip) throw notAllowed('merge request is on a merge train; remove it first, or merge immediately with skip_merge_train where the project allows it');
  const source = await resolveCommit(to.dir, `refs/heads/${mr.source_branch}`);
  const target = await resolveCommit(to.dir, `refs/heads/${mr.target_branch}`);
  if (!source || !target) throw unprocessable('Branch cannot be merged');
  // The target's protection: its push or merge access levels admit the caller (the platform's can_be_merged_by), else its 401.
  const { rules } = await protectionsFor(db, to.dir, project, mr.target_branch, project.default_branch ?? DEFAULT_BRANCH);
  if (!mayMergeUnder(rules, to.role)) throw unauthorized();
  const wantsAuto = body.auto_merge ?? body.merge_when_pipeline_succeeds ?? false;
  if (!car && bool(project.merge_trains_enabled) && !skip) {
    if (!wantsAuto) throw notAllowed('merge trains are enabled: add the merge request to the merge train, or merge with auto_merge');
    if (body.sha !== undefined && body.sha !== source) throw conflict(`SHA does not match HEAD of source branch: ${source}`);
    // The platform's merge train strategies: on the train now when its pipeline passed, scheduled to join while it runs.
    await addToTrain({ db, dir: to.dir, project, user, role: to.role }, mr, { auto_merge: true, sha: source, squash: body.squash });
    return db.selectFrom('merge_requests').selectAll().where('id', '=', mr.id).executeTakeFirstOrThrow();
  }
  // auto_merge (merge_when_pipeline_succeeds): set while the head pipeline runs, a merge now once it passed, 405 otherwise.
  const pipeline = await headPipelineStatus(db, project.id, mr.source_branch, source);
  const autoNow = wantsAuto && isActivePipeline(pipeline);
  if (wantsAuto && !autoNow && pipeline !== 'success') throw notAllowed('the merge request has no running pipeline to merge when it succeeds');
  if (!wantsAuto && bool(project.only_allow_merge_if_pipeline_succeeds) && pipeline !== 'success') throw notAllowed('the pipeline must succeed before the merge request is merged');
  if (body.sha !== undefined && body.sha !== source) throw conflict(`SHA does not match HEAD of source branch: ${source}`);
  if (autoNow) {
    const { sha: _sha, auto_merge: _a, merge_when_pipeline_succeeds: _m, skip_merge_train: _s, ...how } = body;
    return enableAutoMerge(db, project, mr, user, { ...how, sha: source });
  }

  // The project's squash option decides where it is 'always' or 'never'; otherwise the caller, then the merge request.
  const squash = project.squash_option === 'always' ? true : project.squash_option === 'never' ? false : (body.squash ?? bool(mr.squash));
  const message = body.merge_commit_message ?? `Merge branch '${mr.source_branch}' into '${mr.target_branch}'\n\n${mr.title}\n\nSee merge request ${project.path_with_namespace}!${mr.iid}`;
  const result = await mergeResult(to.dir, {
    target,
    source,
    method: project.merge_method as MergeMethod,
    message,
    squash: squash ? { message: body.squash_commit_message ?? mr.title } : undefined,
    who: { name: user.name, email: user.email },
  });
  let moved: boolean;
  try {
    moved = await moveBranchAsPush(to, { before: target, after: result.sha, ref: `refs/heads/${mr.target_branch}` });
  } catch (e) {
    if (e instanceof PushRefused) throw unprocessable(e.message);
    throw e;
  }
  if (!moved) throw unprocessable('Branch cannot be merged: the target branch moved, try again');
  await db.transaction().execute(async (trx) => {
    await markMerged(trx, to, mr, { user, mergeCommitSha: result.sha, squashCommitSha: result.squashSha });
    if (car) {
      const now = nowIso();
      await trx.updateTable('merge_train_cars').set({ status: 'skip_merged', active_merge_request_id: null, merged_at: now, finished_at: now, duration: Math.round((Date.parse(now) - Date.parse(car.created_at)) / 1000), updated_at: now }).where('id', '=', car.id).execute();
    }
    // Cars on the target's train are rebuilt on the new target head.
    await kickTrain(trx, project.id, mr.target_branch);
  });
  if (car) await deleteRef(to.dir, trainRef(mr.iid));
  if (body.should_remove_source_branch ?? bool(mr.force_remove_source_branch)) {
    await moveBranchAsPush(to, { before: source, after: ZERO_SHA, ref: `refs/heads/${mr.source_branch}` }).catch(() => false);
  }
  return db.selectFrom('merge_requests').selectAll().where('id', '=', mr.id).executeTakeFirstOrThrow();
}

/**
 * The platform's cancel_merge_when_pipeline_succeeds: a merge request on a merge train leaves it (the cars behind are
 * rebuilt); any other has its auto-merge taken back, or gets the platform's refusal when none was set.
 */
export async function cancelMerge(ctx: { db: Db; dir: string; project: ProjectRow; group: GroupRow; baseUrl: string }, mr: MergeRequestRow, user: UserRow): Promise<AutoMergeCancelResult> {
  const car = await ctx.db.selectFrom('merge_train_cars').select('id').where('active_merge_request_id', '=', mr.id).executeTakeFirst();
  if (car) await removeFromTrain(ctx, mr, user);
  else if (!(await cancelAutoMerge(ctx.db, ctx.project, mr, user))) return { status: 'error', message: "Can't cancel the automatic merge", http_status: 406 };
  return { status: 'success' };
}
