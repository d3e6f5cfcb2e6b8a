import { z } from './errors.ts';
import { boolParam, dateParam, datetimeParam, intParam, paginationQuery, stringListParam } from './params.ts';
import { userBasic } from './users.ts';

/** The spec's limit on an epic's description. */
export const EPIC_DESCRIPTION_MAX = 1_048_576;

const epicAuthor = userBasic.pick({ id: true, username: true, name: true, state: true, avatar_url: true, web_url: true });

export const epicLabelDetails = z.object({
  id: z.number().int(),
  name: z.string(),
  color: z.string(),
  description: z.string().nullable(),
  text_color: z.string(),
});

export const epic = z.object({
  id: z.number().int(),
  work_item_id: z.number().int(),
  iid: z.number().int(),
  group_id: z.number().int(),
  parent_id: z.number().int().nullable(),
  parent_iid: z.number().int().nullable(),
  title: z.string(),
  description: z.string().nullable(),
  state: z.enum(['opened', 'closed']),
  confidential: z.boolean(),
  web_url: z.string(),
  /** Deprecated: use references. */
  reference: z.string(),
  references: z.object({ short: z.string(), relative: z.string(), full: z.string() }),
  author: epicAuthor.nullable(),
  start_date: z.string().nullable(),
  /** Deprecated: use due_date. */
  end_date: z.string().nullable(),
  due_date: z.string().nullable(),
  start_date_is_fixed: z.boolean(),
  due_date_is_fixed: z.boolean(),
  start_date_fixed: z.string().nullable(),
  due_date_fixed: z.string().nullable(),
  // Dates derived from milestones: shown to those who may edit the epic.
  start_date_from_milestones: z.string().nullable().optional(),
  due_date_from_milestones: z.string().nullable().optional(),
  start_date_from_inherited_source: z.string().nullable().optional(),
  due_date_from_inherited_source: z.string().nullable().optional(),
  created_at: z.string(),
  updated_at: z.string(),
  closed_at: z.string().nullable(),
  imported: z.boolean(),
  imported_from: z.string(),
  labels: z.union([z.array(z.string()), z.array(epicLabelDetails)]),
  upvotes: z.number().int(),
  downvotes: z.number().int(),
  color: z.string().optional(),
  text_color: z.string().optional(),
  /** A single epic only. */
  subscribed: z.boolean().optional(),
  _links: z.object({ self: z.string(), epic_issues: z.string(), group: z.string(), parent: z.string().nullable() }),
});
export type Epic = z.infer<typeof epic>;

const datetimeFilter = () => datetimeParam().optional();

export const epicListQuery = paginationQuery.extend({
  author_id: intParam().optional(),
  author_username: z.string().max(255).optional(),
  labels: stringListParam().optional(),
  with_labels_details: boolParam().optional(),
  order_by: z.enum(['created_at', 'updated_at', 'title']).optional(),
  sort: z.enum(['asc', 'desc']).optional(),
  search: z.string().max(255).optional(),
  state: z.enum(['opened', 'closed', 'all']).optional(),
  created_after: datetimeFilter(),
  created_before: datetimeFilter(),
  updated_after: datetimeFilter(),
  updated_before: datetimeFilter(),
  include_ancestor_groups: boolParam().optional(),
  include_descendant_groups: boolParam().optional(),
  /** The caller's own reaction: `None` (none at all), `Any` (at least one), or an emoji's name. */
  my_reaction_emoji: z.string().min(1).max(255).optional(),
  not: z
    .object({
      author_id: intParam().optional(),
      author_username: z.string().max(255).optional(),
      labels: stringListParam().optional(),
    })
    .optional(),
});
export type EpicListQuery = z.infer<typeof epicListQuery>;

export const epicGetQuery = z.object({ with_labels_details: boolParam().optional() });

const epicFields = {
  description: z.string().max(EPIC_DESCRIPTION_MAX).nullable().optional(),
  labels: stringListParam().optional(),
  color: z.string().regex(/^#[0-9a-fA-F]{3}([0-9a-fA-F]{3})?$/, 'must be a valid color code').optional(),
  confidential: boolParam().optional(),
  start_date_is_fixed: boolParam().optional(),
  due_date_is_fixed: boolParam().optional(),
  start_date_fixed: dateParam().nullable().optional(),
  due_date_fixed: dateParam().nullable().optional(),
  parent_id: intParam().nullable().optional(),
};

export const epicCreateBody = z.object({
  title: z.string().trim().min(1).max(255),
  ...epicFields,
  /** Administrators and group owners only; ignored for anyone else. */
  created_at: datetimeParam().optional(),
});
export type EpicCreateBody = z.infer<typeof epicCreateBody>;

export const epicUpdateBody = z.object({
  title: z.string().trim().min(1).max(255).optional(),
  ...epicFields,
  add_labels: stringListParam().optional(),
  remove_labels: stringListParam().optional(),
  state_event: z.enum(['close', 'reopen']).optional(),
  updated_at: datetimeParam().optional(),
});
export type EpicUpdateBody = z.infer<typeof epicUpdateBody>;

/** A close or reopen of an issue, merge request or epic (spec: Resource state events). */
export const resourceStateEvent = z.object({
  id: z.number().int(),
  user: epicAuthor.nullable(),
  created_at: z.string(),
  resource_type: z.enum(['Issue', 'MergeRequest', 'Epic']),
  resource_id: z.number().int(),
  state: z.enum(['opened', 'closed', 'merged', 'locked']),
});
export type ResourceStateEvent = z.infer<typeof resourceStateEvent>;
