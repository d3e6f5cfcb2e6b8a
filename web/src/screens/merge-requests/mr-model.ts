/*
 * The rules of the merge request screens without React: the list's filters as the URL holds them,
 * what the page says of mergeability, which merge actions it offers, and a refusal in plain words.
 */
import { isApiError } from '../../api/client.ts';
import type { MergeRequestsQuery } from '../../api/merge-requests.ts';

export const STATE_TABS = [
  { value: 'opened', label: 'Open' },
  { value: 'merged', label: 'Merged' },
  { value: 'closed', label: 'Closed' },
  { value: 'all', label: 'All' },
] as const;
export type StateTab = (typeof STATE_TABS)[number]['value'];

export const ORDERS = [
  { value: 'created_at_desc', label: 'Newest first' },
  { value: 'created_at_asc', label: 'Oldest first' },
  { value: 'updated_at_desc', label: 'Recently updated' },
  { value: 'updated_at_asc', label: 'Least recently updated' },
  { value: 'merged_at_desc', label: 'Recently merged' },
  { value: 'title_asc', label: 'Title, A to Z' },
  { value: 'title_desc', label: 'Title, Z to A' },
] as const;
const ORDER_KEYS = ['created_at', 'updated_at', 'merged_at', 'title'] as const;
type OrderKey = (typeof ORDER_KEYS)[number];

/** The text filters the list takes from the URL, under the platform's own parameter names. */
export const TEXT_FILTERS = ['search', 'labels', 'author_username', 'target_branch'] as const;

/**
 * The list's query from the URL's parameters (`get` reads one, '' when absent): the platform's
 * names and values (state, search, labels, author_username, target_branch, order_by, sort), an
 * unknown value read as the default (open, newest first), long values cut to what the API takes.
 */
export function readListQuery(get: (name: string) => string, pageNo: number): { query: MergeRequestsQuery; state: StateTab; order: string; filtered: boolean } {
  const state = STATE_TABS.find((t) => t.value === get('state'))?.value ?? 'opened';
  const orderBy: OrderKey = (ORDER_KEYS as readonly string[]).includes(get('order_by')) ? (get('order_by') as OrderKey) : 'created_at';
  const sort = get('sort') === 'asc' ? 'asc' : 'desc';
  const text = Object.fromEntries(TEXT_FILTERS.map((k) => [k, get(k).trim().slice(0, 255) || undefined])) as Record<(typeof TEXT_FILTERS)[number], string | undefined>;
  const query: MergeRequestsQuery = { state, order_by: orderBy, sort, page: pageNo, ...text };
  for (const k of TEXT_FILTERS) if (query[k] === undefined) delete query[k];
  return { query, state, order: `${orderBy}_${sort}`, filtered: TEXT_FILTERS.some((k) => text[k] !== undefined) };
}

/** `created_at_desc` → the URL's `order_by` and `sort` (the default order leaves both out). */
export function orderChange(order: string): { order_by: string | null; sort: string | null } {
  const m = /^(created_at|updated_at|merged_at|title)_(asc|desc)$/.exec(order);
  if (!m || (m[1] === 'created_at' && m[2] === 'desc')) return { order_by: null, sort: null };
  return { order_by: m[1], sort: m[2] };
}

/** `acme/website!4` → `acme/website`: the project of a merge request in a group's list. */
export const projectPathOf = (fullReference: string) => fullReference.slice(0, fullReference.lastIndexOf('!'));

