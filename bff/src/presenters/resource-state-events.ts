import type { Db } from '../db/index.ts';
import type { ResourceStateEventRow } from '../db/schema.ts';
import type { ResourceStateEvent } from '../../../shared/src/resource-state-events.ts';
import { usersById } from '../services/work-items.ts';
import { presentWorkItemUser } from './work-items.ts';

/**
 * State events as the API shows them; a reopening shows as the state it led to (`opened`), as
 * the platform's entity does. The epics API reuses this with its own rows.
 */
export async function presentResourceStateEvents(db: Db, rows: ResourceStateEventRow[], baseUrl: string): Promise<ResourceStateEvent[]> {
  const users = await usersById(db, rows.map((r) => r.user_id));
  return rows.map((r) => ({
    id: r.id,
    user: r.user_id === null ? null : presentWorkItemUser(users.get(r.user_id) ?? null, baseUrl),
    created_at: r.created_at,
    resource_type: r.issue_id !== null ? 'Issue' : r.merge_request_id !== null ? 'MergeRequest' : 'Epic',
    resource_id: r.issue_id ?? r.merge_request_id ?? r.epic_id ?? 0,
    state: r.state === 'reopened' ? 'opened' : r.state,
  }));
}
