import { z } from 'zod';
import { protectedTag, protectedTagCreateBody, protectedTagListQuery } from '../../../shared/src/protected-tags.ts';
import { defineRoute, type RouteContext } from '../http/route.ts';
import { recordKey } from '../http/params.ts';
import { pageRequest } from '../db/pagination.ts';
import * as protectedTags from '../services/git/protected-tags.ts';
import { presentProtectedTag } from '../presenters/protected-tags.ts';

const area = 'protected-tags';
const base = '/projects/:id/protected_tags';

type Ctx = RouteContext<unknown, unknown, unknown, 'project'>;

/** :name is the tag name or wildcard exactly (URL-encoded), as on the platform. */
const withProtectedTag = {
  params: { name: recordKey('') },
  with: { protection: (ctx: Ctx & { params: { name: string } }) => protectedTags.findProtectedTag(ctx.db, ctx.project.id, ctx.params.name) },
};

export const protectedTagRoutes = [
  defineRoute({
    method: 'get',
    path: base,
    area,
    summary: "List the project's protected tags and wildcards (Maintainer)",
    load: 'project',
    permission: 'admin_project',
    query: protectedTagListQuery,
    response: z.array(protectedTag),
    handler: async (ctx) => protectedTags.listProtectedTags(ctx.db, ctx.project.id, ctx.query, pageRequest(ctx.query)),
    present: presentProtectedTag,
  }),
  defineRoute({
    method: 'get',
    path: `${base}/:name`,
    area,
    summary: 'Get a protected tag or wildcard (Maintainer)',
    load: 'project',
    permission: 'admin_project',
    ...withProtectedTag,
    response: protectedTag,
    handler: async (ctx) => ctx.protection,
    present: presentProtectedTag,
  }),
  defineRoute({
    method: 'post',
    path: base,
    area,
    summary: 'Protect a tag or wildcard: create_access_level (0, 30, 40, 60; default 40) or allowed_to_create roles; 422 when protected already (Maintainer)',
    load: 'project',
    permission: 'admin_project',
    body: protectedTagCreateBody,
    status: 201,
    response: protectedTag,
    errors: [422],
    handler: async (ctx) => protectedTags.protectTag(ctx.db, ctx.project.id, ctx.body),
    present: presentProtectedTag,
  }),
  defineRoute({
    method: 'delete',
    path: `${base}/:name`,
    area,
    summary: 'Unprotect a tag or wildcard (Maintainer)',
    load: 'project',
    permission: 'admin_project',
    ...withProtectedTag,
    handler: async (ctx) => protectedTags.unprotectTag(ctx.db, ctx.protection),
  }),
];
