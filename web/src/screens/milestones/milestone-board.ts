/** What the milestone page reads of an issue or a merge request. */
export interface BoardItem {
  id: number;
  iid: number;
  title: string;
  state: string;
  web_url: string;
  assignees: unknown[];
  weight?: number | null;
  draft?: boolean;
  references?: { full: string };
}

/** The platform's issue columns: open without an assignee, open and assigned, closed. */
export const issueColumns = [
  { title: 'Unstarted', holds: (i: BoardItem) => i.state === 'opened' && i.assignees.length === 0 },
  { title: 'Ongoing', holds: (i: BoardItem) => i.state === 'opened' && i.assignees.length > 0 },
  { title: 'Completed', holds: (i: BoardItem) => i.state === 'closed' },
];

/** The platform's merge request columns. */
export const mergeRequestColumns = [
  { title: 'Work in progress', holds: (m: BoardItem) => m.state === 'opened' && m.draft === true },
  { title: 'Waiting for merge', holds: (m: BoardItem) => (m.state === 'opened' && m.draft !== true) || m.state === 'locked' },
  { title: 'Rejected', holds: (m: BoardItem) => m.state === 'closed' },
  { title: 'Merged', holds: (m: BoardItem) => m.state === 'merged' },
];

/** Closed of all issues, by count and by weight (an issue without weight weighs nothing). */
export function progressOf(issues: BoardItem[]) {
  const closed = issues.filter((i) => i.state === 'closed');
  const weigh = (list: BoardItem[]) => list.reduce((sum, i) => sum + (i.weight ?? 0), 0);
  return { count: issues.length, closedCount: closed.length, weight: weigh(issues), closedWeight: weigh(closed) };
}
