import { z } from 'zod';
import { note, noteCreateBody, noteListQuery, noteUpdateBody } from '../../../shared/src/notes.ts';
import { defineRoute, type RouteContext } from '../http/route.ts';
import { recordId } from '../http/params.ts';
import { pageRequest } from '../db/pagination.ts';
import { isAdmin } from '../auth/actor.ts';
import { canProject } from '../policies/index.ts';
import * as notes from '../services/planning/notes.ts';
import { forbidden, notFound } from '../util/errors.ts';
import { presentNote } from '../presenters/notes.ts';
import { fireNoteHook, type NoteTarget } from '../services/planning/work-item-hook-payloads.ts';
import { findIssueByIid } from '../services/planning/issues.ts';
import { findMergeRequestByIid } from '../services/planning/merge-requests.ts';
import { canSeeIssue } from './issues.ts';
import * as snippets from '../services/planning/snippets.ts';
import { snippetHookObject } from '../services/planning/emoji-reactions-payload.ts';
import type { NoteRow } from '../db/schema.ts';
import type { Db } from '../db/index.ts';

const area = 'notes';
type Ctx = RouteContext<unknown, unknown, unknown, 'project'>;
/** The iid of the noteable, whatever its kind names it in the path. */
type FindCtx = Ctx & { noteableIid: number };
const subject = (ctx: Pick<Ctx, 'project' | 'group' | 'level'>) => ({ project: ctx.project, group: ctx.group, level: ctx.level });

/** What a note route needs of its noteable: where it is, how notes find it, and what the note event embeds. */
interface Target {
  noteable: notes.Noteable;
  /** What a note shows as its `noteable_iid` (snippets have none). */
  iid: number | null;
  hookTarget: NoteTarget;
}

/**
 * The project noteables: how each is found (and hidden) by its path parameter, the permission
 * to read its notes, and the one to comment (any reader of an issue or a snippet; a reader of
 * the code for a merge request).
 */
const KINDS = {
  issues: {
    param: 'issue_iid',
    what: 'Issue',
    read: 'read_project',
    write: 'create_note',
    find: async (ctx: FindCtx): Promise<Target> => {
      const issue = await findIssueByIid(ctx.db, ctx.project.id, ctx.noteableIid);
      if (!(await canSeeIssue(ctx, issue))) throw notFound('Issue');
      return { noteable: { type: 'Issue', id: issue.id, projectId: ctx.project.id }, iid: issue.iid, hookTarget: { type: 'Issue', issue } };
    },
  },
  merge_requests: {
    param: 'merge_request_iid',
    what: 'Merge Request',
    read: 'read_merge_request',
    write: 'read_merge_request',
    find: async (ctx: FindCtx): Promise<Target> => {
      if (!canProject(ctx.actor, 'read_merge_request', subject(ctx))) throw notFound('Merge Request');
      const mr = await findMergeRequestByIid(ctx.db, ctx.project.id, ctx.noteableIid);
      return { noteable: { type: 'MergeRequest', id: mr.id, projectId: ctx.project.id }, iid: mr.iid, hookTarget: { type: 'MergeRequest', mergeRequest: mr } };
    },
  },
  snippets: {
    param: 'snippet_id',
    what: 'Snippet',
    read: 'read_project',
    write: 'create_note',
    find: async (ctx: FindCtx): Promise<Target> => {
      const view = await snippets.viewSnippet(ctx.db, ctx.project, await snippets.findSnippet(ctx.db, ctx.actor, ctx.level, ctx.project, ctx.noteableIid));
      return { noteable: { type: 'Snippet', id: view.snippet.id, projectId: ctx.project.id }, iid: null, hookTarget: { type: 'Snippet', id: view.snippet.id, snippet: snippetHookObject(view) } };
    },
  },
} as const;

/** Internal notes are for Reporters and up (and administrators). */
const internalVisible = (ctx: Pick<Ctx, 'actor' | 'project' | 'group' | 'level'>) => canProject(ctx.actor, 'read_confidential', subject(ctx));

