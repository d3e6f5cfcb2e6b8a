import { sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { ErrorTrackingErrorEventRow, ErrorTrackingErrorRow, IssueRow, ProjectRow } from '../../db/schema.ts';
import { offsetPage, type Page, type PageRequest } from '../../db/pagination.ts';
import { searchPattern } from '../../db/search.ts';
import { notFound } from '../../util/errors.ts';
import { createIssue, type Acting } from '../planning/issues.ts';
import type { ErrorStatus, TrackedErrorListQuery } from '../../../../shared/src/error-tracking.ts';
import type { Frame } from './sentry-payload.ts';

/** `[unix seconds of the bucket's start, count]`. */
export type Bucket = [number, number];

export interface ErrorView {
  error: ErrorTrackingErrorRow;
  /** The last 24 hours, hour by hour, oldest first. */
  frequency: Bucket[];
}

export interface ErrorDetailsView extends ErrorView {
  frequency30Days: Bucket[];
  issue: IssueRow | null;
  /** The latest event's frames (the first event's, kept on the error, when its events are gone). */
  frames: Frame[];
}

const HOUR = 3600;
const DAY = 86_400;

/** The title the platform shows: the exception's type and message, or a message event's text. */
export const titleOf = (e: Pick<ErrorTrackingErrorRow, 'name' | 'description'>) => (e.name ? `${e.name}: ${e.description}` : e.description);

const ORDER = {
  last_seen: 'last_seen_at',
  first_seen: 'first_seen_at',
  frequency: 'events_count',
} as const;

/** A project's errors, newest `last_seen` first unless sorted otherwise; filtered by status and by text in the title. */
export async function listErrors(db: Db, project: ProjectRow, q: TrackedErrorListQuery, page: PageRequest, now = Date.now()): Promise<Page<ErrorView>> {
  let query = db.selectFrom('error_tracking_errors').selectAll().where('project_id', '=', project.id);
  if (q.status) query = query.where('status', '=', q.status);
  if (q.query) query = query.where(sql<boolean>`lower(name || ': ' || description) LIKE ${searchPattern(q.query)} ESCAPE '\\'`);
  const rows = await offsetPage(db, query.orderBy(ORDER[q.sort ?? 'last_seen'], 'desc').orderBy('id', 'desc'), page);
  const hours = await hourCounts(db, rows.items.map((e) => e.id), now - 24 * HOUR * 1000);
  return rows.map((error) => ({ error, frequency: buckets(hours.get(error.id), now, HOUR, 24) }));
}

export async function getError(db: Db, project: ProjectRow, id: number): Promise<ErrorTrackingErrorRow> {
  const row = await db.selectFrom('error_tracking_errors').selectAll().where('project_id', '=', project.id).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Error');
  return row;
}

export async function errorDetails(db: Db, error: ErrorTrackingErrorRow, now = Date.now()): Promise<ErrorDetailsView> {
  const hours = (await hourCounts(db, [error.id], now - 30 * DAY * 1000)).get(error.id);
  const issue = error.issue_id === null ? null : ((await db.selectFrom('issues').selectAll().where('id', '=', error.issue_id).executeTakeFirst()) ?? null);
  return { error, frequency: buckets(hours, now, HOUR, 24), frequency30Days: buckets(hours, now, DAY, 30), issue, frames: await latestFrames(db, error) };
}

/** The latest event's frames, read by the (error_id, id) index; the error's own (its first event's) when none is left. */
export async function latestFrames(db: Db, error: ErrorTrackingErrorRow): Promise<Frame[]> {
  const latest = await db.selectFrom('error_tracking_error_events').select('payload').where('error_id', '=', error.id).orderBy('id', 'desc').limit(1).executeTakeFirst();
  if (!latest) return framesOf(error.stack_trace);
  try {
    const payload = JSON.parse(latest.payload) as { frames?: Frame[] };
    return Array.isArray(payload.frames) ? payload.frames : [];
  } catch {
    return [];
  }
}

export async function setStatus(db: Db, error: ErrorTrackingErrorRow, status: ErrorStatus): Promise<ErrorTrackingErrorRow> {
  return db.updateTable('error_tracking_errors').set({ status }).where('id', '=', error.id).returningAll().executeTakeFirstOrThrow();
}

export function listEvents(db: Db, error: ErrorTrackingErrorRow, page: PageRequest): Promise<Page<ErrorTrackingErrorEventRow>> {
  return offsetPage(db, db.selectFrom('error_tracking_error_events').selectAll().where('error_id', '=', error.id).orderBy('id', 'desc'), page);
}

/** Each error's hourly counts since `sinceMs`, read by the (error, hour) key. */
async function hourCounts(db: Db, ids: number[], sinceMs: number): Promise<Map<number, Map<number, number>>> {
  const out = new Map<number, Map<number, number>>();
  if (!ids.length) return out;
  const since = Math.floor(sinceMs / 1000 / HOUR) * HOUR;
  const rows = await db.selectFrom('error_tracking_error_hours').select(['error_id', 'hour', 'count']).where('error_id', 'in', ids).where('hour', '>=', since).execute();
  for (const r of rows) {
    let m = out.get(r.error_id);
    if (!m) out.set(r.error_id, (m = new Map()));
    m.set(Number(r.hour), Number(r.count));
  }
  return out;
}

/** `n` buckets of `size` seconds ending with the one holding `now`, oldest first, summed from hourly counts. */
function buckets(hours: Map<number, number> | undefined, now: number, size: number, n: number): Bucket[] {
  const last = Math.floor(now / 1000 / size) * size;
  const first = last - (n - 1) * size;
  const out: Bucket[] = Array.from({ length: n }, (_, i) => [first + i * size, 0]);
  for (const [hour, count] of hours ?? []) {
    const i = Math.floor((hour - first) / size);
    if (i >= 0 && i < n) out[i]![1] += count;
  }
  return out;
}

/** The frames as stored. */
export const framesOf = (json: string): Frame[] => {
  try {
    const v = JSON.parse(json) as unknown;
    return Array.isArray(v) ? (v as Frame[]) : [];
  } catch {
    return [];
  }
};

/** The stack trace as Markdown: innermost frame first, as an issue reader wants it. */
function stackTraceMarkdown(frames: Frame[]): string {
  if (!frames.length) return '_No stack trace was sent._';
  const lines = [...frames].reverse().map((f) => `  at ${f.function ?? '?'} (${f.filename ?? f.module ?? '?'}${f.lineNo !== null ? `:${f.lineNo}` : ''}${f.colNo !== null ? `:${f.colNo}` : ''})`);
  return ['```', ...lines, '```'].join('\n');
}

/**
 * An issue made from the error, as the platform's "Create issue": titled by the error, holding
 * its stack trace and a link back to it; the error then links to the issue.
 */
export async function createIssueFromError(db: Db, acting: Acting, error: ErrorTrackingErrorRow, errorUrl: string): Promise<IssueRow> {
  const title = `Error: ${titleOf(error)}`.slice(0, 255);
  const description = [
    `**Error:** [${titleOf(error).slice(0, 500)}](${errorUrl})`,
    '',
    `- **Culprit:** ${error.actor || 'unknown'}`,
    `- **Events:** ${error.events_count}, **users:** ${error.users_count}`,
    `- **First seen:** ${error.first_seen_at}, **last seen:** ${error.last_seen_at}`,
    '',
    '### Stack trace',
    '',
    stackTraceMarkdown(await latestFrames(db, error)),
  ].join('\n');
  const issue = await createIssue(db, acting, { title, description });
  await db.updateTable('error_tracking_errors').set({ issue_id: issue.id }).where('id', '=', error.id).execute();
  return issue;
}

/** How long errors are kept, as on the platform: an error not seen for 90 days goes, with its events and counts. */
export const RETENTION_DAYS = 90;

/**
 * Housekeeping: errors last seen before the retention (their events, users and hourly counts go
 * with them) and hourly counts older than the 30 days the details show.
 */
export async function purgeOldErrors(db: Db, now = Date.now()): Promise<{ errors: number; hours: number }> {
  const cutoff = new Date(now - RETENTION_DAYS * DAY * 1000).toISOString();
  const errors = await db.deleteFrom('error_tracking_errors').where('last_seen_at', '<', cutoff).executeTakeFirst();
  const hours = await db.deleteFrom('error_tracking_error_hours').where('hour', '<', Math.floor(now / 1000) - 31 * DAY).executeTakeFirst();
  return { errors: Number(errors.numDeletedRows), hours: Number(hours.numDeletedRows) };
}
