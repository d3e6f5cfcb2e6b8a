import { z } from 'zod';
import {
  groupCreateBody,
  groupDetail,
  groupDetailQuery,
  groupListItem,
  groupListQuery,
  groupUpdateBody,
} from '../../../shared/src/groups.ts';
import { defineRoute, FileAnswer, type RouteContext } from '../http/route.ts';
import { pageRequest, type Page } from '../db/pagination.ts';
import { canGroup, canInstance } from '../policies/index.ts';
import * as groups from '../services/groups/groups.ts';
import { revokeLeakedToken } from '../services/access/token-revocation.ts';
import { revokedToken, tokenRevocationBody } from '../../../shared/src/token-revocation.ts';
import { namespacesOf, projectsOfGroup } from '../services/groups/projects.ts';
import { presentGroupDetail, presentGroupListItem, type GroupExtras } from '../presenters/groups.ts';
import { presentProject, presentProjectSimple } from '../presenters/projects.ts';
import { groupProjectListQuery, projectSimple, projectSummary } from '../../../shared/src/projects.ts';
import { listProjects } from '../services/groups/projects.ts';
import type { GroupRow, ProjectRow } from '../db/schema.ts';

const area = 'groups';

/** List items with the administrator-only extras asked for (statistics, custom attributes). */
async function listItems(ctx: RouteContext<z.infer<typeof groupListQuery>>, page: Page<groups.GroupListRow>) {
  const admin = canInstance(ctx.actor, 'read_admin_fields');
  const sizes = ctx.query.statistics && admin ? await groups.groupStatistics(ctx.db, page.items) : undefined;
  const custom = ctx.query.with_custom_attributes && admin ? await groups.customAttributesOf(ctx.db, 'group', page.items.map((g) => g.id)) : undefined;
  return page.map((group) => ({ group, storageSize: sizes?.get(group.id), customAttributes: custom ? (custom.get(group.id) ?? []) : undefined }));
}

/**
 * A list item. A kept row (frozen: db/index.ts, prepared) shown without extras is presented
 * once per base URL, the item frozen, so that its JSON is written once too (app.ts, sendJson):
 * the row is replaced, not changed, when the group changes.
 */
function presentListItem(group: groups.GroupListRow, baseUrl: string, extras: GroupExtras) {
  if (!Object.isFrozen(group) || extras.storageSize !== undefined || extras.customAttributes) return presentGroupListItem(group, baseUrl, extras);
  const kept = presentedRows.get(group);
  if (kept?.baseUrl === baseUrl) return kept.item;
  const item = Object.freeze(presentGroupListItem(group, baseUrl));
  presentedRows.set(group, { baseUrl, item });
  return item;
}
const presentedRows = new WeakMap<object, { baseUrl: string; item: ReturnType<typeof presentGroupListItem> }>();

/** What the group detail shows this caller: the group, and the projects and extras asked for. */
interface GroupDetail {
  group: GroupRow;
  level: number;
  projects?: ProjectRow[];
  namespaces: Map<number, GroupRow>;
  customAttributes?: { key: string; value: string }[];
}

async function detail(ctx: RouteContext, group: GroupRow, level: number, opts: { withProjects: boolean; withCustomAttributes: boolean }): Promise<GroupDetail> {
  const admin = canInstance(ctx.actor, 'read_admin_fields');
  const projects = opts.withProjects ? await projectsOfGroup(ctx.db, ctx.actor, group.id, 100, level) : undefined;
  const namespaces = projects ? await namespacesOf(ctx.db, projects, [group]) : new Map<number, GroupRow>();
  const customAttributes = opts.withCustomAttributes && admin ? ((await groups.customAttributesOf(ctx.db, 'group', [group.id])).get(group.id) ?? []) : undefined;
  return { group, level, projects, namespaces, customAttributes };
}

const presentDetail = (d: GroupDetail, ctx: RouteContext) =>
  presentGroupDetail(d.group, ctx.baseUrl, {
    showSettings: canGroup(ctx.actor, 'read_group_settings', { group: d.group, level: d.level }),
    projects: d.projects?.map((p) => presentProject(p, d.namespaces.get(p.namespace_id)!, ctx.baseUrl, ctx.config.repositoriesDir)),
    sharedProjects: d.projects ? [] : undefined,
    customAttributes: d.customAttributes,
  });

