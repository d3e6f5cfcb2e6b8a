import { z } from './errors.ts';
import { dateParam, paginationQuery } from './params.ts';
import { userBasic } from './users.ts';

/** target_type values the events API filters by (spec: Activity events). */
export const EVENT_TARGET_TYPES = ['epic', 'issue', 'merge_request', 'milestone', 'note', 'project', 'snippet', 'user'] as const;
/** The platform's `action` filter values. */
export const EVENT_ACTIONS = ['created', 'updated', 'closed', 'reopened', 'pushed', 'commented', 'merged', 'joined', 'left', 'destroyed', 'expired', 'approved'] as const;

const eventAuthor = userBasic.pick({ id: true, username: true, name: true, state: true, avatar_url: true, web_url: true });

export const eventPushData = z.object({
  commit_count: z.number().int(),
  action: z.enum(['created', 'removed', 'pushed']),
  ref_type: z.enum(['branch', 'tag']),
  commit_from: z.string().nullable(),
  commit_to: z.string().nullable(),
  ref: z.string(),
  commit_title: z.string().nullable(),
  ref_count: z.number().int().nullable(),
});

export const eventNote = z.object({
  id: z.number().int(),
  type: z.string().nullable(),
  body: z.string(),
  attachment: z.string().nullable(),
  author: eventAuthor,
  created_at: z.string(),
  updated_at: z.string(),
  system: z.boolean(),
  noteable_id: z.number().int().nullable(),
  noteable_type: z.string(),
  /** Shown in project listings. */
  noteable_iid: z.number().int().nullable().optional(),
  confidential: z.boolean(),
  internal: z.boolean(),
});

export const activityEvent = z.object({
  id: z.number().int(),
  project_id: z.number().int().nullable(),
  action_name: z.string(),
  target_id: z.number().int().nullable(),
  target_iid: z.number().int().nullable(),
  target_type: z.string().nullable(),
  author_id: z.number().int().nullable(),
  target_title: z.string().nullable(),
  title: z.null(),
  created_at: z.string(),
  author: eventAuthor.nullable(),
  author_username: z.string().nullable(),
  imported: z.boolean(),
  imported_from: z.string(),
  push_data: eventPushData.optional(),
  note: eventNote.optional(),
});
export type ActivityEvent = z.infer<typeof activityEvent>;

/** The filters every events list takes. */
export const eventListQuery = paginationQuery.extend({
  action: z.enum(EVENT_ACTIONS).optional(),
  target_type: z.enum(EVENT_TARGET_TYPES).optional(),
  /** Events created before this day (the day itself excluded). */
  before: dateParam().optional(),
  /** Events created after this day (the day itself excluded). */
  after: dateParam().optional(),
  sort: z.enum(['asc', 'desc']).optional(),
});
export type EventListQuery = z.infer<typeof eventListQuery>;

/** GET /events: `scope=all` widens the caller's own events to those of all their projects. */
export const ownEventListQuery = eventListQuery.extend({ scope: z.string().max(255).optional() });
