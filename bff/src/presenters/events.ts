import type { ActivityEvent } from '../../../shared/src/events.ts';
import type { EventDetails } from '../services/events.ts';
import { json } from '../util/rows.ts';
import { presentUserBasic } from './users.ts';

/** An activity event as the platform shows it; push_data only for pushes. */
export function presentEvent({ event, author, target }: EventDetails, baseUrl: string): ActivityEvent {
  const a = author ? presentUserBasic(author, baseUrl) : null;
  return {
    id: event.id,
    project_id: event.project_id,
    action_name: event.action_name,
    target_id: event.target_id,
    target_iid: target?.iid ?? null,
    target_type: event.target_type,
    author_id: event.author_id,
    target_title: target?.title ?? null,
    title: null,
    created_at: event.created_at,
    author: a && { id: a.id, username: a.username, name: a.name, state: a.state, avatar_url: a.avatar_url, web_url: a.web_url },
    author_username: author?.username ?? null,
    imported: false,
    imported_from: 'none',
    ...(event.push_data ? { push_data: json(event.push_data, {} as NonNullable<ActivityEvent['push_data']>) } : {}),
  };
}
