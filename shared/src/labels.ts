import { z } from './errors.ts';
import { boolParam, intParam, paginationQuery } from './params.ts';

/** `#RGB`, `#RRGGBB`, or one of the CSS colour names the platform accepts (kept as given). */
export const labelColor = z
  .string()
  .trim()
  .regex(/^(#[0-9a-fA-F]{3}|#[0-9a-fA-F]{6}|[a-zA-Z]{3,20})$/, 'must be a valid color code');

/** A label of a project or group (GET …/labels); the counts are given when asked (`with_counts`). */
export const label = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  description_html: z.string(),
  text_color: z.string(),
  color: z.string(),
  priority: z.number().int().nullable().optional(),
  is_project_label: z.boolean(),
  subscribed: z.boolean(),
  archived: z.boolean(),
  open_issues_count: z.number().int().optional(),
  closed_issues_count: z.number().int().optional(),
  open_merge_requests_count: z.number().int().optional(),
});
export type Label = z.infer<typeof label>;

const labelName = z.string().trim().min(1).max(255).refine((v) => !v.includes(','), 'is invalid');

export const labelCreateBody = z.object({
  name: labelName,
  color: labelColor,
  description: z.string().max(10_000).nullish(),
  priority: intParam().pipe(z.number().int().min(0)).nullish(),
});
export type LabelCreateBody = z.infer<typeof labelCreateBody>;

export const labelUpdateBody = z.object({
  new_name: labelName.optional(),
  color: labelColor.optional(),
  description: z.string().max(10_000).nullish(),
  priority: intParam().pipe(z.number().int().min(0)).nullish(),
});
export type LabelUpdateBody = z.infer<typeof labelUpdateBody>;

export const labelListQuery = paginationQuery.extend({
  with_counts: boolParam().optional(),
  include_ancestor_groups: boolParam().optional(),
  include_descendant_groups: boolParam().optional(),
  only_group_labels: boolParam().optional(),
  search: z.string().max(255).optional(),
});
export type LabelListQuery = z.infer<typeof labelListQuery>;
