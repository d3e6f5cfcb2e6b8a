import type { Db } from '../db/index.ts';
import type { ResourceIterationEventRow } from '../db/schema.ts';
import type { ResourceIterationEvent } from '../../../shared/src/resource-iteration-events.ts';
import { usersById } from '../services/work-items.ts';
import { iterationsById } from '../services/project-iterations.ts';
import { presentWorkItemUser } from './work-items.ts';
import { presentIteration } from './project-iterations.ts';

/** Iteration events with their users and iterations, read in two queries. */
export async function presentResourceIterationEvents(db: Db, rows: ResourceIterationEventRow[], baseUrl: string): Promise<ResourceIterationEvent[]> {
  const [users, iterations] = await Promise.all([usersById(db, rows.map((r) => r.user_id)), iterationsById(db, rows.map((r) => r.iteration_id))]);
  return rows.map((r) => ({
    id: r.id,
    user: r.user_id === null ? null : presentWorkItemUser(users.get(r.user_id) ?? null, baseUrl),
    created_at: r.created_at,
    resource_type: 'Issue',
    resource_id: r.issue_id,
    // The event goes with its iteration (foreign key, on delete cascade): it is always there.
    iteration: presentIteration(iterations.get(r.iteration_id)!, { baseUrl }),
    action: r.action,
  }));
}
