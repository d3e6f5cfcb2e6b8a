import { z } from 'zod';
import {
  protectedBranch,
  protectedBranchCreateBody,
  protectedBranchListQuery,
  protectedBranchUpdateBody,
} from '../../../shared/src/protected-branches.ts';
import { defineRoute, type RouteContext } from '../http/route.ts';
import { recordKey } from '../http/params.ts';
import { pageRequest } from '../db/pagination.ts';
import * as protectedBranches from '../services/git/protected-branches.ts';
import { presentProtectedBranch } from '../presenters/protected-branches.ts';
import { callerRole } from './branches.ts';

const area = 'protected-branches';
const base = '/projects/:id/protected_branches';

type Ctx = RouteContext<unknown, unknown, unknown, 'project'>;

/** :name is the branch name or wildcard exactly (URL-encoded: `release%2F*`), as on the platform. */
const withProtectedBranch = {
  params: { name: recordKey('') },
  with: { protection: (ctx: Ctx & { params: { name: string } }) => protectedBranches.findProtectedBranch(ctx.db, ctx.project.id, ctx.params.name) },
};

export const protectedBranchRoutes = [
  defineRoute({
    method: 'get',
    path: base,
    area,
    summary: "List the project's protected branches and wildcards (search: part of the name) (Maintainer)",
    load: 'project',
    permission: 'admin_project',
    query: protectedBranchListQuery,
    response: z.array(protectedBranch),
    handler: async (ctx) => protectedBranches.listProtectedBranches(ctx.db, ctx.project.id, ctx.query, pageRequest(ctx.query)),
    present: presentProtectedBranch,
  }),
  defineRoute({
    method: 'get',
    path: `${base}/:name`,
    area,
    summary: 'Get a protected branch or wildcard (Maintainer)',
    load: 'project',
    permission: 'admin_project',
    ...withProtectedBranch,
    response: protectedBranch,
    handler: async (ctx) => ctx.protection,
    present: presentProtectedBranch,
  }),
  defineRoute({
    method: 'post',
    path: base,
    area,
    summary:
      'Protect a branch or wildcard: push_access_level, merge_access_level, unprotect_access_level (0, 30, 40, 60; default 40), allowed_to_* roles, allow_force_push; 409 when protected already (Maintainer)',
    load: 'project',
    permission: 'admin_project',
    body: protectedBranchCreateBody,
    status: 201,
    response: protectedBranch,
    errors: [409, 422],
    handler: async (ctx) => protectedBranches.protectBranch(ctx.db, ctx.project.id, ctx.body),
    present: presentProtectedBranch,
  }),
  defineRoute({
    method: 'patch',
    path: `${base}/:name`,
    area,
    summary: 'Update a protected branch: allow_force_push, code_owner_approval_required, allowed_to_* entries (add, change by id, _destroy) (Maintainer)',
    load: 'project',
    permission: 'admin_project',
    ...withProtectedBranch,
    body: protectedBranchUpdateBody,
    response: protectedBranch,
    errors: [422],
    handler: async (ctx) => protectedBranches.updateProtectedBranch(ctx.db, ctx.protection, ctx.body),
    present: presentProtectedBranch,
  }),
  defineRoute({
    method: 'delete',
    path: `${base}/:name`,
    area,
    summary: 'Unprotect a branch or wildcard (Maintainer; its unprotect access levels)',
    load: 'project',
    permission: 'admin_project',
    ...withProtectedBranch,
    handler: async (ctx) => protectedBranches.unprotectBranch(ctx.db, ctx.protection, callerRole(ctx)),
  }),
];
