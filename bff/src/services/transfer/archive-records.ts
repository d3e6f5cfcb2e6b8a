import type { Selectable } from 'kysely';
import type { BadgesTable, BoardListsTable, BoardsTable, EpicRow, GroupRow, LabelRow, MemberRow, MilestoneRow, UserRow } from '../../db/schema.ts';
import { PROJECT_CREATION_LEVELS, SUBGROUP_CREATION_LEVELS, VISIBILITY_LEVELS } from './levels.ts';

/**
 * The records of a group archive in the platform's format (tree/groups/<id>.json and the
 * ndjson files beside it): one builder per record, naming every field the platform writes,
 * as the presenters do for the API's JSON. The exporter (group-export.ts) reads the rows and
 * writes what these build; they live in the transfer room because a service may not import
 * the presenters' room above it.
 */

const bool = (v: number | null) => (v === null ? null : v === 1);

/** tree/groups/<id>.json: the group's own attributes (owner_id, runners_token and the timestamps left out); the exported group has no parent. */
export function archiveGroup(g: GroupRow, top: boolean) {
  return {
    id: g.id,
    name: g.name,
    path: g.path,
    description: g.description,
    visibility_level: VISIBILITY_LEVELS[g.visibility] ?? 0,
    parent_id: top ? null : g.parent_id,
    request_access_enabled: bool(g.request_access_enabled),
    share_with_group_lock: bool(g.share_with_group_lock),
    membership_lock: bool(g.membership_lock),
    require_two_factor_authentication: bool(g.require_two_factor_authentication),
    two_factor_grace_period: g.two_factor_grace_period,
    project_creation_level: PROJECT_CREATION_LEVELS[g.project_creation_level] ?? 1,
    subgroup_creation_level: SUBGROUP_CREATION_LEVELS[g.subgroup_creation_level] ?? 1,
    emails_enabled: bool(g.emails_enabled),
    lfs_enabled: bool(g.lfs_enabled),
    auto_devops_enabled: bool(g.auto_devops_enabled),
    mentions_disabled: bool(g.mentions_disabled),
  };
}

/** labels.ndjson */
export function archiveLabel(l: LabelRow, groupId: number) {
  return { id: l.id, title: l.title, color: l.color, project_id: null, created_at: l.created_at, updated_at: l.updated_at, template: false, description: l.description, group_id: groupId, type: 'GroupLabel', priorities: [] };
}

/** milestones.ndjson */
export function archiveMilestone(m: MilestoneRow, groupId: number) {
  return { id: m.id, title: m.title, project_id: null, description: m.description, due_date: m.due_date, created_at: m.created_at, updated_at: m.updated_at, state: m.state, iid: m.iid, start_date: m.start_date, group_id: groupId };
}

/** An epic with what its parent epic's record names (all null without a parent). */
export type ArchiveEpicRow = EpicRow & { parent_iid: number | null; parent_group_id: number | null; parent_title: string | null; parent_state: string | null };

/** epics.ndjson: the parent named by its own record (id, iid, group, title, state) when there is one. */
export function archiveEpic(e: ArchiveEpicRow, groupId: number) {
  return {
    id: e.id,
    iid: e.iid,
    group_id: groupId,
    author_id: e.author_id,
    title: e.title,
    description: e.description,
    state: e.state,
    confidential: e.confidential === 1,
    color: e.color,
    start_date_fixed: e.start_date_fixed,
    start_date_is_fixed: e.start_date_is_fixed === 1,
    due_date_fixed: e.due_date_fixed,
    due_date_is_fixed: e.due_date_is_fixed === 1,
    closed_at: e.closed_at,
    closed_by_id: e.closed_by_id,
    parent_id: e.parent_id,
    created_at: e.created_at,
    updated_at: e.updated_at,
    ...(e.parent_id !== null ? { parent: { id: e.parent_id, iid: e.parent_iid, group_id: e.parent_group_id, title: e.parent_title, state: e.parent_state } } : {}),
  };
}

/** A board's list with the label it shows (all null for the open and closed lists). */
export type ArchiveBoardListRow = Pick<Selectable<BoardListsTable>, 'id' | 'list_type' | 'position' | 'label_id' | 'created_at' | 'updated_at'> & {
  title: string | null;
  color: string | null;
  description: string | null;
  group_id: number | null;
};

/** boards.ndjson: a board with its lists, each list's label in full. */
export function archiveBoard(b: Selectable<BoardsTable>, lists: ArchiveBoardListRow[], groupId: number) {
  return {
    id: b.id,
    project_id: null,
    created_at: b.created_at,
    updated_at: b.updated_at,
    name: b.name,
    milestone_id: null,
    group_id: groupId,
    weight: null,
    hide_backlog_list: b.hide_backlog_list === 1,
    hide_closed_list: b.hide_closed_list === 1,
    lists: lists.map((l) => ({
      id: l.id,
      board_id: b.id,
      label_id: l.label_id,
      list_type: l.list_type,
      position: l.position,
      created_at: l.created_at,
      updated_at: l.updated_at,
      ...(l.label_id !== null ? { label: { id: l.label_id, title: l.title, color: l.color, description: l.description, group_id: l.group_id, project_id: null, type: 'GroupLabel', priorities: [] } } : {}),
    })),
    labels: [],
  };
}

/** badges.ndjson */
export function archiveBadge(b: Selectable<BadgesTable>, groupId: number) {
  return { id: b.id, name: b.name, link_url: b.link_url, image_url: b.image_url, project_id: null, group_id: groupId, created_at: b.created_at, updated_at: b.updated_at, type: 'GroupBadge' };
}

/** A membership with the username and public email of its user. */
export type ArchiveMemberRow = Pick<MemberRow, 'id' | 'access_level' | 'user_id' | 'expires_at' | 'created_by_id' | 'created_at' | 'updated_at'> & Pick<UserRow, 'username' | 'public_email'>;

/** members.ndjson: the user by id, username and public email, by which an import finds them again (or makes a placeholder). */
export function archiveMember(m: ArchiveMemberRow, groupId: number) {
  return {
    id: m.id,
    access_level: m.access_level,
    source_id: groupId,
    source_type: 'Namespace',
    user_id: m.user_id,
    notification_level: 3,
    created_at: m.created_at,
    updated_at: m.updated_at,
    created_by_id: m.created_by_id,
    expires_at: m.expires_at,
    user: { id: m.user_id, public_email: m.public_email || null, username: m.username },
  };
}

/** user_contributions.ndjson: a user who wrote or closed an epic of the group. */
export function archiveContributor(u: Pick<UserRow, 'id' | 'username' | 'name' | 'public_email'>) {
  return { id: u.id, username: u.username, name: u.name, public_email: u.public_email || null };
}
