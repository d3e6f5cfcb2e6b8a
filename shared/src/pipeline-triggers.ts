import { z } from './errors.ts';
import { userBasic } from './users.ts';
import { paginationQuery } from './params.ts';

/**
 * A pipeline trigger token. `token` is the whole value for its owner and its first four
 * characters for everyone else (spec, Limits: "trigger token display").
 */
export const pipelineTrigger = z.object({
  id: z.number().int(),
  description: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  last_used: z.string().nullable(),
  token: z.string(),
  owner: userBasic.nullable(),
});
export type PipelineTrigger = z.infer<typeof pipelineTrigger>;

export const pipelineTriggerListQuery = paginationQuery;

export const pipelineTriggerCreateBody = z.object({
  description: z.string().trim().min(1).max(255),
});
export type PipelineTriggerCreateBody = z.infer<typeof pipelineTriggerCreateBody>;

export const pipelineTriggerUpdateBody = z.object({
  description: z.string().trim().min(1).max(255).optional(),
});

/** Variable names as the platform allows them: letters, digits and `_`. */
export const VARIABLE_NAME = /^[A-Za-z0-9_]{1,255}$/;
const variables = z
  .record(z.string().regex(VARIABLE_NAME, 'may contain only letters, digits and "_"'), z.union([z.string().max(10_000), z.number(), z.boolean()]).transform(String))
  .refine((v) => Object.keys(v).length <= 200, 'is too long (maximum is 200 entries)');

/**
 * POST /projects/:id/trigger/pipeline. `token` may come as a form field, a query parameter or a
 * JSON value; `variables` as `variables[NAME]` form fields or a JSON object; `inputs` as JSON.
 */
export const pipelineTriggerBody = z.object({
  token: z.string().min(1).max(255),
  ref: z.string().min(1).max(255),
  variables: variables.optional(),
  inputs: z
    .record(z.string().max(255), z.union([z.string().max(10_000), z.number(), z.boolean(), z.array(z.union([z.string().max(10_000), z.number(), z.boolean()])).max(100)]))
    .refine((v) => Object.keys(v).length <= 50, 'is too long (maximum is 50 entries)')
    .optional(),
});
export type PipelineTriggerBody = z.infer<typeof pipelineTriggerBody>;
