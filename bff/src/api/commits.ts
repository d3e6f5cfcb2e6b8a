import { z } from 'zod';
import { commitCreateBody, commitDetail, commitGetQuery, commitListItem, commitListQuery } from '../../../shared/src/commits.ts';
import { defineRoute } from '../http/route.ts';
import { Page, pageRequest } from '../db/pagination.ts';
import * as commits from '../services/git/commits.ts';
import { commitAsPush } from '../services/git/commit-create.ts';
import { presentCommitDetail, presentCommitListItem } from '../presenters/commits.ts';
import { callerRole, withRepository } from './branches.ts';

const area = 'commits';
const base = '/projects/:id/repository/commits';

export const commitRoutes = [
  defineRoute({
    method: 'get',
    path: base,
    area,
    summary: 'List commits of a ref (the default branch by default) or of every ref (all), newest first; since, until, path, first_parent, order, with_stats',
    auth: 'optional',
    load: 'project',
    permission: 'download_code',
    ...withRepository,
    query: commitListQuery,
    response: z.array(commitListItem),
    handler: async (ctx) => {
      const page = pageRequest(ctx.query);
      const { items, total } = await commits.listCommits(ctx.repo.dir, ctx.repo.defaultBranch, ctx.query, page);
      return new Page(items, page.page, page.perPage, total);
    },
    present: (c, ctx) => presentCommitListItem(c, ctx.repo.projectUrl),
  }),
  defineRoute({
    method: 'get',
    path: `${base}/:sha`,
    area,
    summary: 'Get a commit by SHA, branch or tag, with its stats',
    auth: 'optional',
    load: 'project',
    permission: 'download_code',
    params: { sha: z.string().min(1).max(1024) },
    ...withRepository,
    query: commitGetQuery,
    response: commitDetail,
    handler: async (ctx) => commits.getCommit(ctx.repo.dir, ctx.params.sha, ctx.query.stats ?? true),
    present: (c, ctx) => presentCommitDetail(c, ctx.project, ctx.repo.projectUrl),
  }),
  defineRoute({
    method: 'post',
    path: base,
    area,
    summary: 'Commit several file changes (create, delete, move, update, chmod) to a branch (Developer; the default branch: Maintainer)',
    load: 'project',
    permission: 'push_code',
    ...withRepository,
    body: commitCreateBody,
    response: commitDetail,
    handler: async (ctx) => {
      const user = ctx.actor.user!;
      const { dir, defaultBranch } = ctx.repo;
      const sha = await commitAsPush({ db: ctx.db, dir, defaultBranch, baseUrl: ctx.baseUrl, project: ctx.project, group: ctx.group, user, role: callerRole(ctx) }, ctx.body);
      return commits.getCommit(dir, sha, ctx.body.stats ?? true);
    },
    present: (c, ctx) => presentCommitDetail(c, ctx.project, ctx.repo.projectUrl),
  }),
];
