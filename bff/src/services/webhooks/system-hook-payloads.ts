import type { GroupRow, ProjectRow, UserRow } from '../../db/schema.ts';

/**
 * The platform's system events (its SystemHooksService), delivered to system hooks under the
 * "System Hook" header: what an administrator's integration (a directory sync, an audit trail)
 * learns of projects, groups and users as they come and go.
 */

export type SystemProjectEvent = 'project_create' | 'project_destroy' | 'project_transfer';
export type SystemGroupEvent = 'group_create' | 'group_destroy';
export type SystemUserEvent = 'user_create' | 'user_destroy';

export function systemProjectPayload(event: SystemProjectEvent, project: ProjectRow, namespace: GroupRow, extra: { old_path_with_namespace?: string; owners?: Pick<UserRow, 'name' | 'email'>[] } = {}) {
  const { owners = [], ...rest } = extra;
  return {
    created_at: project.created_at,
    updated_at: project.last_activity_at,
    event_name: event,
    name: project.name,
    // A group's project: the group is its owner, as the platform names it.
    owner_email: '',
    owner_name: namespace.name,
    owners: owners.map((o) => ({ name: o.name, email: o.email })),
    path: project.path,
    path_with_namespace: project.path_with_namespace,
    project_id: project.id,
    project_namespace_id: namespace.id,
    project_visibility: project.visibility,
    ...rest,
  };
}

export function systemGroupPayload(event: SystemGroupEvent, group: Pick<GroupRow, 'id' | 'name' | 'path' | 'full_path' | 'created_at' | 'updated_at'>) {
  return {
    created_at: group.created_at,
    updated_at: group.updated_at,
    event_name: event,
    name: group.name,
    owner_email: null,
    owner_name: null,
    path: group.path,
    full_path: group.full_path,
    group_id: group.id,
  };
}

export function systemUserPayload(event: SystemUserEvent, user: Pick<UserRow, 'id' | 'name' | 'username' | 'email' | 'created_at' | 'updated_at'>) {
  return {
    created_at: user.created_at,
    updated_at: user.updated_at,
    email: user.email,
    event_name: event,
    name: user.name,
    username: user.username,
    user_id: user.id,
  };
}

/** What POST /hooks/:hook_id sends: the platform's sample project_create event. */
export function sampleSystemPayload(): Record<string, unknown> {
  return { event_name: 'project_create', name: 'Ruby', path: 'ruby', project_id: 1, owner_name: 'Someone', owner_email: 'example@gitlabhq.com' };
}
