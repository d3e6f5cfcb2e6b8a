import { z } from 'zod';
import { contextCommit, contextCommitsBody, createdContextCommit } from '../../../shared/src/context-commits.ts';
import { defineRoute, type RouteContext } from '../http/route.ts';
import { fromZodError } from '../http/errors.ts';
import { pageOfList, pageRequest } from '../db/pagination.ts';
import { paginationQuery } from '../../../shared/src/params.ts';
import { ensureRepository } from '../services/git/repositories.ts';
import { mergeRequestLoader } from './merge-requests.ts';
import * as contextCommits from '../services/planning/context-commits.ts';
import { presentContextCommit, presentCreatedContextCommit } from '../presenters/context-commits.ts';

const area = 'merge-request-context-commits';
const path = '/projects/:id/merge_requests/:merge_request_iid/context_commits';

type Ctx = RouteContext<unknown, unknown, { merge_request_iid: number }, 'project'>;
const withMergeRequest = {
  params: mergeRequestLoader.params,
  with: {
    ...mergeRequestLoader.with,
    dir: (ctx: Ctx) => ensureRepository(ctx.db, ctx.config.repositoriesDir, ctx.project),
  },
};

export const contextCommitRoutes = [
  defineRoute({
    method: 'get',
    path,
    area,
    summary: 'The commits a merge request names besides its own (context commits)',
    auth: 'optional',
    load: 'project',
    permission: 'download_code',
    ...withMergeRequest,
    response: z.array(contextCommit),
    query: paginationQuery,
    handler: async (ctx) => pageOfList(await contextCommits.listContextCommits(ctx.db, ctx.dir, ctx.mergeRequest), pageRequest(ctx.query)),
    present: presentContextCommit,
  }),
  defineRoute({
    method: 'post',
    path,
    area,
    summary: 'Add context commits to a merge request: commits of the repository by SHA; unknown or already added ones are refused (Developer)',
    load: 'project',
    permission: 'push_code',
    ...withMergeRequest,
    body: contextCommitsBody,
    response: z.array(createdContextCommit),
    handler: async (ctx) => contextCommits.addContextCommits(ctx.db, ctx.dir, ctx.mergeRequest, ctx.body.commits),
    present: (c, ctx) => presentCreatedContextCommit(c, `${ctx.baseUrl}/${ctx.project.path_with_namespace}`),
  }),
  defineRoute({
    method: 'delete',
    path,
    area,
    summary: 'Remove context commits from a merge request (Developer)',
    load: 'project',
    permission: 'push_code',
    ...withMergeRequest,
    handler: async (ctx) => {
      // A DELETE's body is not parsed by the route layer (it reads the query): clients send `commits` in the body.
      const parsed = contextCommitsBody.safeParse({ ...(ctx.req.query as object), ...((ctx.req.body as object | undefined) ?? {}) });
      if (!parsed.success) throw fromZodError(parsed.error);
      await contextCommits.removeContextCommits(ctx.db, ctx.dir, ctx.mergeRequest, parsed.data.commits);
    },
  }),
];
