import { z } from './errors.ts';
import { boolParam, dateParam, datetimeParam, intParam, paginationQuery, stringListParam } from './params.ts';

/**
 * Iterations and their cadences. The platform stores an iteration's state as an integer:
 * 1 upcoming, 2 current, 3 closed (its `Iteration::STATE_ENUM_MAP`); here it follows from the
 * dates and today.
 */
export const ITERATION_STATES = { upcoming: 1, current: 2, closed: 3 } as const;
export type IterationStateName = keyof typeof ITERATION_STATES;

export function iterationStateOn(it: { start_date: string; due_date: string }, today: string): IterationStateName {
  if (it.start_date > today) return 'upcoming';
  if (it.due_date < today) return 'closed';
  return 'current';
}

export const projectIteration = z.object({
  id: z.number().int(),
  iid: z.number().int(),
  sequence: z.number().int(),
  group_id: z.number().int(),
  title: z.string().nullable(),
  description: z.string().nullable(),
  state: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
  start_date: z.string(),
  due_date: z.string(),
  web_url: z.string(),
});
export type ProjectIteration = z.infer<typeof projectIteration>;

export const ITERATION_LIST_STATES = ['opened', 'upcoming', 'current', 'closed', 'all'] as const;

export const projectIterationListQuery = paginationQuery.extend({
  state: z.enum(ITERATION_LIST_STATES).optional(),
  search: z.string().max(255).optional(),
  in: stringListParam().pipe(z.array(z.enum(['title', 'cadence_title'])).min(1)).optional(),
  include_ancestors: boolParam().optional(),
  include_descendants: boolParam().optional(),
  updated_before: datetimeParam().optional(),
  updated_after: datetimeParam().optional(),
});
export type ProjectIterationListQuery = z.infer<typeof projectIterationListQuery>;

/** Ours (the platform manages cadences over GraphQL only): a group's iteration cadence. */
export const iterationCadence = z.object({
  id: z.number().int(),
  group_id: z.number().int(),
  title: z.string(),
  description: z.string().nullable(),
  automatic: z.boolean(),
  start_date: z.string().nullable(),
  duration_in_weeks: z.number().int().nullable(),
  iterations_in_advance: z.number().int().nullable(),
  roll_over: z.boolean(),
  active: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type IterationCadence = z.infer<typeof iterationCadence>;

const cadenceFields = {
  title: z.string().trim().min(1).max(255),
  description: z.string().max(1_048_576).nullable().optional(),
  automatic: boolParam().optional(),
  start_date: dateParam().optional(),
  duration_in_weeks: intParam().pipe(z.number().int().min(1).max(4)).optional(),
  iterations_in_advance: intParam().pipe(z.number().int().min(1).max(10)).optional(),
  roll_over: boolParam().optional(),
  active: boolParam().optional(),
};
/** An automatic cadence needs its start, length and horizon, as on the platform. */
const automaticComplete = (b: { automatic?: boolean; start_date?: string; duration_in_weeks?: number; iterations_in_advance?: number }) =>
  b.automatic === false || (b.start_date !== undefined && b.duration_in_weeks !== undefined && b.iterations_in_advance !== undefined);

export const iterationCadenceCreateBody = z
  .object(cadenceFields)
  .refine(automaticComplete, { message: 'is required for an automatic cadence', path: ['start_date'] });
export type IterationCadenceCreateBody = z.input<typeof iterationCadenceCreateBody>;
export const iterationCadenceUpdateBody = z.object({ ...cadenceFields, title: cadenceFields.title.optional() });

export const iterationCadenceListQuery = paginationQuery;

/** A manual iteration of a cadence (ours): dates required, title optional. */
export const iterationCreateBody = z
  .object({
    title: z.string().trim().min(1).max(255).nullable().optional(),
    description: z.string().max(1_048_576).nullable().optional(),
    start_date: dateParam(),
    due_date: dateParam(),
  })
  .refine((b) => b.start_date <= b.due_date, { message: 'must be greater than start date', path: ['due_date'] });
export type IterationCreateBody = z.input<typeof iterationCreateBody>;

export const cadenceIterationListQuery = paginationQuery.extend({ state: z.enum(ITERATION_LIST_STATES).optional() });

/** What the console calls an iteration: its title, or (automatic ones have none) its number in the cadence. */
export const iterationDisplayName = (it: { title: string | null; sequence: number }) => it.title ?? `Iteration ${it.sequence}`;
