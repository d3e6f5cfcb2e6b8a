import type { IterationCadence } from '../../../shared/src/iterations.ts';
import type { GroupRow, IterationCadenceRow, IterationRow } from '../db/schema.ts';
import { bool } from '../util/rows.ts';
import { presentIteration } from './project-iterations.ts';

export function presentCadence(c: IterationCadenceRow): IterationCadence {
  return {
    id: c.id,
    group_id: c.group_id,
    title: c.title,
    description: c.description,
    automatic: bool(c.automatic),
    start_date: c.start_date,
    duration_in_weeks: c.duration_in_weeks,
    iterations_in_advance: c.iterations_in_advance,
    roll_over: bool(c.roll_over),
    active: bool(c.active),
    created_at: c.created_at,
    updated_at: c.updated_at,
  };
}

/** An iteration of the group the route loaded. */
export const presentGroupIteration = (it: IterationRow, ctx: { baseUrl: string; group: GroupRow }) =>
  presentIteration({ ...it, group_full_path: ctx.group.full_path }, ctx);