/** The notes routes of one kind of noteable, written once. */
function makeNoteRoutes(kind: keyof typeof KINDS) {
  const k = KINDS[kind];
  const base = `/projects/:id/${kind}/:${k.param}/notes`;
  // The path names the iid after its kind (issue_iid, merge_request_iid); the handlers read it as noteable_iid.
  const params = { [k.param]: recordId(k.what) } as Record<string, z.ZodType>;
  const target = { target: (ctx: Ctx) => k.find({ ...ctx, noteableIid: (ctx.params as Record<string, number>)[k.param] }) };
  const noteParams = { ...params, note_id: recordId('Note') };
  const withNote = {
    ...target,
    note: (ctx: Ctx & { target: Target }) => notes.findNote(ctx.db, ctx.target.noteable, (ctx.params as { note_id: number }).note_id, { internalVisible: internalVisible(ctx) }),
  };
  const present = (r: notes.NoteView, ctx: Ctx & { target: Target }) => presentNote(r.note, { baseUrl: ctx.baseUrl, author: r.author, noteableIid: ctx.target.iid });
  const hook = (ctx: Ctx & { target: Target }, action: 'create' | 'update') => (trx: Db, n: NoteRow) =>
    fireNoteHook(trx, { project: ctx.project, group: ctx.group, baseUrl: ctx.baseUrl, user: ctx.actor.user! }, n, ctx.target.hookTarget, action);
  const one = async (ctx: Ctx, n: NoteRow) => (await notes.noteViews(ctx.db, [n]))[0];
  const { read, write } = k;
  const what = { issues: 'an issue', merge_requests: 'a merge request', snippets: 'a snippet' }[kind];

  return [
    defineRoute({
      method: 'get',
      path: base,
      area,
      summary: `List the notes of ${what} (sort, order_by created_at|updated_at, activity_filter)`,
      auth: 'optional',
      load: 'project',
      permission: read,
      params,
      with: target,
      query: noteListQuery,
      response: z.array(note),
      handler: async (ctx) => (await notes.listNotes(ctx.db, ctx.target.noteable, ctx.query, pageRequest(ctx.query), { internalVisible: internalVisible(ctx) })).mapAsync((rows) => notes.noteViews(ctx.db, rows)),
      present,
    }),
    defineRoute({
      method: 'get',
      path: `${base}/:note_id`,
      area,
      summary: 'Get a note',
      auth: 'optional',
      load: 'project',
      permission: read,
      params: noteParams,
      with: withNote,
      response: note,
      handler: async (ctx) => one(ctx, ctx.note),
      present,
    }),
    defineRoute({
      method: 'post',
      path: base,
      area,
      summary: 'Comment (body; internal: seen by Reporters and up only)',
      load: 'project',
      permission: write,
      params,
      with: target,
      body: noteCreateBody,
      status: 201,
      response: note,
      handler: async (ctx) => {
        if ((ctx.body.internal || ctx.body.confidential) && !internalVisible(ctx)) throw forbidden('Only Reporters and up may add internal notes');
        return one(ctx, await notes.createNote(ctx.db, ctx.target.noteable, ctx.actor.user!, ctx.body, hook(ctx, 'create')));
      },
      present,
    }),
    defineRoute({
      method: 'put',
      path: `${base}/:note_id`,
      area,
      summary: 'Edit a note (its author, or an administrator)',
      load: 'project',
      permission: write,
      params: noteParams,
      with: withNote,
      body: noteUpdateBody,
      response: note,
      handler: async (ctx) => {
        if (ctx.note.author_id !== ctx.actor.user!.id && !isAdmin(ctx.actor)) throw forbidden();
        if (ctx.note.system) throw forbidden('System notes cannot be edited');
        return one(ctx, await notes.updateNote(ctx.db, ctx.note, ctx.actor.user!, ctx.body, hook(ctx, 'update')));
      },
      present,
    }),
    defineRoute({
      method: 'delete',
      path: `${base}/:note_id`,
      area,
      summary: 'Delete a note (its author, a Maintainer, or an administrator)',
      load: 'project',
      permission: write,
      params: noteParams,
      with: withNote,
      handler: async (ctx) => {
        if (ctx.note.author_id !== ctx.actor.user!.id && !canProject(ctx.actor, 'admin_project', subject(ctx))) throw forbidden();
        await notes.deleteNote(ctx.db, ctx.note);
      },
    }),
  ];
}

export const noteRoutes = [...makeNoteRoutes('issues'), ...makeNoteRoutes('merge_requests'), ...makeNoteRoutes('snippets')];
