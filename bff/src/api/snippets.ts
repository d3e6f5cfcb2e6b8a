import { z } from 'zod';
import { snippet, snippetCreateBody, snippetListQuery, snippetUpdateBody } from '../../../shared/src/snippets.ts';
import { defineRoute, FileAnswer, type RouteContext } from '../http/route.ts';
import { recordId } from '../http/params.ts';
import { notFound } from '../util/errors.ts';
import { pageRequest } from '../db/pagination.ts';
import * as snippets from '../services/planning/snippets.ts';
import { presentSnippet, SNIPPET_REF } from '../presenters/snippets.ts';

const area = 'project-snippets';
const base = '/projects/:id/snippets';
type ProjectCtx = RouteContext<unknown, unknown, { snippet_id: number }, 'project'>;
/** The snippet named by :snippet_id among the project's, if the caller may see it. */
export const withSnippet = {
  params: { snippet_id: recordId('Snippet') },
  with: { snippet: (ctx: ProjectCtx) => snippets.findSnippet(ctx.db, ctx.actor, ctx.level, ctx.project, ctx.params.snippet_id) },
};

const PLAIN_TEXT = 'text/plain; charset=utf-8';
const plainText = (text: string) => new FileAnswer({ 'Content-Type': PLAIN_TEXT, 'X-Content-Type-Options': 'nosniff' }, text);

export const snippetRoutes = [
  defineRoute({
    method: 'get',
    path: base,
    area,
    summary: 'List the project’s snippets the caller may see',
    auth: 'optional',
    load: 'project',
    permission: 'read_project',
    query: snippetListQuery,
    response: z.array(snippet),
    handler: async (ctx) => snippets.listSnippets(ctx.db, ctx.actor, ctx.level, ctx.project, pageRequest(ctx.query)),
    present: presentSnippet,
  }),
  defineRoute({
    method: 'get',
    path: `${base}/:snippet_id`,
    area,
    summary: 'Get a project snippet',
    auth: 'optional',
    load: 'project',
    permission: 'read_project',
    ...withSnippet,
    response: snippet,
    handler: async (ctx) => snippets.viewSnippet(ctx.db, ctx.project, ctx.snippet),
    present: presentSnippet,
  }),
  defineRoute({
    method: 'post',
    path: base,
    area,
    summary: 'Create a snippet with `files` (or the deprecated `content` and `file_name`); Reporters and up',
    load: 'project',
    permission: 'create_snippet',
    body: snippetCreateBody,
    response: snippet,
    handler: async (ctx) => snippets.createSnippet(ctx.db, ctx.actor.user!, ctx.project, ctx.body),
    present: presentSnippet,
  }),
  defineRoute({
    method: 'put',
    path: `${base}/:snippet_id`,
    area,
    summary: 'Update a snippet: its author or a Maintainer; a snippet of several files changes through `files` actions',
    load: 'project',
    permission: 'create_snippet',
    ...withSnippet,
    body: snippetUpdateBody,
    response: snippet,
    handler: async (ctx) => snippets.updateSnippet(ctx.db, ctx.actor, ctx.level, await snippets.viewSnippet(ctx.db, ctx.project, ctx.snippet), ctx.body),
    present: presentSnippet,
  }),
  defineRoute({
    method: 'delete',
    path: `${base}/:snippet_id`,
    area,
    summary: 'Delete a snippet: its author or a Maintainer',
    load: 'project',
    permission: 'create_snippet',
    ...withSnippet,
    handler: async (ctx) => snippets.deleteSnippet(ctx.db, ctx.actor, ctx.level, ctx.snippet),
  }),
  defineRoute({
    method: 'get',
    path: `${base}/:snippet_id/raw`,
    area,
    summary: 'The snippet’s content as plain text (deprecated: its first file)',
    auth: 'optional',
    load: 'project',
    permission: 'read_project',
    ...withSnippet,
    file: [PLAIN_TEXT],
    handler: async (ctx) => plainText(await snippets.snippetContent(ctx.db, ctx.snippet)),
  }),
  defineRoute({
    method: 'get',
    path: `${base}/:snippet_id/files/:ref/:file_path/raw`,
    area,
    summary: 'One file of the snippet as plain text; `file_path` URL-encoded',
    auth: 'optional',
    load: 'project',
    permission: 'read_project',
    params: { ...withSnippet.params, ref: z.string().min(1).max(255), file_path: z.string().min(1).max(4096) },
    with: withSnippet.with,
    file: [PLAIN_TEXT],
    handler: async (ctx) => {
      // Snippets keep no history: their one ref (and HEAD) names the files as they are.
      if (ctx.params.ref !== SNIPPET_REF && ctx.params.ref !== 'HEAD') throw notFound('Reference');
      return plainText(await snippets.snippetFileContent(ctx.db, ctx.snippet, ctx.params.file_path));
    },
  }),
];
