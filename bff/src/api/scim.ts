import express, { Router, type Request, type Response } from 'express';
import type { Db } from '../db/index.ts';
import type { GroupRow } from '../db/schema.ts';
import { scimPatchBody, scimUserInput } from '../../../shared/src/scim-identities.ts';
import * as scim from '../services/access/scim-identities.ts';
import { asApiError } from '../http/errors.ts';
import { rejectNul } from '../http/route.ts';
import { bool } from '../util/rows.ts';

/**
 * The SCIM 2.0 provisioning endpoint that identity providers call for a group
 * (RFC 7644 subset: Users list with `filter=attr eq "v"`, get, create, PATCH active, delete),
 * authenticated by the group's SCIM token. Errors use SCIM's own body.
 */
const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';
const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';

class ScimError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly scimType?: string,
  ) {
    super(detail);
  }
}

function presentScimUser(u: scim.ScimUser, baseUrl: string, groupPath: string) {
  return {
    schemas: [USER_SCHEMA],
    id: u.identity.extern_uid,
    externalId: u.identity.extern_uid,
    active: bool(u.identity.active),
    userName: u.user.username,
    displayName: u.user.name,
    name: { formatted: u.user.name },
    emails: [{ type: 'work', value: u.user.email, primary: true }],
    meta: { resourceType: 'User', location: `${baseUrl}/api/scim/v2/groups/${encodeURIComponent(groupPath)}/Users/${encodeURIComponent(u.identity.extern_uid)}` },
  };
}

export function scimRouter(db: Db, externalUrl: string | undefined): Router {
  const router = Router({ mergeParams: true });
  router.use(express.json({ type: ['application/json', 'application/scim+json'], limit: '256kb' }));
  const base = (req: Request) => externalUrl ?? `${req.protocol}://${req.get('host')}`;
  const groupOf = (req: Request) => (req as Request & { scimGroup: GroupRow }).scimGroup;
  const send = (res: Response, status: number, body?: unknown) => {
    res.status(status).type('application/scim+json');
    if (body === undefined) res.end();
    else res.send(JSON.stringify(body));
  };

  router.use(async (req, _res, next) => {
    rejectNul(req.query, req.body);
    const auth = req.get('authorization') ?? '';
    const token = /^bearer\s+(.+)$/i.exec(auth)?.[1]?.trim();
    const group = token ? await scim.groupForScimToken(db, String(req.params.group_path), token) : undefined;
    if (!group) throw new ScimError(401, 'Invalid or missing SCIM token for this group');
    (req as Request & { scimGroup: GroupRow }).scimGroup = group;
    next();
  });

  router.get('/Users', async (req, res) => {
    const filter = scim.parseScimFilter(typeof req.query.filter === 'string' ? req.query.filter : undefined);
    if (filter === 'invalid') throw new ScimError(400, 'Unsupported filter: use userName, externalId, id or emails with eq', 'invalidFilter');
    const startIndex = Math.max(1, Number.parseInt(String(req.query.startIndex ?? '1'), 10) || 1);
    const count = Math.min(100, Math.max(0, Number.parseInt(String(req.query.count ?? '100'), 10) || 0));
    const group = groupOf(req);
    const { total, items } = await scim.scimListUsers(db, group, filter, startIndex, count);
    send(res, 200, { schemas: [LIST_SCHEMA], totalResults: total, itemsPerPage: items.length, startIndex, Resources: items.map((u) => presentScimUser(u, base(req), group.full_path)) });
  });

  router.get('/Users/:uid', async (req, res) => {
    const group = groupOf(req);
    send(res, 200, presentScimUser(await scim.scimGetUser(db, group, String(req.params.uid)), base(req), group.full_path));
  });

  router.post('/Users', async (req, res) => {
    const parsed = scimUserInput.safeParse(req.body);
    if (!parsed.success) throw new ScimError(400, parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; '), 'invalidValue');
    const group = groupOf(req);
    try {
      const created = await scim.scimCreateUser(db, group, parsed.data);
      send(res, 201, presentScimUser(created, base(req), group.full_path));
    } catch (e) {
      if (e instanceof scim.ScimConflict) throw new ScimError(409, e.message, 'uniqueness');
      throw e;
    }
  });

  router.patch('/Users/:uid', async (req, res) => {
    const parsed = scimPatchBody.safeParse(req.body);
    if (!parsed.success) throw new ScimError(400, 'Operations must be a list of {op, path, value}', 'invalidSyntax');
    // Identity providers send `{op: replace, path: active, value: false}` or `{op: replace, value: {active: false}}`.
    let active: boolean | undefined;
    for (const op of parsed.data.Operations) {
      const value = op.path ? { [op.path]: op.value } : op.value;
      if (value && typeof value === 'object' && 'active' in value) {
        const v = (value as { active: unknown }).active;
        active = v === true || v === 'true' || v === 'True';
      }
    }
    const group = groupOf(req);
    const uid = String(req.params.uid);
    const user = active === undefined ? await scim.scimGetUser(db, group, uid) : await scim.scimSetActive(db, group, uid, active);
    send(res, 200, presentScimUser(user, base(req), group.full_path));
  });

  router.delete('/Users/:uid', async (req, res) => {
    await scim.scimDeleteUser(db, groupOf(req), String(req.params.uid));
    send(res, 204);
  });

  router.use((_req, _res, next) => next(new ScimError(404, 'Resource not found')));
  router.use((thrown: unknown, _req: Request, res: Response, next: (e?: unknown) => void) => {
    let err = thrown;
    const api = asApiError(thrown);
    if (api?.status === 404) err = new ScimError(404, 'User not found');
    else if (api) err = new ScimError(api.status, typeof api.body.message === 'string' ? api.body.message : JSON.stringify(api.body.message));
    else if ((err as { type?: string }).type === 'entity.parse.failed') err = new ScimError(400, 'The body is not valid JSON', 'invalidSyntax');
    if (!(err instanceof ScimError)) return next(err);
    send(res, err.status, { schemas: [ERROR_SCHEMA], detail: err.detail, status: String(err.status), ...(err.scimType ? { scimType: err.scimType } : {}) });
  });
  return router;
}
