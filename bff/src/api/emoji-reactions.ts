import { z } from 'zod';
import { awardEmoji, awardEmojiCreateBody, awardEmojiListQuery } from '../../../shared/src/emoji-reactions.ts';
import { defineRoute, type RouteContext, type RouteSpec } from '../http/route.ts';
import { recordId } from '../http/params.ts';
import { pageRequest } from '../db/pagination.ts';
import { canProject } from '../policies/index.ts';
import * as awards from '../services/planning/emoji-reactions.ts';
import type { Awardable } from '../services/planning/emoji-reactions.ts';
import * as snippets from '../services/planning/snippets.ts';
import { findNote, type Noteable } from '../services/planning/notes.ts';
import { findIssueByIid } from '../services/planning/issues.ts';
import { findMergeRequestByIid } from '../services/planning/merge-requests.ts';
import { issuePayload, mergeRequestPayload, notePayload, type NoteTarget } from '../services/planning/work-item-hook-payloads.ts';
import { embeddedObjects, snippetHookObject } from '../services/planning/emoji-reactions-payload.ts';
import { notFound } from '../util/errors.ts';
import { presentAwardEmoji } from '../presenters/emoji-reactions.ts';
import { snippetWebUrl } from '../presenters/snippets.ts';
import { canSeeIssue } from './issues.ts';

const area = 'emoji-reactions';
type Ctx = RouteContext<unknown, unknown, Record<string, number>, 'project'>;
const subject = (ctx: Ctx) => ({ project: ctx.project, group: ctx.group, level: ctx.level });
const scope = (ctx: Ctx, user: Parameters<Awardable['hookObjects']>[0]) => ({ project: ctx.project, group: ctx.group, baseUrl: ctx.baseUrl, user });
const projectUrl = (ctx: Ctx) => `${ctx.baseUrl}/${ctx.project.path_with_namespace}`;

/** An object that takes reactions and may hold notes that take them too. */
interface Parent {
  awardable: Awardable;
  /** Its notes, when the notes area keeps notes on it (issues and merge requests). */
  notes?: { noteable: Noteable; target: NoteTarget; url: string };
}

/** Each kind of object under a project that takes reactions: its path, its id parameter and how it is found (readable, or a 404). */
/** `permission`: what reading the awardable needs (a merge request is read as the code is). */
const KINDS: { segment: string; param: string; record: string; permission: 'read_project' | 'read_merge_request'; load: (ctx: Ctx, id: number) => Promise<Parent> }[] = [
  {
    segment: 'issues',
    param: 'issue_iid',
    record: 'Issue',
    permission: 'read_project',
    load: async (ctx, iid) => {
      const issue = await findIssueByIid(ctx.db, ctx.project.id, iid);
      if (!(await canSeeIssue(ctx, issue))) throw notFound('Issue');
      const url = `${projectUrl(ctx)}/-/issues/${issue.iid}`;
      const hookObjects = async (user: Parameters<Awardable['hookObjects']>[0]) => embeddedObjects(await issuePayload(ctx.db, scope(ctx, user), issue, 'update', {}));
      return {
        awardable: { type: 'Issue', id: issue.id, project: ctx.project, group: ctx.group, url, hookObjects },
        notes: { noteable: { type: 'Issue', id: issue.id, projectId: ctx.project.id }, target: { type: 'Issue', issue }, url },
      };
    },
  },
  {
    segment: 'merge_requests',
    param: 'merge_request_iid',
    record: 'Merge Request',
    permission: 'read_merge_request',
    load: async (ctx, iid) => {
      if (!canProject(ctx.actor, 'read_merge_request', subject(ctx))) throw notFound('Merge Request');
      const mr = await findMergeRequestByIid(ctx.db, ctx.project.id, iid);
      const url = `${projectUrl(ctx)}/-/merge_requests/${mr.iid}`;
      const hookObjects = async (user: Parameters<Awardable['hookObjects']>[0]) => embeddedObjects(await mergeRequestPayload(ctx.db, scope(ctx, user), mr, 'update', {}));
      return {
        awardable: { type: 'MergeRequest', id: mr.id, project: ctx.project, group: ctx.group, url, hookObjects },
        notes: { noteable: { type: 'MergeRequest', id: mr.id, projectId: ctx.project.id }, target: { type: 'MergeRequest', mergeRequest: mr }, url },
      };
    },
  },
  {
    segment: 'snippets',
    param: 'snippet_id',
    record: 'Snippet',
    permission: 'read_project',
    load: async (ctx, id) => {
      const view = await snippets.viewSnippet(ctx.db, ctx.project, await snippets.findSnippet(ctx.db, ctx.actor, ctx.level, ctx.project, id));
      const snippet = snippetHookObject(view);
      const url = snippetWebUrl(ctx.baseUrl, view);
      return {
        awardable: { type: 'Snippet', id: view.snippet.id, project: ctx.project, group: ctx.group, url, hookObjects: async () => ({ snippet }) },
        notes: { noteable: { type: 'Snippet', id: view.snippet.id, projectId: ctx.project.id }, target: { type: 'Snippet', id: view.snippet.id, snippet }, url },
      };
    },
  },
];

