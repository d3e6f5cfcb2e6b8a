import { z } from 'zod';
import { scimIdentity, scimIdentityUpdateBody, scimToken, scimTokenWithToken } from '../../../shared/src/scim-identities.ts';
import { paginationQuery } from '../../../shared/src/params.ts';
import { defineRoute } from '../http/route.ts';
import { pageRequest } from '../db/pagination.ts';
import { recordKey } from '../http/params.ts';
import * as scim from '../services/access/scim-identities.ts';
import type { ScimIdentityRow } from '../db/schema.ts';
import { bool } from '../util/rows.ts';

const area = 'scim-identities';

const presentIdentity = (r: ScimIdentityRow) => ({ extern_uid: r.extern_uid, user_id: r.user_id, active: bool(r.active) });

export const scimIdentityRoutes = [
  defineRoute({
    method: 'get',
    path: '/groups/:id/scim/identities',
    area,
    summary: 'List the SCIM identities of a group (Owner)',
    load: 'group',
    permission: 'admin_group',
    query: paginationQuery,
    response: z.array(scimIdentity),
    handler: async (ctx) => scim.listIdentities(ctx.db, ctx.group, pageRequest(ctx.query)),
    present: presentIdentity,
  }),
  defineRoute({
    method: 'get',
    path: '/groups/:id/scim/token',
    area,
    summary: 'When the group’s SCIM token was made (404 when none); the token itself is shown only once',
    load: 'group',
    permission: 'admin_group',
    response: scimToken,
    handler: async (ctx) => scim.scimTokenInfo(ctx.db, ctx.group),
  }),
  defineRoute({
    method: 'post',
    path: '/groups/:id/scim/token',
    area,
    summary: 'Make a new SCIM token for the group’s identity provider (the previous one stops working); plaintext returned once',
    load: 'group',
    permission: 'admin_group',
    response: scimTokenWithToken,
    handler: async (ctx) => {
      const { plaintext, created_at } = await scim.resetScimToken(ctx.db, ctx.group);
      return { token: plaintext, created_at, scim_api_url: `${ctx.baseUrl}/api/scim/v2/groups/${encodeURIComponent(ctx.group.full_path)}` };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/groups/:id/scim/:uid',
    area,
    summary: 'Get a SCIM identity by its external UID',
    load: 'group',
    permission: 'admin_group',
    params: { uid: recordKey('Identity') },
    response: scimIdentity,
    handler: async (ctx) => scim.getIdentity(ctx.db, ctx.group, ctx.params.uid),
    present: presentIdentity,
  }),
  defineRoute({
    method: 'patch',
    path: '/groups/:id/scim/:uid',
    area,
    summary: 'Change the external UID of a SCIM identity',
    load: 'group',
    permission: 'admin_group',
    params: { uid: recordKey('Identity') },
    body: scimIdentityUpdateBody,
    response: scimIdentity,
    handler: async (ctx) => scim.updateIdentity(ctx.db, ctx.group, ctx.params.uid, ctx.body.extern_uid),
    present: presentIdentity,
  }),
  defineRoute({
    method: 'delete',
    path: '/groups/:id/scim/:uid',
    area,
    summary: 'Delete a SCIM identity',
    load: 'group',
    permission: 'admin_group',
    params: { uid: recordKey('Identity') },
    handler: async (ctx) => scim.deleteIdentity(ctx.db, ctx.group, ctx.params.uid),
  }),
];
