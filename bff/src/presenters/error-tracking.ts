import type { ErrorTrackingClientKeyRow, ErrorTrackingErrorEventRow, ErrorTrackingSettingRow, ProjectRow } from '../db/schema.ts';
import type { ErrorTrackingClientKey, ErrorTrackingSetting, StackTraceEntry, TrackedError, TrackedErrorDetails, TrackedErrorEvent } from '../../../shared/src/error-tracking.ts';
import { bool, json } from '../util/rows.ts';
import { dsnOf } from '../services/error-tracking/settings.ts';
import { titleOf, type ErrorDetailsView, type ErrorView } from '../services/error-tracking/errors.ts';
import type { EventUser, Frame } from '../services/error-tracking/sentry-payload.ts';

/** The integrated backend has no Sentry project, external URL or API URL: those are null, as on the platform. */
export function presentErrorTrackingSetting(s: ErrorTrackingSettingRow): ErrorTrackingSetting {
  return { active: bool(s.active), project_name: null, sentry_external_url: null, api_url: null, integrated: bool(s.integrated) };
}

export function presentClientKey(k: ErrorTrackingClientKeyRow, ctx: { baseUrl: string }): ErrorTrackingClientKey {
  return { id: k.id, active: bool(k.active), public_key: k.public_key, sentry_dsn: dsnOf(ctx.baseUrl, k) };
}

export function presentTrackedError(v: ErrorView): TrackedError {
  const e = v.error;
  return {
    id: e.id,
    title: titleOf(e),
    message: e.description,
    culprit: e.actor,
    status: e.status,
    count: e.events_count,
    user_count: e.users_count,
    first_seen: e.first_seen_at,
    last_seen: e.last_seen_at,
    frequency: v.frequency,
  };
}

const presentFrame = (f: Frame): StackTraceEntry => ({
  filename: f.filename ?? null,
  function: f.function ?? null,
  lineNo: f.lineNo ?? null,
  colNo: f.colNo ?? null,
  context: Array.isArray(f.context) ? f.context : [],
  in_app: f.inApp ?? null,
});

export function presentTrackedErrorDetails(v: ErrorDetailsView, ctx: { baseUrl: string; project: ProjectRow }): TrackedErrorDetails {
  return {
    ...presentTrackedError(v),
    frequency_30_days: v.frequency30Days,
    stack_trace_entries: v.frames.map(presentFrame),
    platform: v.error.platform,
    gitlab_issue: v.issue ? `${ctx.baseUrl}/${ctx.project.path_with_namespace}/-/issues/${v.issue.iid}` : null,
    gitlab_issue_iid: v.issue?.iid ?? null,
  };
}

export function presentTrackedErrorEvent(e: ErrorTrackingErrorEventRow): TrackedErrorEvent {
  const payload = json<{ frames?: Frame[]; user?: EventUser | null }>(e.payload, {});
  const u = payload.user ?? null;
  return {
    id: e.id,
    event_id: e.event_id,
    message: e.description,
    level: e.level,
    environment: e.environment,
    platform: e.platform,
    occurred_at: e.occurred_at,
    user: u ? { id: u.id ?? null, username: u.username ?? null, email: u.email ?? null, ip_address: u.ip_address ?? null } : null,
    stack_trace_entries: (payload.frames ?? []).map(presentFrame),
  };
}
