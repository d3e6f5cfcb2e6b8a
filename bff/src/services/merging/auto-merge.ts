import { z } from 'zod';
import type { Db } from '../../db/index.ts';
import type { MergeRequestRow, ProjectRow, UserRow } from '../../db/schema.ts';
import { jobTicket } from '../../queue/define.ts';
import { enqueue } from '../../queue/queue.ts';
import { nowIso } from '../../util/time.ts';
import { bool } from '../../util/rows.ts';
import { addSystemNote } from './merge-records.ts';
import { SOURCE_UPDATED } from './trains/plan.ts';

/**
 * Auto-merge outside merge trains (the platform's "merge when pipeline succeeds"): a merge asked
 * for while the merge request's head pipeline still runs is remembered on the merge request
 * with who asked and how to merge, and done by a job when that pipeline succeeds. As on the
 * platform, a failed pipeline leaves it set (a job retried into success still merges); new
 * commits on the source branch, closing the merge request or a merge that cannot be done
 * abort it with the reason as a system note; the caller may cancel it.
 */

/** The platform's statuses of a pipeline still on its way. */
const ACTIVE = new Set(['created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'scheduled']);
export const isActivePipeline = (status: string | undefined | null) => status !== undefined && status !== null && ACTIVE.has(status);

/** The status of the latest pipeline of the source branch at `sha` (the merge request's head pipeline). */
export async function headPipelineStatus(db: Db, projectId: number, sourceBranch: string, sha: string): Promise<string | undefined> {
  const row = await db.selectFrom('pipelines').select('status').where('project_id', '=', projectId).where('sha', '=', sha).where('ref', '=', sourceBranch).orderBy('id', 'desc').executeTakeFirst();
  return row?.status;
}

/** What the merge is done with once the pipeline passes: the caller's parameters and the source head they saw. */
export const mergeParams = z.object({
  sha: z.string(),
  squash: z.boolean().optional(),
  should_remove_source_branch: z.boolean().optional(),
  merge_commit_message: z.string().optional(),
  squash_commit_message: z.string().optional(),
  /** Kept by earlier versions; the merge user's role is read at merge time instead. */
  may_write_protected: z.boolean().optional(),
});
export type MergeParams = z.infer<typeof mergeParams>;

export const autoMergeKey = (mergeRequestId: number) => `auto_merge:${mergeRequestId}`;

/** The work an auto-merge asks for: a look at one merge request (run by jobs/auto-merge.ts). */
export const autoMergeTicket = jobTicket({ kind: 'auto_merge', payload: z.object({ mergeRequestId: z.number().int() }), maxAttempts: 10 });

/** Looks at the merge request's auto-merge now (its pipeline moved, its source got a push); runs already asked for absorb it. */
export const kickAutoMerge = (trx: Db, mergeRequestId: number) => enqueue(trx, autoMergeTicket, { mergeRequestId }, { uniqueKey: autoMergeKey(mergeRequestId) });

/** Sets the merge request to merge when its pipeline succeeds, as `user`. */
export async function enableAutoMerge(db: Db, project: ProjectRow, mr: MergeRequestRow, user: UserRow, params: MergeParams): Promise<MergeRequestRow> {
  // Asked again while set: what was given before and not now is kept, as the platform merges its merge params.
  const before = bool(mr.auto_merge_enabled) ? mergeParams.partial().safeParse(JSON.parse(mr.merge_params ?? '{}')) : undefined;
  const merged = { ...(before?.success ? before.data : {}), ...Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined)) };
  return db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('merge_requests')
      .set({ auto_merge_enabled: 1, merge_user_id: user.id, merge_params: JSON.stringify(merged), updated_at: nowIso() })
      .where('id', '=', mr.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    if (!bool(mr.auto_merge_enabled)) await addSystemNote(trx, project, mr, user, `enabled an automatic merge when the pipeline for ${params.sha} succeeds`);
    // The pipeline may have passed between the caller's look and this commit: the job looks again.
    await kickAutoMerge(trx, mr.id);
    return updated;
  });
}

const clear = { auto_merge_enabled: 0, merge_user_id: null, merge_params: null };

/** The caller takes the auto-merge back; false when none was set (the platform's "Can't cancel the automatic merge"). */
export async function cancelAutoMerge(db: Db, project: ProjectRow, mr: MergeRequestRow, user: UserRow): Promise<boolean> {
  if (mr.state !== 'opened' || !bool(mr.auto_merge_enabled)) return false;
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('merge_requests').set({ ...clear, updated_at: nowIso() }).where('id', '=', mr.id).execute();
    await addSystemNote(trx, project, mr, user, 'canceled the automatic merge');
  });
  return true;
}

/** Gatehouse stops the auto-merge, with the reason as a system note by `by` (the pusher whose push stopped it), else by the user who set it. */
export async function abortAutoMerge(trx: Db, project: ProjectRow, mr: MergeRequestRow, reason: string, pusher?: UserRow | null): Promise<void> {
  if (!bool(mr.auto_merge_enabled)) return;
  const by = pusher ?? (mr.merge_user_id === null ? null : ((await trx.selectFrom('users').selectAll().where('id', '=', mr.merge_user_id).executeTakeFirst()) ?? null));
  await trx.updateTable('merge_requests').set({ ...clear, updated_at: nowIso() }).where('id', '=', mr.id).execute();
  await addSystemNote(trx, project, mr, by, `aborted the automatic merge because ${reason}`);
}

/** A pipeline of a source branch succeeded (in its transaction): merge requests set to merge on it are looked at. */
export async function onSourcePipelineSucceeded(trx: Db, projectId: number, ref: string): Promise<void> {
  const waiting = await trx.selectFrom('merge_requests').select('id').where('project_id', '=', projectId).where('auto_merge_enabled', '=', 1).where('state', '=', 'opened').where('source_branch', '=', ref).execute();
  for (const mr of waiting) await kickAutoMerge(trx, mr.id);
}

/**
 * Branches got a push (in its transaction): an auto-merge of one of them whose pushed head is not
 * the commit it was set for is aborted there and then, by the pusher, as the platform's refresh
 * of merge requests does; the others are looked at by the job.
 */
export async function onSourcesPushed(trx: Db, project: ProjectRow, heads: Map<string, string>, pusher: UserRow | null): Promise<void> {
  if (!heads.size) return;
  const waiting = await trx
    .selectFrom('merge_requests')
    .selectAll()
    .where('project_id', '=', project.id)
    .where('auto_merge_enabled', '=', 1)
    .where('state', '=', 'opened')
    .where('source_branch', 'in', [...heads.keys()])
    .execute();
  for (const mr of waiting) {
    const params = mergeParams.safeParse(JSON.parse(mr.merge_params ?? 'null'));
    if (params.success && params.data.sha === heads.get(mr.source_branch)) await kickAutoMerge(trx, mr.id);
    else await abortAutoMerge(trx, project, mr, SOURCE_UPDATED, pusher);
  }
}
