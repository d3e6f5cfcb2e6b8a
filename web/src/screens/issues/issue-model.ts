import { groupHref, projectHref } from '../../paths.ts';

/*
 * What the issue pages read of an issue, without React: where its milestone lives in the
 * console, and how its state history is worded.
 */

/** A milestone as an issue embeds it: a project's own (`project_id`) or a group's (its `web_url` names the group). */
export interface MilestoneRef {
  iid: number;
  project_id?: number | null;
  web_url: string;
}

/**
 * The console's page of an issue's milestone: the project's milestones section for a project
 * milestone, the group's for a group milestone (its full path read from the platform's
 * `…/groups/<full path>/-/milestones/<iid>`); null when the address names neither.
 */
export function milestoneHrefOf(m: MilestoneRef, projectPath: string): string | null {
  if (m.project_id != null) return projectHref(projectPath, `milestones/${m.iid}`);
  let path: string;
  try {
    path = new URL(m.web_url, 'http://console.invalid').pathname;
  } catch {
    return null;
  }
  const found = /\/groups\/(.+)\/-\/milestones\/\d+\/?$/.exec(path);
  return found ? groupHref(decodeURIComponent(found[1]), `milestones/${m.iid}`) : null;
}

/**
 * What a state event did, as the history says it. Opening an issue records no event, so an
 * `opened` event is always a reopen (the API names the state the issue moved to).
 */
export const STATE_EVENT_WORDS: Record<string, string> = { opened: 'reopened', closed: 'closed', reopened: 'reopened', merged: 'merged', locked: 'locked' };

/** Parses `acme/website#12`, `#12` or `12` (the related-issue field) into a project path (or null: this project) and an iid. */
export function parseIssueReference(text: string): { project: string | null; iid: number } | null {
  const m = /^\s*(?:([\w.-]+(?:\/[\w.-]+)+))?#?(\d{1,9})\s*$/.exec(text);
  if (!m) return null;
  const iid = Number(m[2]);
  return iid > 0 ? { project: m[1] ?? null, iid } : null;
}
