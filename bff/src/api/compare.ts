import { comparison, compareQuery } from '../../../shared/src/compare.ts';
import { defineRoute } from '../http/route.ts';
import { compare } from '../services/git/compare.ts';
import { presentComparison } from '../presenters/compare.ts';
import { withRepository } from './branches.ts';

export const compareRoutes = [
  defineRoute({
    method: 'get',
    path: '/projects/:id/repository/compare',
    area: 'compare',
    summary: 'Compare two refs: the commits of to since from, and the diffs from their merge base (from itself when straight)',
    auth: 'optional',
    load: 'project',
    permission: 'download_code',
    ...withRepository,
    query: compareQuery,
    response: comparison,
    handler: async (ctx) => compare(ctx.repo.dir, ctx.query.from, ctx.query.to, ctx.query.straight ?? false),
    present: (c, ctx) => presentComparison(c, ctx.query, ctx.repo.projectUrl),
  }),
];
