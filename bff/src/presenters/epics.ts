import type { Epic, ResourceStateEvent } from '../../../shared/src/epics.ts';
import type { GroupRow, ResourceStateEventRow, UserRow } from '../db/schema.ts';
import type { EpicDetails } from '../services/planning/epics.ts';
import { bool } from '../util/rows.ts';
import { groupWebUrl } from './groups.ts';
import { presentUserBrief } from './events.ts';

export interface EpicView {
  baseUrl: string;
  /** The group the epic is asked from: references.relative is relative to it. */
  from: GroupRow;
  /** Those who may edit the epic also see the dates derived from milestones. */
  canEdit: boolean;
  /** A single epic shows `subscribed`. */
  single?: boolean;
  /** with_labels_details: labels as objects rather than titles. */
  labelDetails?: boolean;
}

/** White or black text, whichever reads better on the epic's color. */
function textColor(color: string): string {
  const hex = color.length === 4 ? color.replace(/^#(.)(.)(.)$/, '#$1$1$2$2$3$3') : color;
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return r * 0.299 + g * 0.587 + b * 0.114 > 186 ? '#333333' : '#FFFFFF';
}

export function presentEpic({ epic, group, author, parent, labels }: EpicDetails, view: EpicView): Epic {
  const short = `&${epic.iid}`;
  const full = `${group.full_path}${short}`;
  const api = `${view.baseUrl}/api/v4/groups/${group.id}`;
  const startDate = bool(epic.start_date_is_fixed) ? epic.start_date_fixed : null;
  const dueDate = bool(epic.due_date_is_fixed) ? epic.due_date_fixed : null;
  return {
    id: epic.id,
    work_item_id: epic.id,
    iid: epic.iid,
    group_id: epic.group_id,
    parent_id: epic.parent_id,
    parent_iid: parent?.iid ?? null,
    title: epic.title,
    description: epic.description,
    state: epic.state === 'closed' ? 'closed' : 'opened',
    confidential: bool(epic.confidential),
    web_url: `${groupWebUrl(view.baseUrl, group)}/-/epics/${epic.iid}`,
    reference: view.from.id === group.id ? short : full,
    references: { short, relative: view.from.id === group.id ? short : full, full },
    author: presentUserBrief(author, view.baseUrl),
    start_date: startDate,
    end_date: dueDate,
    due_date: dueDate,
    start_date_is_fixed: bool(epic.start_date_is_fixed),
    due_date_is_fixed: bool(epic.due_date_is_fixed),
    start_date_fixed: epic.start_date_fixed,
    due_date_fixed: epic.due_date_fixed,
    // No epic issues carry milestones here, so nothing is inherited.
    ...(view.canEdit ? { start_date_from_milestones: null, due_date_from_milestones: null, start_date_from_inherited_source: null, due_date_from_inherited_source: null, color: epic.color, text_color: textColor(epic.color) } : {}),
    created_at: epic.created_at,
    updated_at: epic.updated_at,
    closed_at: epic.closed_at,
    imported: false,
    imported_from: 'none',
    labels: view.labelDetails
      ? labels.map((l) => ({ id: l.id, name: l.title, color: l.color, description: l.description, text_color: textColor(l.color) }))
      : labels.map((l) => l.title),
    upvotes: 0,
    downvotes: 0,
    ...(view.single ? { subscribed: false } : {}),
    _links: { self: `${api}/epics/${epic.iid}`, epic_issues: `${api}/epics/${epic.iid}/issues`, group: api, parent: parent ? `${view.baseUrl}/api/v4/groups/${parent.group_id}/epics/${parent.iid}` : null },
  };
}

/** A state event as the platform shows it: a reopening reads as the state it led to, opened. */
export function presentStateEvent(e: ResourceStateEventRow, user: UserRow | null, baseUrl: string): ResourceStateEvent {
  const [resource_type, resource_id] = e.issue_id !== null ? (['Issue', e.issue_id] as const) : e.merge_request_id !== null ? (['MergeRequest', e.merge_request_id] as const) : (['Epic', e.epic_id ?? 0] as const);
  return {
    id: e.id,
    user: presentUserBrief(user, baseUrl),
    created_at: e.created_at,
    resource_type,
    resource_id,
    state: e.state === 'reopened' ? 'opened' : e.state,
  };
}
