import { z } from 'zod';
import {
  groupCreateBody,
  groupDetail,
  groupDetailQuery,
  groupListItem,
  groupListQuery,
  groupUpdateBody,
} from '../../../shared/src/groups.ts';
import { defineRoute, type RouteContext } from '../http/route.ts';
import { pageRequest, type Page } from '../db/pagination.ts';
import { canGroup, canInstance } from '../policies/index.ts';
import * as groups from '../services/groups.ts';
import { revokeLeakedToken } from '../services/token-revocation.ts';
import { revokedToken, tokenRevocationBody } from '../../../shared/src/token-revocation.ts';
import { namespacesOf, projectsOfGroup } from '../services/projects.ts';
import { presentGroupDetail, presentGroupListItem } from '../presenters/groups.ts';
import { presentProject } from '../presenters/projects.ts';
import type { GroupRow } from '../db/schema.ts';

const area = 'groups';

/** List items with the administrator-only extras asked for (statistics, custom attributes). */
async function listItems(ctx: RouteContext<z.infer<typeof groupListQuery>, unknown>, page: Page<GroupRow>) {
  const admin = canInstance(ctx.actor, 'read_admin_fields');
  const sizes = ctx.query.statistics && admin ? await groups.groupStatistics(ctx.db, page.items) : undefined;
  const custom = ctx.query.with_custom_attributes && admin ? await groups.customAttributesOf(ctx.db, 'group', page.items.map((g) => g.id)) : undefined;
  return page.map((group) => ({ group, storageSize: sizes?.get(group.id), customAttributes: custom ? (custom.get(group.id) ?? []) : undefined }));
}

/** The group detail as this caller may see it. */
async function detail(ctx: RouteContext<unknown, unknown>, group: GroupRow, opts: { withProjects: boolean; withCustomAttributes: boolean }) {
  const admin = canInstance(ctx.actor, 'read_admin_fields');
  const projects = opts.withProjects ? await projectsOfGroup(ctx.db, ctx.actor, group.id, 100) : undefined;
  const namespaces = projects ? await namespacesOf(ctx.db, projects) : new Map();
  const custom = opts.withCustomAttributes && admin ? (await groups.customAttributesOf(ctx.db, 'group', [group.id])).get(group.id) ?? [] : undefined;
  return presentGroupDetail(group, ctx.baseUrl, {
    showSettings: canGroup(ctx.actor, 'read_group_settings', { group, level: ctx.level }),
    projects: projects?.map((p) => presentProject(p, namespaces.get(p.namespace_id)!, ctx.baseUrl)),
    sharedProjects: opts.withProjects ? [] : undefined,
    customAttributes: custom,
  });
}

export const groupRoutes = [
  defineRoute({
    method: 'get',
    path: '/groups',
    area,
    summary: 'List groups visible to the caller',
    auth: 'optional',
    query: groupListQuery,
    response: z.array(groupListItem),
    errors: [400, 401],
    handler: async (ctx) => listItems(ctx, await groups.listGroups(ctx.db, ctx.actor, ctx.query, pageRequest(ctx.query))),
    present: ({ group, ...extras }, ctx) => presentGroupListItem(group, ctx.baseUrl, extras),
  }),
  defineRoute({
    method: 'get',
    path: '/groups/:id/subgroups',
    area: 'groups',
    summary: 'List the visible subgroups of a group (the platform’s usual shape; same filters as GET /groups)',
    auth: 'optional',
    load: 'group',
    query: groupListQuery,
    response: z.array(groupListItem),
    errors: [400, 401, 404],
    handler: async (ctx) =>
      listItems(ctx, await groups.listGroups(ctx.db, ctx.actor, ctx.query, pageRequest(ctx.query), { parentId: ctx.group.id })),
    present: ({ group, ...extras }, ctx) => presentGroupListItem(group, ctx.baseUrl, extras),
  }),
  defineRoute({
    method: 'get',
    path: '/groups/:id',
    area,
    summary: 'Get a group',
    auth: 'optional',
    load: 'group',
    query: groupDetailQuery,
    response: groupDetail,
    errors: [401, 404],
    handler: async (ctx) =>
      detail(ctx, ctx.group, { withProjects: ctx.query.with_projects ?? true, withCustomAttributes: ctx.query.with_custom_attributes ?? false }),
  }),
  defineRoute({
    method: 'put',
    path: '/groups/:id',
    area,
    summary: 'Update a group (multipart with an avatar file to upload one; an empty avatar removes it)',
    load: 'group',
    permission: 'admin_group',
    body: groupUpdateBody,
    upload: 'avatar',
    response: groupDetail,
    errors: [400, 401, 403, 404],
    handler: async (ctx) => {
      let group = await groups.updateGroup(ctx.db, ctx.actor, ctx.group, ctx.body);
      if (ctx.file) await groups.setGroupAvatar(ctx.db, group, ctx.file);
      else if (ctx.body.avatar === '' || ctx.body.avatar === null) await groups.removeGroupAvatar(ctx.db, group);
      group = (await groups.findGroup(ctx.db, String(group.id)))!;
      return detail(ctx, group, { withProjects: true, withCustomAttributes: false });
    },
  }),
  defineRoute({
    method: 'post',
    path: '/groups',
    area,
    summary: 'Create a group or subgroup (not shown in the spec; the platform’s usual shape)',
    body: groupCreateBody,
    response: groupDetail,
    errors: [400, 401, 403, 404],
    handler: async (ctx) => {
      const group = await groups.createGroupAs(ctx.db, ctx.actor, ctx.body);
      ctx.level = 50;
      return detail(ctx, group, { withProjects: true, withCustomAttributes: false });
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/groups/:id',
    area,
    summary: 'Delete a group with its subgroups and projects',
    load: 'group',
    permission: 'remove_group',
    status: 202,
    response: z.object({ message: z.string() }),
    errors: [401, 403, 404],
    handler: async (ctx) => {
      await groups.deleteGroup(ctx.db, ctx.group);
      return { message: '202 Accepted' };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/groups/:id/tokens/revoke',
    area,
    summary: 'Revoke a leaked credential (personal or group access token, group deploy token, feed token) with access to this top-level group’s tree',
    load: 'group',
    permission: 'revoke_group_tokens',
    body: tokenRevocationBody,
    status: 200,
    response: revokedToken,
    errors: [400, 401, 403, 404],
    handler: async (ctx) => revokeLeakedToken(ctx.db, ctx.group, ctx.body.token),
  }),
  defineRoute({
    method: 'get',
    path: '/groups/:id/avatar',
    area,
    summary: 'Download the group avatar',
    auth: 'optional',
    load: 'group',
    errors: [401, 404],
    handler: async (ctx) => {
      const upload = await groups.getGroupAvatar(ctx.db, ctx.group);
      ctx.res
        .status(200)
        .set({
          'Content-Type': upload.content_type,
          'Content-Disposition': `attachment; filename="${upload.filename}"`,
          'X-Content-Type-Options': 'nosniff',
          'Cache-Control': 'private, max-age=60',
        })
        .send(Buffer.from(upload.data));
      return undefined;
    },
  }),
];
