import { z } from 'zod';
import { awardEmoji, awardEmojiCreateBody, awardEmojiListQuery } from '../../../shared/src/emoji-reactions.ts';
import { defineRoute, type RouteContext, type RouteSpec } from '../http/route.ts';
import { recordId } from '../http/params.ts';
import { pageRequest } from '../db/pagination.ts';
import * as awards from '../services/emoji-reactions.ts';
import type { Awardable } from '../services/emoji-reactions.ts';
import * as snippets from '../services/snippets.ts';
import { snippetHookObject } from '../services/emoji-reactions-payload.ts';
import { presentAwardEmoji } from '../presenters/emoji-reactions.ts';
import { snippetWebUrl } from '../presenters/snippets.ts';

const area = 'emoji-reactions';
type Ctx = RouteContext<unknown, unknown, Record<string, number>, 'project'>;

/**
 * A kind of object that takes reactions, found under a project by its own path parameter
 * (`:issue_iid`, `:merge_request_iid`, `:snippet_id`), and readable by the caller or a 404.
 */
export interface AwardableParent {
  /** Path segment under the project, e.g. `snippets`. */
  segment: string;
  param: string;
  /** The 404 a missing one answers, e.g. `Snippet`. */
  record: string;
  load: (ctx: Ctx, id: number) => Promise<Awardable>;
}

/** The four reaction routes under one awardable path. */
function awardRoutes(path: string, params: Record<string, ReturnType<typeof recordId>>, load: (ctx: Ctx) => Promise<Awardable>, what: string): RouteSpec[] {
  const withAwardable = { awardable: (ctx: Ctx) => load(ctx) };
  const withAward = { ...withAwardable, award: (ctx: Ctx & { awardable: Awardable }) => awards.findAward(ctx.db, ctx.awardable, ctx.params.award_id) };
  const awardParams = { ...params, award_id: recordId('Award Emoji') };
  return [
    defineRoute({
      method: 'get',
      path,
      area,
      summary: `List the emoji reactions on ${what}`,
      auth: 'optional',
      load: 'project',
      permission: 'read_project',
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
      permission: 'read_project',
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
      permission: 'read_project',
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
      permission: 'read_project',
      params: awardParams,
      with: withAward,
      handler: async (ctx) => awards.removeAward(ctx.db, ctx.baseUrl, ctx.actor, ctx.awardable, ctx.award),
    }),
  ];
}

export const snippetAwardable: AwardableParent = {
  segment: 'snippets',
  param: 'snippet_id',
  record: 'Snippet',
  load: async (ctx, id) => {
    const snippet = await snippets.findSnippet(ctx.db, ctx.actor, ctx.level, ctx.project, id);
    const view = await snippets.viewSnippet(ctx.db, ctx.project, snippet);
    return { type: 'Snippet', id: snippet.id, project: ctx.project, group: ctx.group, url: snippetWebUrl(ctx.baseUrl, view), hookObjects: { snippet: snippetHookObject(view) } };
  },
};

/** The parents whose objects take reactions; issues and merge requests join with their areas. */
const PARENTS: AwardableParent[] = [snippetAwardable];

export const emojiReactionRoutes: RouteSpec[] = PARENTS.flatMap((p) => {
  const path = `/projects/:id/${p.segment}/:${p.param}/award_emoji`;
  return awardRoutes(path, { [p.param]: recordId(p.record) }, (ctx) => p.load(ctx, ctx.params[p.param]), `a ${p.record.toLowerCase()}`);
});
