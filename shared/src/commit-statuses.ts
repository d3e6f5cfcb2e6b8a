import { z } from './errors.ts';
import { userBasic } from './users.ts';
import { boolParam, intParam, paginationQuery } from './params.ts';

/** The states an external CI may report (spec: commit status API). */
export const COMMIT_STATUS_STATES = ['pending', 'running', 'success', 'failed', 'canceled', 'skipped'] as const;
export type CommitStatusState = (typeof COMMIT_STATUS_STATES)[number];

/** A commit status: one job of an external CI, as the platform shows it. */
export const commitStatus = z.object({
  id: z.number().int(),
  sha: z.string(),
  ref: z.string(),
  status: z.string(),
  name: z.string(),
  target_url: z.string().nullable(),
  description: z.string().nullable(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  allow_failure: z.boolean(),
  coverage: z.number().nullable(),
  pipeline_id: z.number().int(),
  author: userBasic.nullable(),
});
export type CommitStatus = z.infer<typeof commitStatus>;

/** POST /projects/:id/statuses/:sha. `context` is the older name of `name`. */
export const commitStatusBody = z.object({
  state: z.enum(COMMIT_STATUS_STATES),
  ref: z.string().min(1).max(255).optional(),
  name: z.string().min(1).max(255).optional(),
  context: z.string().min(1).max(255).optional(),
  target_url: z
    .string()
    .max(2048)
    .regex(/^https?:\/\/[^\s]+$/i, 'is blocked: Only allowed schemes are http, https')
    .optional(),
  description: z.string().max(255).optional(),
  coverage: z.union([z.number(), z.string().regex(/^-?\d+(\.\d+)?$/).transform(Number)]).pipe(z.number().min(0).max(100)).optional(),
  pipeline_id: intParam().pipe(z.number().int().min(1)).optional(),
});
export type CommitStatusBody = z.infer<typeof commitStatusBody>;

export const commitStatusListQuery = paginationQuery.extend({
  ref: z.string().max(255).optional(),
  stage: z.string().max(255).optional(),
  name: z.string().max(255).optional(),
  pipeline_id: intParam().optional(),
  all: boolParam().optional(),
  order_by: z.enum(['id', 'pipeline_id']).optional(),
  sort: z.enum(['asc', 'desc']).optional(),
});
