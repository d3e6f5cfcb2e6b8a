import type { ORDER_BY } from '../../../../shared/src/issues.ts';
import type { IssuesQuery } from '../../api/issues.ts';
import type { Sort } from '../../components/list-params-model.ts';

/*
 * How an issue list's URL reads as the platform's filters, without React: state, search,
 * labels, milestone, assignee, author and the order, in the platform's own names, so a link to
 * a filtered list reads as the platform's does (`?state=closed&labels=bug,ux&sort=updated_desc`).
 */

/** The orders a list offers: `sort=<key>_<dir>` in the URL, `order_by` and `sort` to the API. */
export const ISSUE_SORTS = {
  created: { label: 'Created', orderBy: 'created_at' },
  updated: { label: 'Updated', orderBy: 'updated_at' },
  due_date: { label: 'Due date', orderBy: 'due_date' },
  milestone_due: { label: 'Milestone due date', orderBy: 'milestone_due' },
  title: { label: 'Title', orderBy: 'title' },
  weight: { label: 'Weight', orderBy: 'weight' },
  popularity: { label: 'Popularity', orderBy: 'popularity' },
} as const satisfies Record<string, { label: string; orderBy: (typeof ORDER_BY)[number] }>;

export type IssueSortKey = keyof typeof ISSUE_SORTS;
export const ISSUE_SORT_KEYS = Object.keys(ISSUE_SORTS) as IssueSortKey[];
/** The platform's default: the newest first. */
export const DEFAULT_ISSUE_SORT: Sort<IssueSortKey> = { key: 'created', dir: 'desc' };

export type IssueState = 'opened' | 'closed' | 'all';
export const ISSUE_STATES: { value: IssueState; label: string }[] = [
  { value: 'opened', label: 'Open' },
  { value: 'closed', label: 'Closed' },
  { value: 'all', label: 'All' },
];

/** The URL's state; absent or unknown is the open issues, as on the platform. */
export const issueStateOf = (v: string): IssueState => (v === 'closed' || v === 'all' ? v : 'opened');

/** `bug, ux,,bug` → `['bug', 'ux']`: label names from the URL's comma-separated list. */
export const labelsOf = (v: string): string[] => [...new Set(v.split(',').map((s) => s.trim()).filter(Boolean))];

/** The URL's value for a set of labels; none leaves the parameter out. */
export const labelsParam = (names: string[]): string | null => (names.length ? labelsOf(names.join(',')).join(',') : null);

export interface IssueFilters {
  state: IssueState;
  search: string;
  labels: string[];
  milestone: string;
  assignee: string;
  author: string;
}

/** The filters as the URL has them ('' for each one left out). */
export function readIssueFilters(get: (name: string) => string): IssueFilters {
  return {
    state: issueStateOf(get('state')),
    search: get('search'),
    labels: labelsOf(get('labels')),
    milestone: get('milestone'),
    assignee: get('assignee_username'),
    author: get('author_username'),
  };
}

/** Something narrows the list beyond its state: an empty list then says "no issue matches". */
export const isFiltered = (f: IssueFilters) => Boolean(f.search || f.labels.length || f.milestone || f.assignee || f.author);

/** The API query for the filters, the order and the page; filters left out are not sent. */
export function issuesQueryOf(f: IssueFilters, sort: Sort<IssueSortKey>, page: number, perPage?: number): IssuesQuery {
  return {
    state: f.state,
    ...(f.search && { search: f.search }),
    ...(f.labels.length && { labels: f.labels }),
    ...(f.milestone && { milestone: f.milestone }),
    ...(f.assignee && { assignee_username: [f.assignee] }),
    ...(f.author && { author_username: f.author }),
    order_by: ISSUE_SORTS[sort.key].orderBy,
    sort: sort.dir,
    page,
    ...(perPage && { per_page: perPage }),
  };
}
