import { defineJob, type JobDeps } from '../queue/define.ts';
import { bool } from '../util/rows.ts';
import { DomainError } from '../util/errors.ts';
import { projectAccessLevel } from '../policies/access.ts';
import { resolveCommit } from '../services/git/branches.ts';
import { ensureRepository } from '../services/git/repositories.ts';
import { writerRole } from '../services/git/protected-refs.ts';
import { abortAutoMerge, autoMergeKey, autoMergeTicket, headPipelineStatus, mergeParams } from '../services/merging/auto-merge.ts';
import { mergeMergeRequest, type MergeCaller } from '../services/merging/merge-request-merge.ts';
import { PushRefused } from '../services/merging/merge-records.ts';
import { MergeConflict, NeedsRebase } from '../services/merging/trains/git-merge.ts';
import { SOURCE_UPDATED } from '../services/merging/trains/plan.ts';

/** A merge request set to merge when its pipeline succeeds, looked at (services/merging/auto-merge.ts). */
export const autoMergeJob = defineJob({
  ...autoMergeTicket,
  leaseMs: () => 120_000,
  handler: async (p, deps) => {
    await deps.db.updateTable('jobs').set({ unique_key: null }).where('unique_key', '=', autoMergeKey(p.mergeRequestId)).execute();
    await processAutoMerge(deps, p.mergeRequestId);
  },
});

/** Merges the merge request if its auto-merge still stands and its head pipeline passed; idempotent (a merged one is left alone). */
export async function processAutoMerge(deps: JobDeps, mergeRequestId: number): Promise<void> {
  const { db } = deps;
  const mr = await db.selectFrom('merge_requests').selectAll().where('id', '=', mergeRequestId).executeTakeFirst();
  if (!mr || mr.state !== 'opened' || !bool(mr.auto_merge_enabled)) return;
  const project = await db.selectFrom('projects').selectAll().where('id', '=', mr.project_id).executeTakeFirstOrThrow();
  const group = await db.selectFrom('groups').selectAll().where('id', '=', project.namespace_id).executeTakeFirstOrThrow();
  const dir = await ensureRepository(deps.db, deps.config.repositoriesDir, project);
  const parsed = mergeParams.safeParse(JSON.parse(mr.merge_params ?? 'null'));
  const user = mr.merge_user_id === null ? undefined : await db.selectFrom('users').selectAll().where('id', '=', mr.merge_user_id).executeTakeFirst();
  const abort = (reason: string) => db.transaction().execute((trx) => abortAutoMerge(trx, project, mr, reason));
  if (!parsed.success || !user) return abort('the user who set it is gone');
  const params = parsed.data;
  const source = await resolveCommit(dir, `refs/heads/${mr.source_branch}`);
  if (source !== params.sha) return abort(SOURCE_UPDATED);
  // Not yet (still running), or failed: it stays set, as on the platform; a pipeline that passes later merges it.
  if ((await headPipelineStatus(db, project.id, mr.source_branch, params.sha)) !== 'success') return;
  // Merged as that user may merge now (the platform checks the merge user at merge time): a Developer at least, and one the target's protection admits.
  const role = writerRole(bool(user.is_admin), await projectAccessLevel(db, user.id, project, group));
  if (role < 30 || user.state !== 'active') return abort('the user who set it may no longer merge it');
  const caller: MergeCaller = { db, dir, baseUrl: deps.config.externalUrl ?? deps.instanceUrl, project, group, user, role };
  try {
    await mergeMergeRequest(caller, mr, {
      sha: params.sha,
      squash: params.squash,
      should_remove_source_branch: params.should_remove_source_branch,
      merge_commit_message: params.merge_commit_message,
      squash_commit_message: params.squash_commit_message,
    });
  } catch (e) {
    if (e instanceof MergeConflict || e instanceof NeedsRebase) return abort('the merge request cannot be merged: ' + e.message);
    if (e instanceof PushRefused) return abort('the push rule refused the merge: ' + e.message);
    // The target branch moved under the merge: tried again (the job is retried).
    if (e instanceof DomainError && /moved, try again/.test(e.message)) throw e;
    if (e instanceof DomainError) return abort(`the merge request cannot be merged: ${e.message}`);
    throw e;
  }
}
