import { z } from './errors.ts';
import { userBasic } from './users.ts';
import { boolParam, dateParam, datetimeParam, intListParam, intParam, paginationQuery, stringListParam } from './params.ts';

/**
 * A person as work items show them (author, assignees, reviewers, closed_by): the platform's
 * user summary, whose avatar_url is always a URL (a Gravatar identicon when none was uploaded).
 */
export const workItemUser = userBasic.omit({ locked: true }).extend({ avatar_url: z.string() });

/** A milestone as issues and merge requests embed it (the platform's Milestone entity). */
export const milestoneBrief = z.object({
  id: z.number().int(),
  iid: z.number().int(),
  project_id: z.number().int().nullable().optional(),
  group_id: z.number().int().nullable().optional(),
  title: z.string(),
  description: z.string().nullable(),
  state: z.enum(['active', 'closed']),
  created_at: z.string(),
  updated_at: z.string(),
  due_date: z.string().nullable(),
  start_date: z.string().nullable(),
  expired: z.boolean(),
  web_url: z.string(),
});

export const references = z.object({ short: z.string(), relative: z.string(), full: z.string() });

export const timeStats = z.object({
  time_estimate: z.number().int(),
  total_time_spent: z.number().int(),
  human_time_estimate: z.string().nullable(),
  human_total_time_spent: z.string().nullable(),
});

/** One issue (GET/POST/PUT /projects/:id/issues[/:issue_iid], items of the lists). */
export const issue = z.object({
  id: z.number().int(),
  iid: z.number().int(),
  project_id: z.number().int(),
  title: z.string(),
  description: z.string().nullable(),
  state: z.enum(['opened', 'closed']),
  created_at: z.string(),
  updated_at: z.string(),
  closed_at: z.string().nullable(),
  closed_by: workItemUser.nullable(),
  labels: z.array(z.string()),
  milestone: milestoneBrief.nullable(),
  assignees: z.array(workItemUser),
  author: workItemUser,
  type: z.string(),
  assignee: workItemUser.nullable(),
  user_notes_count: z.number().int(),
  merge_requests_count: z.number().int(),
  upvotes: z.number().int(),
  downvotes: z.number().int(),
  due_date: z.string().nullable(),
  confidential: z.boolean(),
  discussion_locked: z.boolean().nullable(),
  issue_type: z.string(),
  web_url: z.string(),
  time_stats: timeStats,
  task_completion_status: z.object({ count: z.number().int(), completed_count: z.number().int() }),
  weight: z.number().int().nullable(),
  blocking_issues_count: z.number().int(),
  has_tasks: z.boolean(),
  task_status: z.string(),
  _links: z.object({ self: z.string(), notes: z.string(), award_emoji: z.string(), project: z.string(), closed_as_duplicate_of: z.string().nullable() }),
  references,
  severity: z.enum(['UNKNOWN', 'LOW', 'MEDIUM', 'HIGH', 'CRITICAL']),
  moved_to_id: z.number().int().nullable(),
  service_desk_reply_to: z.string().nullable(),
  epic_iid: z.number().int().nullable(),
  epic: z.object({ id: z.number().int(), iid: z.number().int(), title: z.string(), url: z.string(), group_id: z.number().int() }).nullable(),
  iteration: z.object({ id: z.number().int(), iid: z.number().int(), title: z.string().nullable(), group_id: z.number().int(), state: z.number().int(), start_date: z.string(), due_date: z.string(), web_url: z.string() }).passthrough().nullable(),
  health_status: z.string().nullable(),
  subscribed: z.boolean().optional(),
});
export type Issue = z.infer<typeof issue>;

/** Labels by name: an array, repeated fields or a comma-separated string; blanks dropped. */
export const labelNames = () => stringListParam().transform((names) => [...new Set(names.map((n) => n.trim()).filter((n) => n !== ''))]);

