import type { Request, Response, RequestHandler } from 'express';
import multer from 'multer';
import type { z } from 'zod';
import type { Db } from '../db/index.ts';
import type { GroupRow, ProjectRow } from '../db/schema.ts';
import type { Config } from '../config.ts';
import type { Vault } from '../auth/vault.ts';
import { hasScope, requiredScopes, type Actor, type ScopeNeed } from '../auth/actor.ts';
import {
  canGroup,
  canInstance,
  canProject,
  isGroupAction,
  isInstanceAction,
  isProjectAction,
  type Action,
} from '../policies/index.ts';
import { ApiError, fromZodError, unsupportedMediaType } from './errors.ts';
import { badRequest, forbidden, notFound, unauthorized } from '../services/errors.ts';
import { setPaginationHeaders } from './pagination.ts';
import { Page } from '../db/pagination.ts';
import { authenticate } from './authenticate.ts';
import { findGroup } from '../services/groups.ts';
import { findProject } from '../services/projects.ts';
import { groupAccessLevel, projectAccessLevel } from '../services/access.ts';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** What every handler gets: plain values, the database and the caller, never HTTP details it must parse. */
export interface RouteContext<Q, B> {
  db: Db;
  config: Config;
  /** Opens the secrets Gatehouse keeps encrypted (webhook tokens, headers, URL variables). */
  vault: Vault;
  actor: Actor;
  params: Record<string, string>;
  query: Q;
  body: B;
  /** Base of absolute URLs (web_url, Link): GATEHOUSE_EXTERNAL_URL, or the request's own origin. */
  baseUrl: string;
  /** Loaded by `load: 'group'`: the group named by :id and the caller's effective role in it. */
  group: GroupRow;
  project: ProjectRow;
  level: number;
  file?: { buffer: Buffer; originalname: string; mimetype: string; size: number };
  req: Request;
  res: Response;
}

export interface RouteSpec<Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType, R = unknown> {
  method: Method;
  /** Express path relative to /api/v4, e.g. /groups/:id. */
  path: string;
  /** The spec area slug this route belongs to. */
  area: string;
  summary: string;
  /** `optional`: anonymous callers get what the rules give anyone (public groups). Default `required`. */
  auth?: 'required' | 'optional';
  /** Scope a token needs; defaults to read for GET and write otherwise. */
  scope?: ScopeNeed;
  /** Resolve :id to a group or project first; unreadable ones answer 404 like missing ones. */
  load?: 'group' | 'project';
  permission?: Action;
  query?: Q;
  body?: B;
  /** Name of a multipart file field this route accepts. */
  upload?: string;
  status?: number;
  response?: z.ZodType;
  /**
   * Error statuses this route answers beyond those its declaration implies (see
   * errorStatuses: 400/401/403/404/415 follow from its parameters, auth, scope and loading).
   */
  errors?: number[];
  handler: (ctx: RouteContext<z.output<Q>, z.output<B>>) => Promise<R>;
  /** Turns the handler's result (or each item of a Page) into the wire shape. */
  present?: (value: never, ctx: RouteContext<z.output<Q>, z.output<B>>) => unknown;
}

export function defineRoute<Q extends z.ZodType = z.ZodObject<{}>, B extends z.ZodType = z.ZodObject<{}>, R = unknown>(
  spec: Omit<RouteSpec<Q, B, R>, 'present'> & {
    present?: (value: R extends Page<infer I> ? I : R, ctx: RouteContext<z.output<Q>, z.output<B>>) => unknown;
  },
): RouteSpec {
  return spec as unknown as RouteSpec;
}

/**
 * The error statuses a client should expect of a route, derived from what it declares: 401 for
 * a missing or unusable credential (any route), 400 for parameters (path, query or body), 403
 * where a permission or a write scope is needed, 404 where something is looked up by the
 * path, 415 where a body is taken; plus the route's own extras.
 */
export function errorStatuses(r: RouteSpec): number[] {
  const pathParams = /:[A-Za-z_]+/.test(r.path);
  const writes = (r.scope ?? (r.method === 'get' ? 'read' : 'write')) === 'write';
  const derived = [
    ...(r.query || r.body || pathParams ? [400] : []),
    401,
    ...(r.permission || writes ? [403] : []),
    ...(r.load || pathParams ? [404] : []),
    ...(r.body && r.method !== 'get' ? [415] : []),
  ];
  return [...new Set([...derived, ...(r.errors ?? [])])].sort((a, b) => a - b);
}

const DEFAULT_STATUS: Record<Method, number> = { get: 200, post: 201, put: 200, patch: 200, delete: 204 };
export const successStatus = (r: RouteSpec) => r.status ?? DEFAULT_STATUS[r.method];

function parse<T extends z.ZodType>(schema: T | undefined, input: unknown): z.output<T> {
  if (!schema) return {} as z.output<T>;
  const result = schema.safeParse(input ?? {});
  if (!result.success) throw fromZodError(result.error);
  return result.data;
}

