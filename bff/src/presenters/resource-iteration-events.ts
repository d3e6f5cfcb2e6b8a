import type { ResourceIterationEvent } from '../../../shared/src/resource-iteration-events.ts';
import type { IterationEventView } from '../services/planning/resource-iteration-events.ts';
import { presentWorkItemUser } from './work-items.ts';
import { presentIteration } from './project-iterations.ts';

/** An iteration event as the platform shows it: the issue, the iteration, and who (null for a roll-over). */
export function presentResourceIterationEvent({ event, user, iteration }: IterationEventView, baseUrl: string): ResourceIterationEvent {
  return {
    id: event.id,
    user: event.user_id === null ? null : presentWorkItemUser(user, baseUrl),
    created_at: event.created_at,
    resource_type: 'Issue',
    resource_id: event.issue_id,
    iteration: presentIteration(iteration, { baseUrl }),
    action: event.action,
  };
}