const userIds = () => intListParam().pipe(z.array(z.number().int().min(0)).max(100));
const nullableId = () => z.union([z.null(), z.literal(''), intParam().pipe(z.number().int().min(0))]).transform((v) => (v === '' || v === 0 ? null : v));

const issueFields = {
  description: z.string().max(1_048_576).nullish(),
  confidential: boolParam().optional(),
  assignee_ids: userIds().optional(),
  assignee_id: nullableId().optional(),
  milestone_id: nullableId().optional(),
  labels: labelNames().optional(),
  due_date: z.union([dateParam(), z.literal(''), z.null()]).transform((v) => (v === '' ? null : v)).optional(),
  weight: z.union([z.null(), z.literal(''), intParam().pipe(z.number().int().min(0))]).transform((v) => (v === '' ? null : v)).optional(),
  discussion_locked: boolParam().optional(),
  issue_type: z.enum(['issue', 'incident', 'test_case', 'task']).optional(),
  epic_id: nullableId().optional(),
  /** Ours (the platform sets it over GraphQL or with the /iteration quick action): an iteration of the project's group or its ancestors; null or 0 takes it out. */
  iteration_id: nullableId().optional(),
};

export const issueCreateBody = z.object({
  title: z.string().trim().min(1).max(255),
  iid: intParam().pipe(z.number().int().min(1)).optional(),
  created_at: datetimeParam().optional(),
  ...issueFields,
});
export type IssueCreateBody = z.infer<typeof issueCreateBody>;

export const issueUpdateBody = z.object({
  title: z.string().trim().min(1).max(255).optional(),
  state_event: z.enum(['close', 'reopen']).optional(),
  add_labels: labelNames().optional(),
  remove_labels: labelNames().optional(),
  updated_at: datetimeParam().optional(),
  ...issueFields,
});
export type IssueUpdateBody = z.infer<typeof issueUpdateBody>;

export const ORDER_BY = ['created_at', 'updated_at', 'priority', 'due_date', 'relative_position', 'label_priority', 'milestone_due', 'popularity', 'weight', 'title'] as const;

/** Filters shared by the lists of issues and of merge requests. */
export const workItemFilters = {
  state: z.enum(['opened', 'closed', 'all']).optional(),
  labels: labelNames().optional(),
  milestone: z.string().max(255).optional(),
  milestone_id: z.string().max(255).optional(),
  author_id: intParam().optional(),
  author_username: z.string().max(255).optional(),
  assignee_id: z.union([z.enum(['None', 'Any', 'none', 'any']), intParam()]).optional(),
  assignee_username: stringListParam().optional(),
  search: z.string().max(255).optional(),
  in: z.string().max(50).optional(),
  iids: intListParam().optional(),
  created_after: datetimeParam().optional(),
  created_before: datetimeParam().optional(),
  updated_after: datetimeParam().optional(),
  updated_before: datetimeParam().optional(),
  scope: z.enum(['created_by_me', 'assigned_to_me', 'all', 'created-by-me', 'assigned-to-me']).optional(),
  sort: z.enum(['asc', 'desc']).optional(),
  with_labels_details: boolParam().optional(),
};

export const issueListQuery = paginationQuery.extend({
  ...workItemFilters,
  confidential: boolParam().optional(),
  weight: z.union([z.enum(['None', 'Any']), intParam()]).optional(),
  due_date: z.enum(['0', 'any', 'today', 'tomorrow', 'overdue', 'week', 'month', 'next_month_and_previous_two_weeks']).optional(),
  issue_type: z.enum(['issue', 'incident', 'test_case', 'task']).optional(),
  iteration_id: z.union([z.enum(['None', 'Any', 'Current', 'none', 'any', 'current']), intParam()]).optional(),
  iteration_title: z.string().max(255).optional(),
  order_by: z.enum(ORDER_BY).optional(),
  non_archived: boolParam().optional(),
});
export type IssueListQuery = z.infer<typeof issueListQuery>;