/** What the page says of `detailed_merge_status`: whether it can merge, and why not in plain words. */
export function mergeabilityText(status: string): { ready: boolean; text: string } {
  switch (status) {
    case 'mergeable':
      return { ready: true, text: 'Ready to merge: no conflicts with the target branch.' };
    case 'ci_still_running':
      return { ready: false, text: 'Waiting for the pipeline to finish.' };
    case 'ci_must_pass':
      return { ready: false, text: 'The pipeline must pass before this merges.' };
    case 'draft_status':
      return { ready: false, text: 'This is a draft: remove “Draft:” from the title when it is ready to merge.' };
    case 'conflict':
      return { ready: false, text: 'The source branch has conflicts with the target branch: resolve them in the repository, then push.' };
    case 'need_rebase':
      return { ready: false, text: 'The source branch must be rebased onto the target branch first.' };
    case 'checking':
    case 'unchecked':
      return { ready: false, text: 'Checking whether the branches merge cleanly…' };
    case 'discussions_not_resolved':
      return { ready: false, text: 'All threads must be resolved first.' };
    case 'not_open':
      return { ready: false, text: 'This merge request is not open.' };
    default:
      return { ready: false, text: 'This merge request cannot be merged yet.' };
  }
}

const ACTIVE_PIPELINE = new Set(['created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'scheduled']);

/** What a merge request's state offers a user who may merge it. */
export type MergeOffer =
  /** On a train or set to merge automatically: the wait, and taking it back. */
  | { kind: 'waiting'; onTrain: boolean }
  /** Trains are on: the merge request joins the train (it waits for its pipeline first if that runs). */
  | { kind: 'train' }
  /** Trains are off: merge now, and, while its pipeline runs, set it to merge when it passes. */
  | { kind: 'merge'; autoMerge: boolean; mergeNow: boolean }
  | { kind: 'none' };

export interface MergeFacts {
  state: string;
  draft: boolean;
  detailed_merge_status: string;
  merge_when_pipeline_succeeds: boolean;
  head_pipeline: { status: string } | null;
  user: { can_merge: boolean };
}

export function mergeOffer(mr: MergeFacts, project: { trainsEnabled: boolean; pipelineMustSucceed: boolean }): MergeOffer {
  if (mr.state !== 'opened' || !mr.user.can_merge) return { kind: 'none' };
  if (mr.merge_when_pipeline_succeeds) return { kind: 'waiting', onTrain: project.trainsEnabled };
  if (mr.draft || ['conflict', 'need_rebase', 'draft_status', 'not_open', 'checking', 'unchecked'].includes(mr.detailed_merge_status)) return { kind: 'none' };
  if (project.trainsEnabled) return { kind: 'train' };
  const running = ACTIVE_PIPELINE.has(mr.head_pipeline?.status ?? '');
  const passed = mr.head_pipeline?.status === 'success';
  const mergeNow = !project.pipelineMustSucceed || passed;
  return mergeNow || running ? { kind: 'merge', autoMerge: running, mergeNow } : { kind: 'none' };
}

/**
 * A refused merge in the words of someone reading the page (the API's 405 says "Method Not
 * Allowed - merge request is a draft"); anything else keeps the server's message.
 */
export function refusalText(error: unknown, target: string): string {
  if (!isApiError(error)) return error instanceof Error ? error.message : 'Something went wrong.';
  const m = error.message.toLowerCase();
  switch (error.status) {
    case 401:
    case 403:
      return `You may not merge into ${target}: the branch is protected, and only the roles it admits merge into it.`;
    case 405:
      if (m.includes('draft')) return 'This merge request is a draft. Remove “Draft:” from its title when it is ready, then merge.';
      if (m.includes('merge train')) return 'This project merges through merge trains: add the merge request to the merge train instead.';
      if (m.includes('no running pipeline')) return 'There is no running pipeline to wait for: merge it now instead.';
      if (m.includes('pipeline must succeed')) return 'This project merges only once the pipeline has passed, and it has not passed yet.';
      if (m.includes('closed') || m.includes('merged')) return 'This merge request is no longer open: reload the page to see its state.';
      return 'This merge request cannot be merged in its current state.';
    case 406:
      return `The branches cannot be merged as they stand: the source branch has conflicts with ${target}, or must be rebased onto it.`;
    case 409:
      return 'The source branch changed since this page was loaded. Look at the new commits, then merge again.';
    case 422:
      return `The merge did not go through: ${error.message.replace(/^\d{3}[^-]*- /, '')}`;
    default:
      return error.status >= 500 ? `The server failed to merge (error ${error.status}). Try again in a moment.` : error.message;
  }
}
