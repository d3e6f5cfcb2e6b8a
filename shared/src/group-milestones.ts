import { z } from './errors.ts';
import { boolParam, dateParam, datetimeParam, intListParam, paginationQuery } from './params.ts';

export const MILESTONE_STATES = ['active', 'closed'] as const;

/** The platform's group milestone. */
export const groupMilestone = z.object({
  id: z.number().int(),
  iid: z.number().int(),
  group_id: z.number().int(),
  title: z.string(),
  description: z.string().nullable(),
  state: z.enum(MILESTONE_STATES),
  created_at: z.string(),
  updated_at: z.string(),
  due_date: z.string().nullable(),
  start_date: z.string().nullable(),
  expired: z.boolean(),
  web_url: z.string(),
});
export type GroupMilestone = z.infer<typeof groupMilestone>;

/** The platform's project milestone: the same fields, with `project_id` where a group's has `group_id`. */
export const projectMilestone = groupMilestone.omit({ group_id: true }).extend({ project_id: z.number().int() });
export type ProjectMilestone = z.infer<typeof projectMilestone>;

/** A milestone of either owner, as a project's list with include_ancestors mixes them. */
export const milestone = z.union([projectMilestone, groupMilestone]);
export type Milestone = z.infer<typeof milestone>;

const nullableDate = () => z.union([dateParam(), z.literal('').transform(() => null), z.null()]);

/** Terms of `search_title`: separated by `+` or spaces (`%20`), all of them must match. */
export const searchTitleTerms = (v: string) => v.split(/[+ ]+/).filter(Boolean);

export const groupMilestoneListQuery = paginationQuery
  .extend({
    iids: intListParam().optional(),
    state: z.enum(MILESTONE_STATES).optional(),
    title: z.string().max(255).optional(),
    search: z.string().max(255).optional(),
    search_title: z.string().max(255).optional(),
    include_ancestors: boolParam().optional(),
    /** Deprecated in 16.7 for include_ancestors; means the same. */
    include_parent_milestones: boolParam().optional(),
    include_descendants: boolParam().optional(),
    updated_before: datetimeParam().optional(),
    updated_after: datetimeParam().optional(),
    containing_date: z.union([dateParam(), datetimeParam()]).optional(),
    start_date: z.union([dateParam(), datetimeParam()]).optional(),
    end_date: z.union([dateParam(), datetimeParam()]).optional(),
  })
  // The platform answers 400 when only one end of the range is given.
  .refine((q) => (q.start_date === undefined) === (q.end_date === undefined), {
    message: 'start_date and end_date must both be given, or neither',
    path: ['start_date'],
  });
export type GroupMilestoneListQuery = z.infer<typeof groupMilestoneListQuery>;

const milestoneFields = {
  title: z.string().trim().min(1).max(255),
  description: z.string().max(1_048_576).nullable().optional(),
  due_date: nullableDate().optional(),
  start_date: nullableDate().optional(),
};
const datesInOrder = (b: { start_date?: string | null; due_date?: string | null }) => !b.start_date || !b.due_date || b.start_date <= b.due_date;
const datesMessage = { message: 'must be greater than start date', path: ['due_date'] };

export const groupMilestoneCreateBody = z.object(milestoneFields).refine(datesInOrder, datesMessage);
export type GroupMilestoneCreateBody = z.input<typeof groupMilestoneCreateBody>;

export const groupMilestoneUpdateBody = z
  .object({ ...milestoneFields, title: milestoneFields.title.optional(), state_event: z.enum(['close', 'activate']).optional() })
  .refine(datesInOrder, datesMessage);
export type GroupMilestoneUpdateBody = z.input<typeof groupMilestoneUpdateBody>;

/** Due-date status the console warns about, as the platform's milestone list labels it. */
export function dueStatus(m: Pick<GroupMilestone, 'state' | 'due_date' | 'start_date'>, today: string): 'past_due' | 'upcoming' | 'due_soon' | null {
  if (m.state === 'closed') return null;
  if (m.due_date && m.due_date < today) return 'past_due';
  if (m.start_date && m.start_date > today) return 'upcoming';
  if (m.due_date) {
    const days = (Date.parse(m.due_date) - Date.parse(today)) / 86_400_000;
    if (days <= 7) return 'due_soon';
  }
  return null;
}
