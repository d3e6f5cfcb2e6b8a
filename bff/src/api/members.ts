import { z } from 'zod';
import { member, memberCreateBody, memberListQuery, memberUpdateBody } from '../../../shared/src/members.ts';
import { allowed, defineRoute, type RouteContext } from '../http/route.ts';
import { pageRequest } from '../db/pagination.ts';
import { forbidden, notFound } from '../services/errors.ts';
import * as members from '../services/members.ts';
import { presentMember } from '../presenters/members.ts';

const area = 'members';
type Scope = 'groups' | 'projects';

function source(scope: Scope, ctx: RouteContext<unknown, unknown>): members.MemberSource {
  return scope === 'groups' ? { type: 'group', id: ctx.group.id, group: ctx.group } : { type: 'project', id: ctx.project.id, group: ctx.group };
}

function userIdParam(ctx: RouteContext<unknown, unknown>): number {
  const id = ctx.params.user_id;
  if (!/^\d+$/.test(id) || Number(id) > 2_147_483_647) throw notFound('Member');
  return Number(id);
}

/** Members of groups and of projects, written once for both scopes. */
export function makeMembersRoutes(scope: Scope) {
  const load = scope === 'groups' ? 'group' : 'project';
  const read = 'read_members';
  const admin = 'admin_members';
  const base = `/${scope}/:id/members`;
  const what = scope === 'groups' ? 'group' : 'project';
  const list = (inherited: boolean) =>
    defineRoute({
      method: 'get',
      path: inherited ? `${base}/all` : base,
      area,
      summary: inherited ? `List the ${what}'s members, inherited ones included` : `List the ${what}'s direct members`,
      auth: 'optional',
      load,
      permission: read,
      query: memberListQuery,
      response: z.array(member),
      errors: [400, 401, 404],
      handler: async (ctx) =>
        members.listMembers(
          ctx.db,
          source(scope, ctx),
          { inherited, query: ctx.query.query, userIds: ctx.query.user_ids },
          pageRequest(ctx.query),
        ),
      present: (m, ctx) => presentMember(m, ctx.baseUrl),
    });
  const get = (inherited: boolean) =>
    defineRoute({
      method: 'get',
      path: inherited ? `${base}/all/:user_id` : `${base}/:user_id`,
      area,
      summary: inherited ? `Get a member of the ${what}, inherited ones included` : `Get a direct member of the ${what}`,
      auth: 'optional',
      load,
      permission: read,
      response: member,
      errors: [401, 404],
      handler: async (ctx) => presentMember(await members.getMember(ctx.db, source(scope, ctx), userIdParam(ctx), inherited), ctx.baseUrl),
    });
  return [
    list(false),
    list(true),
    get(false),
    get(true),
    defineRoute({
      method: 'post',
      path: base,
      area,
      summary: `Add a member to the ${what}`,
      load,
      permission: admin,
      body: memberCreateBody,
      response: member,
      errors: [400, 401, 403, 404, 409],
      handler: async (ctx) => presentMember(await members.addMember(ctx.db, ctx.actor, ctx.level, source(scope, ctx), ctx.body), ctx.baseUrl),
    }),
    defineRoute({
      method: 'put',
      path: `${base}/:user_id`,
      area,
      summary: `Change a member's role or expiry in the ${what}`,
      load,
      permission: admin,
      body: memberUpdateBody,
      response: member,
      errors: [400, 401, 403, 404],
      handler: async (ctx) =>
        presentMember(await members.updateMember(ctx.db, ctx.actor, ctx.level, source(scope, ctx), userIdParam(ctx), ctx.body), ctx.baseUrl),
    }),
    defineRoute({
      method: 'delete',
      path: `${base}/:user_id`,
      area,
      summary: `Remove a member from the ${what} (any member may remove themselves: leave)`,
      load,
      // Leaving needs only read access; removing someone else needs the admin action, checked below.
      permission: read,
      errors: [401, 403, 404],
      handler: async (ctx) => {
        const userId = userIdParam(ctx);
        if (userId !== ctx.actor.user?.id && !allowed('admin_members', ctx)) throw forbidden();
        return members.removeMember(ctx.db, ctx.actor, ctx.level, source(scope, ctx), userId);
      },
    }),
  ];
}

export const memberRoutes = [...makeMembersRoutes('groups'), ...makeMembersRoutes('projects')];
