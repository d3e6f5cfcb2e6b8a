import { z } from 'zod';
import { member, memberCreateBody, memberListQuery, memberUpdateBody } from '../../../shared/src/members.ts';
import { allowed, defineRoute, type RouteContext } from '../http/route.ts';
import { recordId } from '../http/params.ts';
import { pageRequest } from '../db/pagination.ts';
import { forbidden } from '../util/errors.ts';
import * as members from '../services/access/members.ts';
import { presentMember } from '../presenters/members.ts';

const area = 'members';
type Scope = 'groups' | 'projects';

function source(scope: Scope, ctx: RouteContext<unknown, unknown, unknown, 'group' | 'project'>): members.MemberSource {
  return scope === 'groups' ? { type: 'group', id: ctx.group.id, group: ctx.group } : { type: 'project', id: ctx.project!.id, group: ctx.group };
}

/** :user_id names a member: a malformed one is a member that does not exist. */
const userId = { user_id: recordId('Member') };

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
      params: userId,
      response: member,
      handler: async (ctx) => members.getMember(ctx.db, source(scope, ctx), ctx.params.user_id, inherited),
      present: (m, ctx) => presentMember(m, ctx.baseUrl),
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
      errors: [409],
      handler: async (ctx) => members.addMember(ctx.db, ctx.actor, ctx.level, source(scope, ctx), ctx.body),
      present: (m, ctx) => presentMember(m, ctx.baseUrl),
    }),
    defineRoute({
      method: 'put',
      path: `${base}/:user_id`,
      area,
      summary: `Change a member's role or expiry in the ${what}`,
      load,
      permission: admin,
      params: userId,
      body: memberUpdateBody,
      response: member,
      handler: async (ctx) => members.updateMember(ctx.db, ctx.actor, ctx.level, source(scope, ctx), ctx.params.user_id, ctx.body),
      present: (m, ctx) => presentMember(m, ctx.baseUrl),
    }),
    defineRoute({
      method: 'delete',
      path: `${base}/:user_id`,
      area,
      summary: `Remove a member from the ${what} (any member may remove themselves: leave)`,
      load,
      // Leaving needs only read access; removing someone else needs the admin action, checked below.
      permission: read,
      params: userId,
      handler: async (ctx) => {
        const { user_id } = ctx.params;
        if (user_id !== ctx.actor.user?.id && !allowed('admin_members', ctx)) throw forbidden();
        return members.removeMember(ctx.db, ctx.actor, ctx.level, source(scope, ctx), user_id);
      },
    }),
  ];
}

export const memberRoutes = [...makeMembersRoutes('groups'), ...makeMembersRoutes('projects')];
