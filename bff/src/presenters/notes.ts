import type { Note } from '../../../shared/src/notes.ts';
import type { NoteRow, UserRow } from '../db/schema.ts';
import { bool } from '../util/rows.ts';
import { presentWorkItemUser } from './work-items.ts';

/** A note as the notes API shows it; `noteableIid` is the or merge request's iid (null for snippets). */
export function presentNote(n: NoteRow, ctx: { baseUrl: string; author: UserRow | null; noteableIid: number | null; resolvedBy?: UserRow | null }): Note {
  return {
    id: n.id,
    type: null,
    body: n.body,
    author: presentWorkItemUser(ctx.author, ctx.baseUrl),
    created_at: n.created_at,
    updated_at: n.updated_at,
    system: bool(n.system),
    noteable_id: n.noteable_id,
    noteable_type: n.noteable_type,
    project_id: n.project_id,
    noteable_iid: ctx.noteableIid,
    commands_changes: {},
    resolvable: bool(n.resolvable),
    ...(bool(n.resolvable) ? { resolved: n.resolved_at !== null, resolved_by: ctx.resolvedBy ? presentWorkItemUser(ctx.resolvedBy, ctx.baseUrl) : null, resolved_at: n.resolved_at } : {}),
    confidential: bool(n.internal),
    internal: bool(n.internal),
    imported: false,
    imported_from: 'none',
    attachment: null,
  };
}
