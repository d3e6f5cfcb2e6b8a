import { z } from './errors.ts';
import { userBasic } from './users.ts';
import { boolParam, paginationQuery } from './params.ts';
import { pipelineSummary } from './pipelines.ts';
import { mergeRequestBasic } from './merge-requests.ts';
import { MERGE_METHODS, projectUpdateBody } from './projects.ts';

/**
 * A car's states, as the platform names them: idle (waiting for its turn), stale (its train
 * ref is outdated and is being rebuilt), fresh (its pipeline runs on an up-to-date train ref),
 * merging, merged, skip_merged (merged immediately, past the train).
 */
export const MERGE_TRAIN_STATUSES = ['idle', 'stale', 'fresh', 'merging', 'merged', 'skip_merged'] as const;
export type MergeTrainStatus = (typeof MERGE_TRAIN_STATUSES)[number];
export const ACTIVE_CAR_STATUSES: readonly MergeTrainStatus[] = ['idle', 'stale', 'fresh', 'merging'];

/** The merge request as a car names it: a few fields of the merge request's own. */
export const mergeTrainMergeRequest = mergeRequestBasic.pick({ id: true, iid: true, project_id: true, title: true, description: true, state: true, created_at: true, updated_at: true, web_url: true });

/** The platform's merge train car, plus what the console shows of it (Gatehouse fields, after the spec's). */
export const mergeTrain = z.object({
  id: z.number().int(),
  merge_request: mergeTrainMergeRequest,
  user: userBasic.nullable(),
  pipeline: pipelineSummary.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  target_branch: z.string(),
  status: z.enum(MERGE_TRAIN_STATUSES),
  merged_at: z.string().nullable(),
  duration: z.number().int().nullable(),
  /** 1-based place in the queue of its target branch while on the train; null once it left. */
  position: z.number().int().nullable(),
  /** Why the car left the train without merging (a failed pipeline, a conflict, removed). */
  dropped_reason: z.string().nullable(),
  /** Waiting for the merge request's own pipeline before joining (added with auto_merge). */
  scheduled: z.boolean(),
  /** On the train, but its pipeline has not moved for a long while: no CI reports on it. */
  stuck: z.boolean(),
  author: userBasic.nullable(),
  pipeline_started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});
export type MergeTrain = z.infer<typeof mergeTrain>;

export const mergeTrainListQuery = paginationQuery.extend({
  /** `dropped` (Gatehouse's): cars that left the train unmerged, with their reason. */
  scope: z.enum(['active', 'complete', 'dropped']).optional(),
  sort: z.enum(['asc', 'desc']).optional(),
});
export type MergeTrainListQuery = z.infer<typeof mergeTrainListQuery>;

export const mergeTrainAddBody = z.object({
  auto_merge: boolParam().optional(),
  /** Deprecated spelling of auto_merge. */
  when_pipeline_succeeds: boolParam().optional(),
  sha: z.string().max(64).optional(),
  squash: boolParam().optional(),
});
export type MergeTrainAddBody = z.infer<typeof mergeTrainAddBody>;

/** The project's merge settings (Gatehouse's console endpoint; the platform keeps them on the project, see PUT /projects/:id). */
export const mergeSettings = z.object({
  merge_method: z.enum(MERGE_METHODS),
  merge_trains_enabled: z.boolean(),
  merge_trains_skip_train_allowed: z.boolean(),
  merge_trains_cars_limit: z.number().int().min(1).max(100),
});
export type MergeSettings = z.infer<typeof mergeSettings>;
export const mergeSettingsBody = projectUpdateBody.pick({ merge_method: true, merge_trains_enabled: true, merge_trains_skip_train_allowed: true, merge_trains_cars_limit: true });
export type MergeSettingsBody = z.infer<typeof mergeSettingsBody>;
