import fs from 'node:fs';
import os from 'node:os';
import type { Request, Response, RequestHandler } from 'express';
import multer from 'multer';
import { z } from 'zod';
import type { Db } from '../db/index.ts';
import type { GroupRow, PipelineRow, ProjectRow } from '../db/schema.ts';
import type { Config } from '../config.ts';
import type { Vault } from '../auth/vault.ts';
import type { FileStore } from '../files/index.ts';
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
import { badRequest, forbidden, notFound, unauthorized } from '../util/errors.ts';
import { setPaginationHeaders } from './pagination.ts';
import { Page } from '../db/pagination.ts';
import { actingAs, authenticate } from './authenticate.ts';
import { notFoundWording, recordId } from './params.ts';
import { parseFields } from './query-string.ts';
import { findGroupWithLevel } from '../services/groups/groups.ts';
import { findProject } from '../services/groups/projects.ts';
import { pipelineById } from '../services/ci/pipelines.ts';
import { projectAccessLevel } from '../policies/access.ts';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Where a route is served: the platform API under /api/v4 (the default), or the console's own
 * endpoints under /api/console, which no platform client calls and the platform's OpenAPI
 * document does not list.
 */
export const MOUNTS = { api: '/api/v4', console: '/api/console' } as const;
export type Mount = keyof typeof MOUNTS;
/** The route's path as a request names it, e.g. /api/v4/groups/:id. */
export const urlPathOf = (r: Pick<RouteSpec, 'mount' | 'path'>) => MOUNTS[r.mount ?? 'api'] + r.path;

export type LoadKind = 'group' | 'project' | 'pipeline';
type GroupLoaded = { group: GroupRow; level: number };
type ProjectLoaded = { group: GroupRow; project: ProjectRow; level: number };
type PipelineLoaded = ProjectLoaded & { pipeline: PipelineRow };
/**
 * What `load` puts in the context, and only that: the group and the caller's role in it, the
 * project with its group, or (for routes written once for groups and projects) the group and
 * perhaps the project.
 */
export type Loaded<L> = [L] extends [undefined]
  ? {}
  : undefined extends L
    ? Partial<ProjectLoaded>
    : [L] extends ['group']
      ? GroupLoaded
      : [L] extends ['project']
        ? ProjectLoaded
        : [L] extends ['pipeline']
          ? PipelineLoaded
          : GroupLoaded & Partial<ProjectLoaded>;

/** Path parameters other than a loaded `:id`, each with its schema (see http/params.ts). */
export type ParamShape = Record<string, z.ZodType>;
export type ParamsOf<P extends ParamShape> = { [K in keyof P]: z.output<P[K]> };

/** What every handler gets: plain values, the database and the caller, never HTTP details it must parse. */
export type RouteContext<Q = unknown, B = unknown, P = {}, L = undefined> = {
  db: Db;
  config: Config;
  /** Opens the secrets Gatehouse keeps encrypted (webhook tokens, headers, URL variables). */
  vault: Vault;
  /** Where files are kept (export files), readable by every instance. */
  files: FileStore;
  actor: Actor;
  /** The declared path parameters, parsed. */
  params: P;
  query: Q;
  body: B;
  /** Base of absolute URLs (web_url, Link): GATEHOUSE_EXTERNAL_URL, or the request's own origin. */
  baseUrl: string;
  file?: { buffer: Buffer; originalname: string; mimetype: string; size: number };
  /** The file of a `streamUpload` route: streamed to a temporary file, removed after the handler. */
  diskFile?: { path: string; originalname: string; size: number };
  req: Request;
  res: Response;
} & Loaded<L>;

/** Child loaders: each key joins the context with what its function found (or it throws its own 404). */
export type Loaders<C> = Record<string, (ctx: C) => Promise<unknown>>;
type Children<W> = { [K in keyof W]: W[K] extends (ctx: never) => Promise<infer T> ? T : never };

