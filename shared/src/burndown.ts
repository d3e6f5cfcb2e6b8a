import { z } from './errors.ts';

/**
 * Burndown events of a milestone, as the platform's endpoint gives them (`created_at`,
 * `weight`, `action`), in time order. Besides the platform's created (the issue joined the
 * milestone), closed and reopened, we also say when an issue left the milestone (`removed`)
 * and when its weight changed (`weight`, carrying the new weight), and name the issue, so a
 * chart can follow each issue exactly.
 */
export const BURNDOWN_ACTIONS = ['created', 'closed', 'reopened', 'removed', 'weight'] as const;
export type BurndownAction = (typeof BURNDOWN_ACTIONS)[number];

export const burndownEvent = z.object({
  created_at: z.string(),
  weight: z.number().int().nullable(),
  action: z.enum(BURNDOWN_ACTIONS),
  issue_id: z.number().int(),
});
export type BurndownEvent = z.infer<typeof burndownEvent>;

/** The milestone's totals at the end of one day. */
export interface BurndownDay {
  date: string;
  scopeCount: number;
  completedCount: number;
  /** Burndown: what is still open. */
  openCount: number;
  scopeWeight: number;
  completedWeight: number;
  openWeight: number;
}

const DAY = 86_400_000;
const dayOf = (iso: string) => iso.slice(0, 10);
const nextDay = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + DAY).toISOString().slice(0, 10);

/**
 * Day-by-day totals from `from` to `to` (dates, inclusive) replayed from the events: what
 * happened before `from` counts in the first day, as the platform's chart starts from the
 * scope the milestone already had.
 */
export function burndownSeries(events: readonly BurndownEvent[], from: string, to: string): BurndownDay[] {
  const issues = new Map<number, { inMilestone: boolean; closed: boolean; weight: number }>();
  const sorted = [...events].sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0));
  const days: BurndownDay[] = [];
  let i = 0;
  for (let date = from; date <= to && days.length < 3660; date = nextDay(date)) {
    for (; i < sorted.length && dayOf(sorted[i].created_at) <= date; i++) apply(issues, sorted[i]);
    days.push(totals(date, issues));
  }
  return days;
}

function apply(issues: Map<number, { inMilestone: boolean; closed: boolean; weight: number }>, e: BurndownEvent): void {
  const issue = issues.get(e.issue_id) ?? { inMilestone: false, closed: false, weight: 0 };
  if (e.weight !== null || e.action === 'weight') issue.weight = e.weight ?? 0;
  if (e.action === 'created') issue.inMilestone = true;
  if (e.action === 'removed') issue.inMilestone = false;
  if (e.action === 'closed') issue.closed = true;
  if (e.action === 'reopened') issue.closed = false;
  issues.set(e.issue_id, issue);
}

function totals(date: string, issues: Map<number, { inMilestone: boolean; closed: boolean; weight: number }>): BurndownDay {
  const day: BurndownDay = { date, scopeCount: 0, completedCount: 0, openCount: 0, scopeWeight: 0, completedWeight: 0, openWeight: 0 };
  for (const issue of issues.values()) {
    if (!issue.inMilestone) continue;
    day.scopeCount += 1;
    day.scopeWeight += issue.weight;
    if (issue.closed) {
      day.completedCount += 1;
      day.completedWeight += issue.weight;
    }
  }
  day.openCount = day.scopeCount - day.completedCount;
  day.openWeight = day.scopeWeight - day.completedWeight;
  return day;
}

/**
 * The days a milestone's chart covers: its start date (or its first event) to its due date (or
 * to today without one), and `until`, the last day with figures: today for a milestone still
 * under way, so the chart shows the days left to the due date without inventing their values.
 */
export function chartRange(
  m: { start_date: string | null; due_date: string | null },
  events: readonly BurndownEvent[],
  today: string,
): { from: string; to: string; until: string } | null {
  const first = events.length ? dayOf(events.reduce((a, e) => (e.created_at < a ? e.created_at : a), events[0].created_at)) : null;
  const from = m.start_date ?? first;
  if (!from) return null;
  const to = m.due_date && m.due_date >= from ? m.due_date : m.due_date ? from : today < from ? from : today;
  const until = today < from ? from : today < to ? today : to;
  return { from, to, until };
}

/**
 * The ideal burndown: a straight line from what was open on the first day down to nothing on
 * the last, one value per day from `from` to `to` (as the platform's guideline).
 */
export function idealLine(openAtStart: number, from: string, to: string): { date: string; ideal: number }[] {
  const dates: string[] = [];
  for (let date = from; date <= to && dates.length < 3660; date = nextDay(date)) dates.push(date);
  const steps = Math.max(1, dates.length - 1);
  return dates.map((date, i) => ({ date, ideal: Math.round(openAtStart * (1 - i / steps) * 100) / 100 }));
}
