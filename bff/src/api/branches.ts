import { z } from 'zod';
import { branch, branchCreateBody, branchListQuery } from '../../../shared/src/branches.ts';
import { defineRoute, type RouteContext } from '../http/route.ts';
import { pageOfList, pageRequest } from '../db/pagination.ts';
import { canProject } from '../policies/index.ts';
import { DEFAULT_BRANCH, ensureRepository } from '../services/git/repositories.ts';
import { refUpdateRefusals } from '../services/git/push-checks.ts';
import * as branches from '../services/git/branches.ts';
import { presentBranch } from '../presenters/branches.ts';
import type { BranchInfo } from '../services/git/branches.ts';
import { branchProtections, matching, writerRole, type BranchProtection, type WriterRole } from '../services/git/protected-refs.ts';
import { isAdmin, type Actor } from '../auth/actor.ts';

const area = 'branches';
const base = '/projects/:id/repository/branches';

export type Ctx = RouteContext<unknown, unknown, unknown, 'project'>;

/** The project's repository (made empty on first use), its default branch and the project's web address. */
export const withRepository = {
  with: {
    repo: async (ctx: Ctx) => ({
      dir: await ensureRepository(ctx.db, ctx.config.repositoriesDir, ctx.project),
      defaultBranch: ctx.project.default_branch ?? DEFAULT_BRANCH,
      projectUrl: `${ctx.baseUrl}/${ctx.project.path_with_namespace}`,
    }),
  },
};

/** The caller's role as protected branches and tags read it (an administrator above every role). */
export const callerRole = (ctx: { actor: Actor; level: number }): WriterRole => writerRole(isAdmin(ctx.actor), ctx.level);

/** The check of a ref the caller makes or deletes through the API: the one a push of it meets (services/push-checks.ts). */
export const refCheck = (ctx: Ctx & { repo: { dir: string } }): branches.RefCheck => {
  const write = { role: callerRole(ctx), via: 'web' as const };
  return (update) => refUpdateRefusals({ db: ctx.db, dir: ctx.repo.dir, project: ctx.project, user: ctx.actor.user ?? null, write }, [update]);
};

/** The project's protected branches, read once for a page of branches. */
const withProtections = {
  with: {
    ...withRepository.with,
    protections: (ctx: Ctx) => branchProtections(ctx.db, ctx.project.id),
  },
};

const present = (b: BranchInfo, ctx: Ctx & { repo: { defaultBranch: string; projectUrl: string }; protections: BranchProtection[] }) => {
  const subject = { project: ctx.project, group: ctx.group, level: ctx.level };
  return presentBranch(b, {
    projectUrl: ctx.repo.projectUrl,
    defaultBranch: ctx.repo.defaultBranch,
    protections: matching(ctx.protections, b.name),
    canPush: canProject(ctx.actor, 'push_code', subject),
    role: callerRole(ctx),
  });
};

/** A branch name in the path (slashes sent as %2F): a name that cannot exist is a missing branch. */
const branchParam = { branch: z.string().min(1).max(255) };

export const branchRoutes = [
  defineRoute({
    method: 'get',
    path: base,
    area,
    summary: 'List the repository’s branches (search: part of the name, ^ and $ anchor it; regex: RE2)',
    auth: 'optional',
    load: 'project',
    permission: 'download_code',
    ...withProtections,
    query: branchListQuery,
    response: z.array(branch),
    handler: async (ctx) => pageOfList(await branches.listBranches(ctx.repo.dir, ctx.repo.defaultBranch, ctx.query), pageRequest(ctx.query)),
    present,
  }),
  defineRoute({
    method: 'get',
    path: `${base}/:branch`,
    area,
    summary: 'Get a branch',
    auth: 'optional',
    load: 'project',
    permission: 'download_code',
    params: branchParam,
    ...withProtections,
    response: branch,
    handler: async (ctx) => branches.getBranch(ctx.repo.dir, ctx.repo.defaultBranch, ctx.params.branch),
    present,
  }),
  defineRoute({
    method: 'post',
    path: base,
    area,
    summary: 'Create a branch at a ref (Developer)',
    load: 'project',
    permission: 'push_code',
    ...withProtections,
    body: branchCreateBody,
    response: branch,
    handler: async (ctx) => branches.createBranch(ctx.repo.dir, ctx.repo.defaultBranch, ctx.body.branch, ctx.body.ref, refCheck(ctx)),
    present,
  }),
  defineRoute({
    method: 'delete',
    path: `${base}/:branch`,
    area,
    summary: 'Delete a branch (Developer; not the default branch)',
    load: 'project',
    permission: 'push_code',
    params: branchParam,
    ...withProtections,
    handler: async (ctx) => branches.deleteBranch(ctx.repo.dir, ctx.repo.defaultBranch, ctx.params.branch, refCheck(ctx)),
  }),
];