/** A note of the parent, as the notes area shows it (internal notes for Reporters and up), as an awardable. */
async function noteAwardable(ctx: Ctx, parent: Parent, noteId: number): Promise<Awardable> {
  if (!parent.notes) throw notFound('Note');
  const { noteable, target, url } = parent.notes;
  const note = await findNote(ctx.db, noteable, noteId, { internalVisible: canProject(ctx.actor, 'read_confidential', subject(ctx)) });
  const hookObjects = async (user: Parameters<Awardable['hookObjects']>[0]) => embeddedObjects(await notePayload(ctx.db, scope(ctx, user), note, target, 'update'));
  return { type: 'Note', id: note.id, project: ctx.project, group: ctx.group, url: `${url}#note_${note.id}`, hookObjects };
}

/** The four reaction routes under one awardable path. */
function awardRoutes(path: string, params: Record<string, ReturnType<typeof recordId>>, load: (ctx: Ctx) => Promise<Awardable>, what: string, permission: 'read_project' | 'read_merge_request'): RouteSpec[] {
  const withAwardable = { awardable: (ctx: Ctx) => load(ctx) };
  const withAward = { ...withAwardable, award: (ctx: Ctx & { awardable: Awardable }) => awards.findAward(ctx.db, ctx.awardable, ctx.params.award_id) };
  const awardParams = { ...params, award_id: recordId() };
  return [
    defineRoute({
      method: 'get',
      path,
      area,
      summary: `List the emoji reactions on ${what}`,
      auth: 'optional',
      load: 'project',
      permission,
      params,
      with: withAwardable,
      query: awardEmojiListQuery,
      response: z.array(awardEmoji),
      handler: async (ctx) => awards.listAwards(ctx.db, ctx.awardable, pageRequest(ctx.query)),
      present: presentAwardEmoji,
    }),
    defineRoute({
      method: 'get',
      path: `${path}/:award_id`,
      area,
      summary: `Get an emoji reaction on ${what}`,
      auth: 'optional',
      load: 'project',
      permission,
      params: awardParams,
      with: withAward,
      response: awardEmoji,
      handler: async (ctx) => ctx.award,
      present: presentAwardEmoji,
    }),
    defineRoute({
      method: 'post',
      path,
      area,
      summary: `React to ${what} with an emoji (a name of the emoji data set, without colons)`,
      load: 'project',
      permission,
      params,
      with: withAwardable,
      body: awardEmojiCreateBody,
      response: awardEmoji,
      handler: async (ctx) => awards.addAward(ctx.db, ctx.baseUrl, ctx.actor.user!, ctx.awardable, ctx.body.name),
      present: presentAwardEmoji,
    }),
    defineRoute({
      method: 'delete',
      path: `${path}/:award_id`,
      area,
      summary: `Remove an emoji reaction from ${what}: its author or an administrator`,
      load: 'project',
      permission,
      params: awardParams,
      with: withAward,
      handler: async (ctx) => awards.removeAward(ctx.db, ctx.baseUrl, ctx.actor, ctx.awardable, ctx.award),
    }),
  ];
}

/** The spec's routes: four on each kind of awardable, four on the notes of each. */
export const emojiReactionRoutes: RouteSpec[] = KINDS.flatMap((k) => {
  const path = `/projects/:id/${k.segment}/:${k.param}/award_emoji`;
  const params = { [k.param]: recordId(k.record) };
  const what = `${/^[AEIOU]/.test(k.record) ? 'an' : 'a'} ${k.record.toLowerCase()}`;
  return [
    ...awardRoutes(path, params, async (ctx) => (await k.load(ctx, ctx.params[k.param])).awardable, what, k.permission),
    ...awardRoutes(
      `/projects/:id/${k.segment}/:${k.param}/notes/:note_id/award_emoji`,
      { ...params, note_id: recordId('Note') },
      async (ctx) => noteAwardable(ctx, await k.load(ctx, ctx.params[k.param]), ctx.params.note_id),
      `a comment on ${what}`,
      k.permission,
    ),
  ];
});