/** The wire shape `present` must produce: one item of a list route, or the whole answer. */
type Presented<S> = S extends z.ZodArray<infer E> ? z.output<E> : S extends z.ZodType ? z.output<S> : unknown;

/**
 * A result whose status and headers the service's outcome chooses (an export still being
 * written answers 202 with Poll-Interval, done 200): its value is presented as the route declares.
 */
export class Answer<T> {
  constructor(
    readonly value: T,
    readonly status: number,
    readonly headers: Record<string, string> = {},
  ) {}
}

/**
 * A file answered as it is, with its headers (Content-Type among them): bytes, or a writer that
 * streams them. The route declares its content types in `file`.
 */
export class FileAnswer {
  constructor(
    readonly headers: Record<string, string>,
    readonly body: Buffer | string | ((out: Response) => Promise<void>),
    readonly status = 200,
  ) {}
}

/** What `present` is given of a handler's result. */
type Shown<R> = R extends Page<infer I> ? I : R extends readonly (infer I)[] ? I : R extends Answer<infer T> ? T : Exclude<R, FileAnswer>;

/** A route as declared: what it takes, what it loads, who may call it, and how its result is shown. */
export interface RouteDeclaration<Q extends z.ZodType, B extends z.ZodType, P extends ParamShape, L extends LoadKind | undefined, W, S, R> {
  /** Served under /api/v4 unless `console`. */
  mount?: Mount;
  method: Method;
  /** Path relative to its mount (/api/v4 by default), e.g. /groups/:id. */
  path: string;
  /** The spec area slug this route belongs to. */
  area: string;
  summary: string;
  /** `optional`: anonymous callers get what the rules give anyone (public groups). Default `required`. */
  auth?: 'required' | 'optional';
  /** Scope a token needs; defaults to read for GET and write otherwise. */
  scope?: ScopeNeed;
  /** Resolve :id to a group or project first; unreadable ones answer 404 like missing ones. */
  load?: L;
  permission?: Action;
  /** Every path parameter besides a loaded :id, with its schema; an id that cannot exist answers the same 404 as one that does not. */
  params?: P;
  /** Children of what was loaded (a hook, a token), loaded in order after the permission check. */
  with?: W;
  query?: Q;
  body?: B;
  /** Name of a multipart file field this route accepts. */
  upload?: string;
  /**
   * The `upload` file may be large: streamed to a temporary file (ctx.diskFile) instead of
   * memory, up to `maxBytes` (past it the upload stops and answers 413).
   */
  streamUpload?: { maxBytes: number };
  /** Takes its fields as multipart/form-data too, without a file (SDKs send the pipeline trigger so). */
  multipart?: boolean;
  /**
   * The body is the handler's to read (ctx.req), whatever its type: nothing parses it before
   * (the error tracking collector reads SDKs' envelopes, gzipped or not, up to its own limit).
   */
  rawBody?: boolean;
  /** The success status when the handler's result does not choose one (an Answer); by method otherwise (201 for POST, 204 for DELETE). */
  status?: number;
  response?: S;
  /** The content types of a file the route answers with (a FileAnswer), declared in the OpenAPI document. */
  file?: string[];
  /**
   * Error statuses this route answers beyond those its declaration implies (see
   * errorStatuses: 400/401/403/404/415 follow from its parameters, auth, scope and loading).
   */
  errors?: number[];
  handler: (ctx: RouteContext<z.output<Q>, z.output<B>, ParamsOf<P>, L> & Children<W>) => Promise<R>;
  /** Turns the handler's result (or each item of a Page or list, or an Answer's value) into the wire shape its response schema declares. */
  present?: (value: Shown<R>, ctx: RouteContext<z.output<Q>, z.output<B>, ParamsOf<P>, L> & Children<W>) => Presented<S>;
}

/** A declaration with its types erased: what the app mounts, the OpenAPI document lists and the tests walk. */
export type RouteSpec = Omit<RouteDeclaration<z.ZodType, z.ZodType, ParamShape, LoadKind | undefined, unknown, z.ZodType, unknown>, 'handler' | 'present' | 'with'> & {
  with?: Loaders<never>;
  handler: (ctx: never) => Promise<unknown>;
  present?: (value: never, ctx: never) => unknown;
};

