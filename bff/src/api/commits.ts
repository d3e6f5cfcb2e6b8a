import { z } from 'zod';
import { commitCreateBody, commitDetail, commitGetQuery, commitListItem, commitListQuery } from '../../../shared/src/commits.ts';
import { defineRoute } from '../http/route.ts';
import { Page, pageRequest } from '../db/pagination.ts';
import { canProject } from '../policies/index.ts';
import * as commits from '../services/commits.ts';
import { createCommit } from '../services/commit-create.ts';
import { presentCommitDetail, presentCommitListItem } from '../presenters/commits.ts';
import { withRepository } from './branches.ts';
import { pushRuleOf } from '../services/group-push-rules.ts';
import { checkPush } from '../services/push-checks.ts';
import { recordPush } from '../services/push-events.ts';
import type { RefUpdate } from '../services/push-git.ts';

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
      const mayWriteProtected = canProject(ctx.actor, 'push_to_default_branch', { project: ctx.project, group: ctx.group, level: ctx.level });
      const { db, project, group } = ctx;
      const { dir, defaultBranch } = ctx.repo;
      // As a push of the commit would be: checked against the project's push rule before the
      // branch moves, then a push event and the "pushed" activity.
      const rule = await pushRuleOf(db, { scope: 'projects', id: project.id });
      const check = (update: RefUpdate) => checkPush({ db, dir, env: {}, defaultBranch, mayPushProtected: mayWriteProtected, rule, user }, [update]);
      const update = await createCommit(dir, defaultBranch, ctx.body, { name: user.name, email: user.email, mayWriteProtected, check });
      await recordPush({ db, dir, baseUrl: ctx.baseUrl, project, group, user }, [update]);
      return commits.getCommit(dir, update.after, ctx.body.stats ?? true);
    },
    present: (c, ctx) => presentCommitDetail(c, ctx.project, ctx.repo.projectUrl),
  }),
];