export const groupRoutes = [
  defineRoute({
    method: 'get',
    path: '/groups',
    area,
    summary: 'List groups visible to the caller',
    auth: 'optional',
    query: groupListQuery,
    response: z.array(groupListItem),
    handler: async (ctx) => listItems(ctx, await groups.listGroups(ctx.db, ctx.actor, ctx.query, pageRequest(ctx.query))),
    present: ({ group, ...extras }, ctx) => presentListItem(group, ctx.baseUrl, extras),
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
    handler: async (ctx) =>
      listItems(ctx, await groups.listGroups(ctx.db, ctx.actor, ctx.query, pageRequest(ctx.query), { parentId: ctx.group.id })),
    present: ({ group, ...extras }, ctx) => presentListItem(group, ctx.baseUrl, extras),
  }),
  defineRoute({
    method: 'get',
    path: '/groups/:id/descendant_groups',
    area: 'groups',
    summary: 'List the visible groups under a group at any depth (same filters as GET /groups/:id/subgroups)',
    auth: 'optional',
    load: 'group',
    query: groupListQuery,
    response: z.array(groupListItem),
    handler: async (ctx) =>
      listItems(ctx, await groups.listGroups(ctx.db, ctx.actor, ctx.query, pageRequest(ctx.query), { descendantsOf: ctx.group })),
    present: ({ group, ...extras }, ctx) => presentListItem(group, ctx.baseUrl, extras),
  }),
  defineRoute({
    method: 'get',
    path: '/groups/:id/projects',
    area: 'groups',
    summary: 'List the visible projects of a group (include_subgroups, include_ancestor_groups, archived, visibility, search, owned, min_access_level, order_by, sort, simple)',
    auth: 'optional',
    load: 'group',
    query: groupProjectListQuery,
    response: z.array(z.union([projectSummary, projectSimple])),
    handler: async (ctx) => {
      const page = await listProjects(ctx.db, ctx.actor, ctx.query, pageRequest(ctx.query), ctx.group);
      const namespaces = await namespacesOf(ctx.db, page.items, [ctx.group]);
      return page.map((project) => ({ project, namespace: namespaces.get(project.namespace_id)! }));
    },
    present: ({ project, namespace }, ctx) =>
      (ctx.query.simple ? presentProjectSimple : presentProject)(project, namespace, ctx.baseUrl, ctx.config.repositoriesDir),
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
    handler: async (ctx) =>
      detail(ctx, ctx.group, ctx.level, { withProjects: ctx.query.with_projects ?? true, withCustomAttributes: ctx.query.with_custom_attributes ?? false }),
    present: presentDetail,
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
    handler: async (ctx) => {
      let group = await groups.updateGroup(ctx.db, ctx.actor, ctx.group, ctx.body);
      if (ctx.file) await groups.setGroupAvatar(ctx.db, group, ctx.file);
      else if (ctx.body.avatar === '' || ctx.body.avatar === null) await groups.removeGroupAvatar(ctx.db, group);
      group = (await groups.findGroup(ctx.db, String(group.id)))!;
      return detail(ctx, group, ctx.level, { withProjects: true, withCustomAttributes: false });
    },
    present: presentDetail,
  }),
  defineRoute({
    method: 'post',
    path: '/groups',
    area,
    summary: 'Create a group or subgroup (not shown in the spec; the platform’s usual shape)',
    body: groupCreateBody,
    response: groupDetail,
    errors: [404],
    handler: async (ctx) => {
      const group = await groups.createGroupAs(ctx.db, ctx.actor, ctx.body);
      // The creator is the new group's Owner.
      return detail(ctx, group, 50, { withProjects: true, withCustomAttributes: false });
    },
    present: presentDetail,
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
    handler: async (ctx) => revokeLeakedToken(ctx.db, ctx.group, ctx.body.token),
  }),
  defineRoute({
    method: 'get',
    path: '/groups/:id/avatar',
    area,
    summary: 'Download the group avatar',
    auth: 'optional',
    load: 'group',
    file: Object.keys(groups.AVATAR_TYPES),
    handler: async (ctx) => {
      const upload = await groups.getGroupAvatar(ctx.db, ctx.group);
      const headers = { 'Content-Type': upload.content_type, 'Content-Disposition': `attachment; filename="${upload.filename}"`, 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'private, max-age=60' };
      return new FileAnswer(headers, Buffer.from(upload.data));
    },
  }),
];
