import { z } from 'zod';
import {
  basicRef,
  commitCommentBody,
  commitCreateBody,
  commitDetail,
  commitDiffQuery,
  commitGetQuery,
  commitListItem,
  commitListQuery,
  commitNote,
  commitRefsQuery,
} from '../../../shared/src/commits.ts';
import { diff } from '../../../shared/src/compare.ts';
import { paginationQuery } from '../../../shared/src/params.ts';
import { defineRoute } from '../http/route.ts';
import { Page, pageOfList, pageRequest } from '../db/pagination.ts';
import * as commits from '../services/git/commits.ts';
import { commitAsPush } from '../services/git/commit-create.ts';
import { createCommitNote, listCommitNotes } from '../services/git/commit-comments.ts';
import { fireCommitNoteHook } from '../services/planning/work-item-hook-payloads.ts';
import { commitMeta } from '../services/ci/pipelines.ts';
import { presentCommitDetail, presentCommitDiff, presentCommitListItem, presentCommitNote, presentRefOfCommit } from '../presenters/commits.ts';
import { callerRole, withRepository, type Ctx } from './branches.ts';

const area = 'commits';
const base = '/projects/:id/repository/commits';

/**
 * Where a commit made through the API goes and who makes it, for commitAsPush: the commits API
 * and the files API write through this one path, so the same checks and events apply to both.
 */
export function apiCommitTarget(ctx: Ctx & { repo: { dir: string; defaultBranch: string } }) {
  return { db: ctx.db, dir: ctx.repo.dir, defaultBranch: ctx.repo.defaultBranch, baseUrl: ctx.baseUrl, project: ctx.project, group: ctx.group, user: ctx.actor.user!, role: callerRole(ctx) };
}

/** A commit by SHA, branch or tag in the path. */
const shaParam = { sha: z.string().min(1).max(1024) };

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
    params: shaParam,
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
      const sha = await commitAsPush(apiCommitTarget(ctx), ctx.body);
      return commits.getCommit(ctx.repo.dir, sha, ctx.body.stats ?? true);
    },
    present: (c, ctx) => presentCommitDetail(c, ctx.project, ctx.repo.projectUrl),
  }),
  defineRoute({
    method: 'get',
    path: `${base}/:sha/diff`,
    area,
    summary: 'Get the diff of a commit against its first parent, a file an entry, paginated (unidiff: with the ---/+++ header lines)',
    auth: 'optional',
    load: 'project',
    permission: 'download_code',
    params: shaParam,
    ...withRepository,
    query: commitDiffQuery,
    response: z.array(diff),
    handler: async (ctx) => pageOfList(await commits.commitDiffs(ctx.repo.dir, ctx.params.sha), pageRequest(ctx.query)),
    present: (d, ctx) => presentCommitDiff(d, ctx.query.unidiff ?? false),
  }),
  defineRoute({
    method: 'get',
    path: `${base}/:sha/refs`,
    area,
    summary: 'List the branches and tags (type: branch, tag or all) that contain a commit',
    auth: 'optional',
    load: 'project',
    permission: 'download_code',
    params: shaParam,
    ...withRepository,
    query: commitRefsQuery,
    response: z.array(basicRef),
    handler: async (ctx) => pageOfList(await commits.refsContaining(ctx.repo.dir, ctx.params.sha, ctx.query.type ?? 'all'), pageRequest(ctx.query)),
    present: presentRefOfCommit,
  }),
  defineRoute({
    method: 'get',
    path: `${base}/:sha/comments`,
    area,
    summary: 'List the comments on a commit, oldest first',
    auth: 'optional',
    load: 'project',
    permission: 'download_code',
    params: shaParam,
    ...withRepository,
    query: paginationQuery,
    response: z.array(commitNote),
    handler: async (ctx) => {
      return listCommitNotes(ctx.db, ctx.repo.dir, ctx.project.id, ctx.params.sha, pageRequest(ctx.query));
    },
    present: (n, ctx) => presentCommitNote(n, ctx.baseUrl),
  }),
  defineRoute({
    method: 'post',
    path: `${base}/:sha/comments`,
    area,
    summary: 'Comment on a commit, on a line of its diff where path, line and line_type (new or old) name one',
    load: 'project',
    permission: 'download_code',
    params: shaParam,
    ...withRepository,
    body: commitCommentBody,
    response: commitNote,
    handler: async (ctx) => {
      const note = await createCommitNote(ctx.db, ctx.repo.dir, ctx.project.id, ctx.actor.user!, ctx.params.sha, ctx.body);
      await fireCommitNoteHook(ctx.db, { project: ctx.project, group: ctx.group, user: ctx.actor.user!, baseUrl: ctx.baseUrl }, note, await commitMeta(ctx.repo.dir, note.commit_sha));
      return note;
    },
    present: (n, ctx) => presentCommitNote(n, ctx.baseUrl),
  }),
];
