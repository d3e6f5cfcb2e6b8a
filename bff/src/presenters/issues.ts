import type { Issue } from '../../../shared/src/issues.ts';
import type { IssueView } from '../services/planning/issues.ts';
import { bool, boolOrNull } from '../util/rows.ts';
import { presentWorkItemUser, milestoneOwnerPath, NO_TIME_STATS, presentMilestoneBrief, projectWebUrl, references, taskCompletion, type WorkItemUrls } from './work-items.ts';
import type { UserRow } from '../db/schema.ts';
import { presentIteration } from './project-iterations.ts';

export function presentIssue(v: IssueView, u: WorkItemUrls): Issue {
  const i = v.issue;
  const user = (x: UserRow | null) => presentWorkItemUser(x, u.baseUrl);
  const api = `${u.baseUrl}/api/v4/projects/${i.project_id}`;
  const tasks = taskCompletion(i.description);
  return {
    id: i.id,
    iid: i.iid,
    project_id: i.project_id,
    title: i.title,
    description: i.description,
    state: i.state,
    created_at: i.created_at,
    updated_at: i.updated_at,
    closed_at: i.closed_at,
    closed_by: v.closedBy ? user(v.closedBy) : null,
    labels: v.labels.map((l) => l.title),
    milestone: v.milestone ? presentMilestoneBrief(v.milestone, { baseUrl: u.baseUrl, ownerPath: milestoneOwnerPath(v.milestone, u) }) : null,
    assignees: v.assignees.map(user),
    author: user(v.author),
    type: i.issue_type.toUpperCase(),
    assignee: v.assignees[0] ? user(v.assignees[0]) : null,
    user_notes_count: v.userNotesCount,
    merge_requests_count: 0,
    upvotes: v.votes.upvotes,
    downvotes: v.votes.downvotes,
    due_date: i.due_date,
    confidential: bool(i.confidential),
    discussion_locked: boolOrNull(i.discussion_locked),
    issue_type: i.issue_type,
    web_url: `${projectWebUrl(u)}/-/issues/${i.iid}`,
    time_stats: NO_TIME_STATS,
    task_completion_status: tasks,
    weight: i.weight,
    blocking_issues_count: 0,
    has_tasks: tasks.count > 0,
    task_status: `${tasks.completed_count} of ${tasks.count} checklist items completed`,
    _links: { self: `${api}/issues/${i.iid}`, notes: `${api}/issues/${i.iid}/notes`, award_emoji: `${api}/issues/${i.iid}/award_emoji`, project: api, closed_as_duplicate_of: null },
    references: references('#', i.iid, u),
    severity: 'UNKNOWN',
    moved_to_id: null,
    service_desk_reply_to: null,
    epic_iid: null,
    epic: null,
    iteration: v.iteration ? presentIteration(v.iteration, u) : null,
    health_status: null,
  };
}