export function defineRoute<
  Q extends z.ZodType = z.ZodObject<{}>,
  B extends z.ZodType = z.ZodObject<{}>,
  P extends ParamShape = {},
  L extends LoadKind | undefined = undefined,
  // Each child loader sees the route's context and its fellow children (loaded in declaration order).
  W extends { [K in keyof W]: (ctx: RouteContext<z.output<Q>, z.output<B>, ParamsOf<P>, L> & Children<W>) => Promise<unknown> } = {},
  S extends z.ZodType = z.ZodType,
  R = unknown,
>(declaration: RouteDeclaration<Q, B, P, L, W, S, R>): RouteSpec {
  const undeclared = [...declaration.path.matchAll(/:([A-Za-z_]+)/g)]
    .map((m) => m[1])
    .filter((name) => !(name === 'id' && declaration.load) && !(declaration.params && name in declaration.params));
  if (undeclared.length) throw new Error(`${declaration.method.toUpperCase()} ${declaration.path}: declare the path parameter(s) ${undeclared.join(', ')} in params`);
  return declaration as unknown as RouteSpec;
}

/**
 * The error statuses a client should expect of a route, derived from what it declares: 401 for
 * a missing or unusable credential (any route), 400 for a query, a body or a path parameter
 * that is not an id, 403 where a permission or a write scope is needed, 404 where something is
 * looked up by the path, 415 where a body is taken; plus the route's own extras.
 */
