import crypto from 'node:crypto';
import type { GroupRow, MilestoneRow, ProjectRow, UserRow } from '../db/schema.ts';
import { userWebUrl } from './users.ts';
import { today } from '../util/time.ts';

/** Where a work item's presenter puts its links. */
export interface WorkItemUrls {
  baseUrl: string;
  project: ProjectRow;
  group: GroupRow;
}

export const projectWebUrl = (u: WorkItemUrls) => `${u.baseUrl}/${u.project.path_with_namespace}`;

/** A milestone as issues and merge requests embed it (the platform's Milestone entity); h-plan's API may reuse it. */
export function presentMilestoneBrief(m: MilestoneRow, u: { baseUrl: string; ownerPath: string }) {
  return {
    id: m.id,
    iid: m.iid,
    ...(m.project_id !== null ? { project_id: m.project_id } : { group_id: m.group_id }),
    title: m.title,
    description: m.description,
    state: m.state,
    created_at: m.created_at,
    updated_at: m.updated_at,
    due_date: m.due_date,
    start_date: m.start_date,
    expired: m.due_date !== null && m.due_date < today(),
    web_url: `${u.baseUrl}/${m.project_id !== null ? '' : 'groups/'}${u.ownerPath}/-/milestones/${m.iid}`,
  };
}

/** The path of the milestone's owner: the item's project, or the ancestor group (by traversal, read from the full path). */
export function milestoneOwnerPath(m: MilestoneRow, u: WorkItemUrls): string {
  if (m.project_id !== null) return u.project.path_with_namespace;
  const ids = u.group.traversal.split('/').filter(Boolean).map(Number);
  const parts = u.group.full_path.split('/');
  const at = ids.indexOf(m.group_id ?? -1);
  return at < 0 ? u.group.full_path : parts.slice(0, at + 1 + parts.length - ids.length).join('/');
}

/** `#12`, `group/project#12`: the platform's references of an issue (`#`) or merge request (`!`). */
export function references(sigil: '#' | '!', iid: number, u: WorkItemUrls) {
  return { short: `${sigil}${iid}`, relative: `${sigil}${iid}`, full: `${u.project.path_with_namespace}${sigil}${iid}` };
}

export const NO_TIME_STATS = { time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null };

/** Markdown task lists in a description: `- [ ]` and `- [x]` items. */
export function taskCompletion(description: string | null) {
  const items = description?.match(/^\s*[-*+]\s+\[[ xX]\]/gm) ?? [];
  return { count: items.length, completed_count: items.filter((i) => /\[[xX]\]/.test(i)).length };
}

/** A person as work items show them (shared `workItemUser`); a deleted one as the platform's ghost. */
export function presentWorkItemUser(u: UserRow | null, baseUrl: string) {
  const x = u ?? GHOST;
  const digest = crypto.createHash('md5').update(x.email.trim().toLowerCase()).digest('hex');
  return { id: x.id, username: x.username, name: x.name, state: x.state as 'active', avatar_url: `https://www.gravatar.com/avatar/${digest}?s=80&d=identicon`, web_url: userWebUrl(baseUrl, x) };
}

const GHOST = { id: 0, username: 'ghost', name: 'Ghost User', state: 'active', email: 'ghost@example.com' } as UserRow;
