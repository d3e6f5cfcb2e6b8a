import { z } from './errors.ts';
import { boolParam } from './params.ts';

/** PUT /projects/:id/merge_requests/:merge_request_iid/merge */
export const mergeRequestMergeBody = z.object({
  sha: z.string().max(64).optional(),
  squash: boolParam().optional(),
  should_remove_source_branch: boolParam().optional(),
  merge_commit_message: z.string().max(100_000).optional(),
  squash_commit_message: z.string().max(100_000).optional(),
  /** Deprecated spellings of auto_merge: merge once the pipeline passes. */
  merge_when_pipeline_succeeds: boolParam().optional(),
  auto_merge: boolParam().optional(),
  /** Merge at once past the merge train, where the project allows it (the car is skip_merged). */
  skip_merge_train: boolParam().optional(),
});
export type MergeRequestMergeBody = z.infer<typeof mergeRequestMergeBody>;

/**
 * POST …/cancel_merge_when_pipeline_succeeds answers what the platform's service answers (201
 * either way): `{"status":"success"}`, or the refusal when no automatic merge was set.
 */
export const autoMergeCancelResult = z.object({
  status: z.enum(['success', 'error']),
  message: z.string().optional(),
  http_status: z.number().int().optional(),
});
export type AutoMergeCancelResult = z.infer<typeof autoMergeCancelResult>;