/** authenticate → load the group or project → authorise → validate → handler → present. */
export function toHandler(route: RouteSpec, app: { db: Db; config: Config; vault: Vault }): RequestHandler {
  const scope = route.scope ?? (route.method === 'get' ? 'read' : 'write');
  return async (req, res) => {
    rejectNul(req.params, req.query, req.body);
    const actor = await authenticate(req, app.db, app.config);
    if (actor.user === null && route.auth !== 'optional') throw unauthorized();
    if (!hasScope(actor, scope)) {
      throw new ApiError(403, {
        message: `403 Forbidden - insufficient_scope: this call needs a token with one of the scopes ${requiredScopes(scope).join(', ')}`,
        error: 'insufficient_scope',
      });
    }
    const ctx = {
      db: app.db,
      config: app.config,
      vault: app.vault,
      actor,
      params: req.params as Record<string, string>,
      baseUrl: app.config.externalUrl ?? `${req.protocol}://${req.get('host')}`,
      req,
      res,
      level: 0,
    } as RouteContext<unknown, unknown>;

    if (route.load === 'group') {
      const group = await findGroup(app.db, String(req.params.id));
      const level = group ? await groupAccessLevel(app.db, actor.user?.id, group) : 0;
      if (!group || !canGroup(actor, 'read_group', { group, level })) throw notFound('Group');
      Object.assign(ctx, { group, level });
    } else if (route.load === 'project') {
      const found = await findProject(app.db, String(req.params.id));
      const level = found ? await projectAccessLevel(app.db, actor.user?.id, found.project, found.group) : 0;
      if (!found || !canProject(actor, 'read_project', { ...found, level })) throw notFound('Project');
      Object.assign(ctx, found, { level });
    }

    if (route.permission && !allowed(route.permission, ctx)) throw forbidden();
    if (req.is('multipart/form-data')) {
      if (!route.upload) throw unsupportedMediaType('multipart/form-data is taken only where a file is uploaded; send JSON or form fields');
      await parseMultipart(req, res);
      rejectNul(req.body);
    }

    const input = route.method === 'get' || route.method === 'delete' ? req.query : { ...req.query, ...(req.body ?? {}) };
    ctx.query = parse(route.query, req.query);
    ctx.body = parse(route.body, input);
    const files = (req as Request & { files?: RouteContext<unknown, unknown>['file'][] }).files;
    if (route.upload) ctx.file = files?.find((f) => (f as { fieldname?: string } | undefined)?.fieldname === route.upload);

    const result = await route.handler(ctx);
    const present = (route.present ?? ((v: unknown) => v)) as (v: unknown, c: typeof ctx) => unknown;
    const status = successStatus(route);
    if (res.headersSent) return;
    if (result instanceof Page) {
      setPaginationHeaders(req, res, ctx.baseUrl, result);
      res.status(status).json(result.items.map((item) => present(item, ctx)));
    } else if (status === 204) {
      res.status(204).end();
    } else {
      res.status(status).json(present(result, ctx));
    }
  };
}

/**
 * Multipart bodies are parsed only for the routes that take a file, once the caller is known
 * to be allowed: fields join the body, files stay in memory. A malformed body is the client's
 * fault (400), never a 500.
 */
const multipartParser = multer({ storage: multer.memoryStorage(), limits: { fileSize: 1024 * 1024, files: 2, fields: 200, fieldSize: 1024 * 1024 } }).any();
function parseMultipart(req: Request, res: Response): Promise<void> {
  return new Promise((resolve, reject) => {
    multipartParser(req, res, (err?: unknown) => {
      if (!err) return resolve();
      const e = err as { code?: string; message?: string };
      if (e.code === 'LIMIT_FILE_SIZE') return reject(new ApiError(413, { message: '413 Request Entity Too Large' }));
      reject(badRequest(`400 Bad request - malformed multipart body: ${e.message ?? 'cannot be read'}`));
    });
  });
}

/** PostgreSQL text cannot hold NUL; refusing it everywhere keeps both engines alike. */
export function rejectNul(...values: unknown[]): void {
  if (values.some((v) => hasNul(v))) throw badRequest('400 Bad request - parameters must not contain NUL characters');
}

function hasNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 8 || value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return false;
  return Object.entries(value).some(([k, v]) => k.includes('\u0000') || hasNul(v, depth + 1));
}

/** Whether the caller may do `action` on what the route loaded (the project's rule where a project was loaded). */
export function allowed(action: Action, ctx: RouteContext<unknown, unknown>): boolean {
  if (isInstanceAction(action)) return canInstance(ctx.actor, action);
  if (ctx.project && isProjectAction(action)) return canProject(ctx.actor, action, { project: ctx.project, group: ctx.group, level: ctx.level });
  if (ctx.group && isGroupAction(action)) return canGroup(ctx.actor, action, { group: ctx.group, level: ctx.level });
  return false;
}
