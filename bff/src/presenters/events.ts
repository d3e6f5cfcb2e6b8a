import type { ActivityEvent } from '../../../shared/src/events.ts';
import type { EventDetails } from '../services/planning/events.ts';
import type { UserRow } from '../db/schema.ts';
import { bool, json } from '../util/rows.ts';
import { presentUserBasic } from './users.ts';
import { presentWorkItemUser } from './work-items.ts';

/** An activity event as the platform shows it; push_data only for pushes. */
/** A user as events, epics and state events name them (null for a deleted one). */
export const presentUserBrief = (u: UserRow | null | undefined, baseUrl: string) => {
  if (!u) return null;
  const a = presentUserBasic(u, baseUrl);
  return { id: a.id, username: a.username, name: a.name, state: a.state, avatar_url: a.avatar_url, web_url: a.web_url };
};

/** A comment as an event shows it; `withIid` in project listings. */
function presentEventNote(note: NonNullable<NonNullable<EventDetails['target']>['note']>, author: UserRow | null | undefined, baseUrl: string, withIid: boolean): NonNullable<ActivityEvent['note']> {
  return {
    id: note.id,
    type: null,
    body: note.body,
    attachment: null,
    author: presentWorkItemUser(author ?? null, baseUrl),
    created_at: note.created_at,
    updated_at: note.updated_at,
    system: bool(note.system),
    noteable_id: note.noteable_id,
    noteable_type: note.noteable_type,
    ...(withIid ? { noteable_iid: note.noteable_iid } : {}),
    confidential: bool(note.internal),
    internal: bool(note.internal),
  };
}

export function presentEvent({ event, author, target, noteAuthor }: EventDetails, baseUrl: string, opts: { projectListing?: boolean } = {}): ActivityEvent {
  const a = presentUserBrief(author, baseUrl);
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
    author: a,
    author_username: author?.username ?? null,
    imported: false,
    imported_from: 'none',
    ...(target?.note ? { note: presentEventNote(target.note, noteAuthor, baseUrl, opts.projectListing ?? false) } : {}),
    ...(event.push_data ? { push_data: json(event.push_data, {} as NonNullable<ActivityEvent['push_data']>) } : {}),
  };
}