export function errorStatuses(r: RouteSpec): number[] {
  const pathParams = /:[A-Za-z_]+/.test(r.path);
  const writes = (r.scope ?? (r.method === 'get' ? 'read' : 'write')) === 'write';
  const textParams = Object.values(r.params ?? {}).some((schema) => notFoundWording(schema) === undefined);
  const derived = [
    ...(r.query || r.body || textParams ? [400] : []),
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

/** Each declared path parameter parsed by its schema: a malformed record id is that record's 404, anything else a 400. */
function parseParams(shape: ParamShape | undefined, raw: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(shape ?? {})) {
    const result = schema.safeParse(raw[name]);
    if (result.success) {
      out[name] = result.data;
      continue;
    }
    const what = notFoundWording(schema);
    if (what !== undefined) throw notFound(what || undefined);
    throw fromZodError(new z.ZodError(result.error.issues.map((i) => ({ ...i, path: [name, ...i.path] }))));
  }
  return out;
}

/**
 * authenticate → load the group or project → authorise → validate (query, body, path) → load
 * the children → handler → present.
 */
/** A pipeline's id as its loader takes it: what could not be one (past 2³¹−1, not digits) is the same 404. */
const pipelineId = recordId('Pipeline');

export function toHandler(route: RouteSpec, app: { db: Db; config: Config; vault: Vault; files: FileStore }): RequestHandler {
  const scope = route.scope ?? (route.method === 'get' ? 'read' : 'write');
  const children = Object.entries(route.with ?? {}) as [string, (ctx: unknown) => Promise<unknown>][];
  const handler = route.handler as (ctx: unknown) => Promise<unknown>;
  const present = (route.present ?? ((v: unknown) => v)) as (v: unknown, c: unknown) => unknown;
  const defaultStatus = successStatus(route);
  return async (req, res) => {
    rejectNul(req.params, req.query, req.body);
    const caller = await authenticate(req, app.db, app.config);
    const multipart = Boolean(req.is('multipart/form-data'));
    const readMultipart = async () => {
      await parseMultipart(req, res, route.streamUpload?.maxBytes);
      // A streamed upload's temporary file goes when the answer has gone, whatever it was.
      res.on('close', () => {
        for (const f of ((req as Request & { files?: { path?: string }[] }).files ?? [])) if (f.path) fs.rm(f.path, { force: true }, () => {});
      });
      rejectNul(req.body);
    };
    // A signed-in caller's multipart fields are read before Sudo is, so a `sudo` field among
    // them names whom the call acts as, as on the platform (anyone else's wait for the checks).
    const early = multipart && (route.upload || route.multipart) && caller.user !== null && route.mount !== 'console';
    if (early) await readMultipart();
    // Sudo is the platform API's: the console's own endpoints act as their session's user.
    const actor = route.mount === 'console' ? caller : await actingAs(req, app.db, caller);
    if (actor.user === null && route.auth !== 'optional') throw unauthorized();
    if (!hasScope(actor, scope)) {
      throw new ApiError(403, {
        message: `403 Forbidden - insufficient_scope: this call needs a token with one of the scopes ${requiredScopes(scope).join(', ')}`,
        error: 'insufficient_scope',
      });
    }
    const ctx: Record<string, unknown> & AllowedContext = {
      db: app.db,
      config: app.config,
      vault: app.vault,
      files: app.files,
      actor,
      baseUrl: app.config.externalUrl ?? `${req.protocol}://${req.get('host')}`,
      req,
      res,
    };

    if (route.load === 'group') {
      // The group and the caller's role in it, in one query.
      const found = await findGroupWithLevel(app.db, String(req.params.id), actor.user?.id);
      if (!found || !canGroup(actor, 'read_group', found)) throw notFound('Group');
      Object.assign(ctx, found);
    } else if (route.load === 'project') {
      const found = await findProject(app.db, String(req.params.id));
      const level = found ? await projectAccessLevel(app.db, actor.user?.id, found.project, found.group) : 0;
      if (!found || !canProject(actor, 'read_project', { ...found, level })) throw notFound('Project');
      Object.assign(ctx, found, { level });
    } else if (route.load === 'pipeline') {
      // A pipeline by its own id, read through its project: an unreadable one answers 404 like a missing one.
      const id = pipelineId.safeParse(req.params.id);
      const pipeline = id.success ? await pipelineById(app.db, id.data) : undefined;
      const found = pipeline && (await findProject(app.db, String(pipeline.project_id)));
      const level = found ? await projectAccessLevel(app.db, actor.user?.id, found.project, found.group) : 0;
      if (!pipeline || !found || !canProject(actor, 'read_pipeline', { ...found, level })) throw notFound('Pipeline');
      Object.assign(ctx, found, { level, pipeline });
    }

    if (route.permission && !allowed(route.permission, ctx)) throw forbidden();
    if (multipart) {
      if (!route.upload && !route.multipart) throw unsupportedMediaType('multipart/form-data is taken only where a file is uploaded; send JSON or form fields');
      if (!early) await readMultipart();
    }

    // A DELETE's fields come in its query (python-gitlab) or its body (gitbeaker), as the platform reads either.
    const input = route.method === 'get' ? req.query : { ...req.query, ...(req.body ?? {}) };
    ctx.query = parse(route.query, req.query);
    ctx.body = parse(route.body, input);
    ctx.params = parseParams(route.params, req.params as Record<string, string>);
    const files = (req as Request & { files?: RouteContext['file'][] }).files;
    const file = files?.find((f) => (f as { fieldname?: string } | undefined)?.fieldname === route.upload);
    if (route.upload && route.streamUpload) ctx.diskFile = file as RouteContext['diskFile'];
    else if (route.upload) ctx.file = file;
    for (const [key, load] of children) ctx[key] = await load(ctx);

    let result = await handler(ctx);
    if (result instanceof FileAnswer) return sendFileAnswer(res, result);
    let status = defaultStatus;
    if (result instanceof Answer) {
      status = result.status;
      res.set(result.headers);
      result = result.value;
    }
    if (result instanceof Page) {
      setPaginationHeaders(req, res, ctx.baseUrl as string, result);
      res.status(status).json(result.items.map((item) => present(item, ctx)));
    } else if (Array.isArray(result)) {
      res.status(status).json(result.map((item) => present(item, ctx)));
    } else if (status === 204 || status === 304) {
      res.status(status).end();
    } else {
      res.status(status).json(present(result, ctx));
    }
  };
}

/** Writes a FileAnswer: its status and its headers as they are (Express's set would add a charset to a JSON type), then its bytes. */
async function sendFileAnswer(res: Response, answer: FileAnswer): Promise<void> {
  res.status(answer.status);
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  // Bytes at hand go as Express sends them (Content-Length, ETag, a fresh one's 304, HEAD).
  if (typeof answer.body !== 'function') {
    res.send(answer.body);
    return;
  }
  // A HEAD request's body is dropped by Node: the writer runs as for a GET (it may skip its work).
  try {
    await answer.body(res);
  } catch (e) {
    // Failed before a byte went: the error is answered without the file's headers.
    if (!res.headersSent) for (const name of ['Content-Type', ...Object.keys(answer.headers)]) res.removeHeader(name);
    throw e;
  }
}

/**
 * Multipart bodies are parsed only for the routes that take a file, once the caller is known
 * to be allowed: fields join the body, files stay in memory. A malformed body is the client's
 * fault (400), never a 500.
 */
const multipartParser = multerKeepingFields({ storage: multer.memoryStorage(), limits: { fileSize: 1024 * 1024, files: 2, fields: 200, fieldSize: 1024 * 1024 } }).any();
/** Large uploads (scanner reports, SBOMs) go to a temporary file as they arrive, up to their route's limit. */
const diskMultipartParsers = new Map<number, RequestHandler>();
const diskMultipartParser = (maxBytes: number) => {
  let parser = diskMultipartParsers.get(maxBytes);
  if (!parser) diskMultipartParsers.set(maxBytes, (parser = multerKeepingFields({ dest: os.tmpdir(), limits: { fileSize: maxBytes, files: 1, fields: 50, fieldSize: 64 * 1024 } }).any()));
  return parser;
};
/** The multipart fields of a request as they came, in order: multer's own reading of their names knows no `name[][key]`. */
const FIELDS = Symbol('multipart fields');
type WithFields = Request & { [FIELDS]?: [string, string][] };
/** multer feeding busboy through keepFields (its `streamHandler` option, which its types do not list). */
function multerKeepingFields(options: multer.Options) {
  return multer({ ...options, streamHandler: keepFields } as multer.Options);
}
function keepFields(req: Request, busboy: NodeJS.WritableStream & { on(event: 'field', listener: (name: string, value: string) => void): unknown }) {
  const fields: [string, string][] = ((req as WithFields)[FIELDS] = []);
  busboy.on('field', (name, value) => void (typeof name === 'string' && fields.push([name, value])));
  req.pipe(busboy);
}
function parseMultipart(req: Request, res: Response, toDiskUpTo: number | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    (toDiskUpTo === undefined ? multipartParser : diskMultipartParser(toDiskUpTo))(req, res, (err?: unknown) => {
      // The fields as a form body of the same pairs reads (http/query-string.ts), Rack's arrays of hashes among them.
      if (!err) {
        req.body = parseFields((req as WithFields)[FIELDS] ?? []);
        return resolve();
      }
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

/** What a permission is checked against: the caller, and the group or project a route loaded. */
export interface AllowedContext {
  actor: Actor;
  group?: GroupRow;
  project?: ProjectRow;
  level?: number;
}

/** Whether the caller may do `action` on what the route loaded (the project's rule where a project was loaded). */
export function allowed(action: Action, ctx: AllowedContext): boolean {
  if (isInstanceAction(action)) return canInstance(ctx.actor, action);
  const level = ctx.level ?? 0;
  if (ctx.project && ctx.group && isProjectAction(action)) return canProject(ctx.actor, action, { project: ctx.project, group: ctx.group, level });
  if (ctx.group && isGroupAction(action)) return canGroup(ctx.actor, action, { group: ctx.group, level });
  return false;
}
