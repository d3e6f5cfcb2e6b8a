import type { GroupRow, MilestoneRow, ProjectRow, UserRow } from '../../db/schema.ts';
import { projectObject } from '../webhooks/hook-payloads.ts';

export type MilestoneAction = 'create' | 'update' | 'close' | 'reopen' | 'delete';

/** The platform's milestone hook payload (object_kind "milestone"): with its `group` for a group milestone, its `project` for a project one. */
export function milestonePayload(e: { milestone: MilestoneRow; group: GroupRow; project?: ProjectRow; action: MilestoneAction; user: UserRow | null; baseUrl: string }) {
  const m = e.milestone;
  const owner = e.project
    ? { project: projectObject(e.baseUrl, e.project, e.group) }
    : { group: { group_id: e.group.id, group_name: e.group.name, group_path: e.group.path, full_path: e.group.full_path } };
  return {
    object_kind: 'milestone',
    event_type: 'milestone',
    user: e.user ? { id: e.user.id, name: e.user.name, username: e.user.username, avatar_url: null, email: '[REDACTED]' } : null,
    ...owner,
    object_attributes: {
      id: m.id,
      iid: m.iid,
      title: m.title,
      description: m.description,
      state: m.state,
      created_at: m.created_at,
      updated_at: m.updated_at,
      due_date: m.due_date,
      start_date: m.start_date,
      group_id: m.group_id,
      project_id: m.project_id,
      web_url: e.project ? `${e.baseUrl}/${e.project.path_with_namespace}/-/milestones/${m.iid}` : `${e.baseUrl}/groups/${e.group.full_path}/-/milestones/${m.iid}`,
    },
    action: e.action,
  };
}
