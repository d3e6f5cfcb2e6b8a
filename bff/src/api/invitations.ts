import { z } from 'zod';
import { INVITE_EMAIL, invitation, invitationCreateBody, invitationListQuery, invitationResult, invitationUpdateBody } from '../../../shared/src/invitations.ts';
import { defineRoute, type RouteContext } from '../http/route.ts';
import { ApiError } from '../http/errors.ts';
import { recordKey } from '../http/params.ts';
import { pageRequest } from '../db/pagination.ts';
import { badRequest } from '../util/errors.ts';
import * as invitations from '../services/access/invitations.ts';
import type { MemberSource } from '../services/access/members.ts';
import { presentInvitation } from '../presenters/invitations.ts';

const area = 'invitations';
type Scope = 'groups' | 'projects';

function source(scope: Scope, ctx: RouteContext<unknown, unknown, unknown, 'group' | 'project'>): MemberSource & { name: string } {
  return scope === 'groups'
    ? { type: 'group', id: ctx.group.id, group: ctx.group, name: ctx.group.full_name }
    : { type: 'project', id: ctx.project!.id, group: ctx.group, name: `${ctx.group.full_name} / ${ctx.project!.name}` };
}

/** :email names a pending invitation; none is the platform's generic "404 Not found". */
const email = { email: recordKey('') };

/** Invitations by email to groups and projects, written once for both scopes (spec: Invitations). */
export function makeInvitationRoutes(scope: Scope) {
  const load = scope === 'groups' ? 'group' : 'project';
  // Owners of a group, Maintainers of a project: the platform's admin_group and admin_project.
  const permission = 'admin_invitations';
  const base = `/${scope}/:id/invitations`;
  const what = scope === 'groups' ? 'group' : 'project';
  return [
    defineRoute({
      method: 'post',
      path: base,
      area,
      summary: `Invite people to the ${what} by email (several separated by commas), or add users by id, in one request`,
      load,
      permission,
      body: invitationCreateBody,
      response: invitationResult,
      handler: async (ctx) => {
        const emails = (ctx.body.email ?? []).map((e) => e.trim()).filter(Boolean);
        const userIds = (ctx.body.user_id ?? []).map((id) => id.trim()).filter(Boolean);
        if (!emails.length && !userIds.length) throw badRequest('400 Bad request - Must provide either email or user_id as a parameter');
        // Grape's answer to a malformed address list, before anything is written.
        if (emails.some((e) => !INVITE_EMAIL.test(e))) throw new ApiError(400, { error: 'email contains an invalid email address' });
        if (userIds.some((id) => !/^\d{1,9}$/.test(id))) throw new ApiError(400, { error: 'user_id is invalid' });
        return invitations.invite(
          ctx.db,
          ctx.config,
          ctx.actor,
          ctx.level,
          source(scope, ctx),
          { emails, userIds: userIds.map(Number), access_level: ctx.body.access_level, expires_at: ctx.body.expires_at ?? null },
          (e) => ctx.req.log.warn({ err: e }, 'invitation email could not be sent'),
        );
      },
    }),
    defineRoute({
      method: 'get',
      path: base,
      area,
      summary: `List the ${what}'s pending invitations`,
      load,
      permission,
      query: invitationListQuery,
      response: z.array(invitation),
      handler: async (ctx) => invitations.listInvitations(ctx.db, source(scope, ctx), ctx.query.query, pageRequest(ctx.query)),
      present: presentInvitation,
    }),
    defineRoute({
      method: 'put',
      path: `${base}/:email`,
      area,
      summary: `Change a pending invitation's role or access expiry in the ${what}`,
      load,
      permission,
      params: email,
      body: invitationUpdateBody,
      response: invitation,
      handler: async (ctx) => {
        if (ctx.body.access_level === undefined && ctx.body.expires_at === undefined) throw badRequest('400 Bad request');
        return invitations.updateInvitation(ctx.db, ctx.actor, ctx.level, source(scope, ctx), ctx.params.email, ctx.body);
      },
      present: presentInvitation,
    }),
    defineRoute({
      method: 'delete',
      path: `${base}/:email`,
      area,
      summary: `Withdraw a pending invitation to the ${what}`,
      load,
      permission,
      params: email,
      handler: async (ctx) => invitations.deleteInvitation(ctx.db, ctx.actor, ctx.level, source(scope, ctx), ctx.params.email),
    }),
  ];
}

export const invitationRoutes = [...makeInvitationRoutes('groups'), ...makeInvitationRoutes('projects')];
