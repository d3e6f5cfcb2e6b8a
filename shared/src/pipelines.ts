import { z } from './errors.ts';
import { userBasic } from './users.ts';
import { boolParam, datetimeParam, paginationQuery } from './params.ts';

// The statuses and their wording live in a module without zod (pipeline-statuses.ts), which the
// console's status badges import: a badge has no schema to check.
export { COMPLETED_STATUSES, PIPELINE_STATUSES, statusText, type PipelineStatus } from './pipeline-statuses.ts';
import { PIPELINE_STATUSES, STATUS_LOOK, type PipelineStatus } from './pipeline-statuses.ts';

export const PIPELINE_SOURCES = ['push', 'web', 'trigger', 'schedule', 'api', 'external', 'pipeline', 'chat', 'merge_request_event', 'external_pull_request_event', 'parent_pipeline'] as const;

export const detailedStatus = z.object({
  icon: z.string(),
  text: z.string(),
  label: z.string(),
  group: z.string(),
  tooltip: z.string(),
  has_details: z.boolean(),
  details_path: z.string().nullable(),
  illustration: z.object({ image: z.string(), size: z.string(), title: z.string(), content: z.string().optional() }).nullable(),
  favicon: z.string(),
});

/** The platform's PipelineBasic: a pipeline as jobs and lists name it. */
export const pipelineSummary = z.object({
  id: z.number().int(),
  iid: z.number().int(),
  project_id: z.number().int(),
  sha: z.string(),
  ref: z.string(),
  status: z.enum(PIPELINE_STATUSES),
  source: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  web_url: z.string(),
});

/** A pipeline in lists: PipelineBasic, with who started it and how long it took (from the detail). */
export const pipelineBasic = pipelineSummary.extend({
  user: userBasic.nullable(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  duration: z.number().nullable(),
});
export type PipelineBasic = z.infer<typeof pipelineBasic>;

/** One pipeline (GET …/pipelines/:pipeline_id, the trigger's answer, cancel and retry). */
export const pipeline = pipelineBasic.extend({
  before_sha: z.string(),
  tag: z.boolean(),
  yaml_errors: z.string().nullable(),
  committed_at: z.string().nullable(),
  queued_duration: z.number().nullable(),
  coverage: z.string().nullable(),
  detailed_status: detailedStatus,
  archived: z.boolean(),
});
export type Pipeline = z.infer<typeof pipeline>;

export const PIPELINE_ORDER = ['id', 'status', 'ref', 'updated_at', 'user_id'] as const;

export const pipelineListQuery = paginationQuery.extend({
  scope: z.enum(['running', 'pending', 'finished', 'branches', 'tags']).optional(),
  status: z.enum(PIPELINE_STATUSES).optional(),
  source: z.enum(PIPELINE_SOURCES).optional(),
  ref: z.string().max(255).optional(),
  sha: z.string().max(64).optional(),
  username: z.string().max(255).optional(),
  updated_after: datetimeParam().optional(),
  updated_before: datetimeParam().optional(),
  created_after: datetimeParam().optional(),
  created_before: datetimeParam().optional(),
  order_by: z.enum(PIPELINE_ORDER).optional(),
  sort: z.enum(['asc', 'desc']).optional(),
});
export type PipelineListQuery = z.infer<typeof pipelineListQuery>;

/** A job of a pipeline, as GET …/pipelines/:pipeline_id/jobs shows it. External jobs carry their CI's link. */
export const job = z.object({
  id: z.number().int(),
  status: z.enum(PIPELINE_STATUSES),
  stage: z.string(),
  name: z.string(),
  ref: z.string(),
  tag: z.boolean(),
  coverage: z.number().nullable(),
  allow_failure: z.boolean(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  erased_at: z.string().nullable(),
  duration: z.number().nullable(),
  queued_duration: z.number().nullable(),
  user: userBasic.nullable(),
  commit: z.object({ id: z.string(), short_id: z.string() }),
  pipeline: pipelineSummary,
  web_url: z.string(),
  target_url: z.string().nullable(),
  description: z.string().nullable(),
  failure_reason: z.string().optional(),
  artifacts: z.array(z.object({ file_type: z.string(), size: z.number(), filename: z.string() })),
  tag_list: z.array(z.string()),
  runner: z.object({ id: z.number().int(), description: z.string() }).nullable(),
  archived: z.boolean(),
});
export type Job = z.infer<typeof job>;

export const jobListQuery = paginationQuery.extend({
  scope: z.preprocess((v) => (typeof v === 'string' ? [v] : v), z.array(z.enum(PIPELINE_STATUSES)).max(20)).optional(),
  include_retried: boolParam().optional(),
});

/** A variable a pipeline was started with (trigger variables). */
export const pipelineVariable = z.object({
  key: z.string(),
  value: z.string(),
  variable_type: z.literal('env_var'),
  raw: z.boolean(),
});


/** The `detailed_status` object of a pipeline in this status; `detailsPath` is the pipeline's page. */
export function detailedStatusOf(status: PipelineStatus, detailsPath: string): z.infer<typeof detailedStatus> {
  const look = STATUS_LOOK[status] ?? { text: status, label: status };
  return {
    icon: `status_${status}`,
    text: look.text,
    label: look.label,
    group: status,
    tooltip: look.label,
    has_details: true,
    details_path: detailsPath,
    illustration: null,
    favicon: `/assets/ci_favicons/favicon_status_${status}.png`,
  };
}
