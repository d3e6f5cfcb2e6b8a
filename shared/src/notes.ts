import { z } from './errors.ts';
import { workItemUser } from './issues.ts';
import { boolParam, datetimeParam, paginationQuery } from './params.ts';

export const NOTEABLE_TYPES = ['Issue', 'MergeRequest', 'Snippet', 'Epic'] as const;

/** A comment (GET/POST/PUT …/notes[/:note_id]); `noteable_iid` is null for snippets. */
export const note = z.object({
  id: z.number().int(),
  type: z.string().nullable(),
  body: z.string(),
  author: workItemUser,
  created_at: z.string(),
  updated_at: z.string(),
  system: z.boolean(),
  noteable_id: z.number().int(),
  noteable_type: z.enum(NOTEABLE_TYPES),
  project_id: z.number().int().nullable(),
  noteable_iid: z.number().int().nullable(),
  commands_changes: z.record(z.string(), z.unknown()).optional(),
  resolvable: z.boolean(),
  resolved: z.boolean().optional(),
  resolved_by: workItemUser.nullable().optional(),
  resolved_at: z.string().nullable().optional(),
  confidential: z.boolean(),
  internal: z.boolean(),
  imported: z.boolean(),
  imported_from: z.string(),
  attachment: z.null(),
});
export type Note = z.infer<typeof note>;

export const NOTE_MAX = 1_000_000;

export const noteCreateBody = z.object({
  body: z.string().min(1).max(NOTE_MAX),
  internal: boolParam().optional(),
  confidential: boolParam().optional(),
  created_at: datetimeParam().optional(),
  merge_request_diff_head_sha: z.string().max(64).optional(),
});
export type NoteCreateBody = z.infer<typeof noteCreateBody>;

export const noteUpdateBody = z.object({
  body: z.string().min(1).max(NOTE_MAX).optional(),
  confidential: boolParam().optional(),
});
export type NoteUpdateBody = z.infer<typeof noteUpdateBody>;

export const noteListQuery = paginationQuery.extend({
  order_by: z.enum(['created_at', 'updated_at']).optional(),
  sort: z.enum(['asc', 'desc']).optional(),
  activity_filter: z.enum(['all_notes', 'only_comments', 'only_activity']).optional(),
});
export type NoteListQuery = z.infer<typeof noteListQuery>;
