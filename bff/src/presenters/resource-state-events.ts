import type { ResourceStateEvent } from '../../../shared/src/resource-state-events.ts';
import type { StateEventView } from '../services/planning/resource-state-events.ts';
import { presentWorkItemUser } from './work-items.ts';

/**
 * A state event as the API shows it; a reopening shows as the state it led to (`opened`), as
 * the platform's entity does.
 */
export function presentResourceStateEvent({ event, user }: StateEventView, baseUrl: string): ResourceStateEvent {
  return {
    id: event.id,
    user: event.user_id === null ? null : presentWorkItemUser(user, baseUrl),
    created_at: event.created_at,
    resource_type: event.issue_id !== null ? 'Issue' : event.merge_request_id !== null ? 'MergeRequest' : 'Epic',
    resource_id: event.issue_id ?? event.merge_request_id ?? event.epic_id ?? 0,
    state: event.state === 'reopened' ? 'opened' : event.state,
  };
}
