import { z } from './errors.ts';
import { boolParam, paginationQuery } from './params.ts';

/** The project's error tracking setting, as the platform shows it (the integrated backend has no Sentry project, URL or API). */
export const errorTrackingSetting = z.object({
  active: z.boolean(),
  project_name: z.string().nullable(),
  sentry_external_url: z.string().nullable(),
  api_url: z.string().nullable(),
  integrated: z.boolean(),
});
export type ErrorTrackingSetting = z.infer<typeof errorTrackingSetting>;

export const errorTrackingSettingBody = z.object({
  active: boolParam().pipe(z.boolean()),
  integrated: boolParam().pipe(z.boolean()),
});
export type ErrorTrackingSettingBody = z.infer<typeof errorTrackingSettingBody>;

/** A client key: the public part of a DSN, which SDKs send with every event. */
export const errorTrackingClientKey = z.object({
  id: z.number().int(),
  active: z.boolean(),
  public_key: z.string(),
  sentry_dsn: z.string(),
});
export type ErrorTrackingClientKey = z.infer<typeof errorTrackingClientKey>;

export const ERROR_STATUSES = ['unresolved', 'resolved', 'ignored'] as const;
export type ErrorStatus = (typeof ERROR_STATUSES)[number];
export const ERROR_SORTS = ['last_seen', 'first_seen', 'frequency'] as const;

/** `[unix seconds of the bucket's start, events in it]`. */
export const frequencyBucket = z.tuple([z.number().int(), z.number().int()]);

export const trackedError = z.object({
  id: z.number().int(),
  title: z.string(),
  message: z.string(),
  culprit: z.string(),
  status: z.enum(ERROR_STATUSES),
  count: z.number().int(),
  user_count: z.number().int(),
  first_seen: z.string(),
  last_seen: z.string(),
  /** The last 24 hours, hour by hour, oldest first. */
  frequency: z.array(frequencyBucket),
});
export type TrackedError = z.infer<typeof trackedError>;

/** A frame of a stack trace; `context` holds `[line number, source line]` pairs around the line. */
export const stackTraceEntry = z.object({
  filename: z.string().nullable(),
  function: z.string().nullable(),
  lineNo: z.number().int().nullable(),
  colNo: z.number().int().nullable(),
  context: z.array(z.tuple([z.number().int(), z.string()])),
  in_app: z.boolean().nullable(),
});
export type StackTraceEntry = z.infer<typeof stackTraceEntry>;

export const trackedErrorDetails = trackedError.extend({
  /** The last 30 days, day by day (UTC), oldest first. */
  frequency_30_days: z.array(frequencyBucket),
  /** The latest event's frames, in the order the SDK sent them (innermost last). */
  stack_trace_entries: z.array(stackTraceEntry),
  platform: z.string().nullable(),
  /** The issue created from this error, if any. */
  gitlab_issue: z.string().nullable(),
  gitlab_issue_iid: z.number().int().nullable(),
});
export type TrackedErrorDetails = z.infer<typeof trackedErrorDetails>;

export const errorEventUser = z.object({
  id: z.string().nullable(),
  username: z.string().nullable(),
  email: z.string().nullable(),
  ip_address: z.string().nullable(),
});

export const trackedErrorEvent = z.object({
  id: z.number().int(),
  event_id: z.string(),
  message: z.string(),
  level: z.string().nullable(),
  environment: z.string().nullable(),
  platform: z.string().nullable(),
  occurred_at: z.string(),
  user: errorEventUser.nullable(),
  stack_trace_entries: z.array(stackTraceEntry),
});
export type TrackedErrorEvent = z.infer<typeof trackedErrorEvent>;

export const trackedErrorListQuery = paginationQuery.extend({
  status: z.enum(ERROR_STATUSES).optional(),
  query: z.string().max(255).optional(),
  sort: z.enum(ERROR_SORTS).optional(),
});
export type TrackedErrorListQuery = z.infer<typeof trackedErrorListQuery>;

export const trackedErrorUpdateBody = z.object({ status: z.enum(ERROR_STATUSES) });
