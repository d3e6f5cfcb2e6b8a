import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import assert from 'node:assert/strict';
import pg from 'pg';
import type { Logger } from 'pino';
import type { z } from 'zod';
import { loadConfig } from '../src/config.ts';
import { startServer, type Running } from '../src/server.ts';
import { pgConnection } from '../src/db/index.ts';
import { routes } from '../src/api/index.ts';
import type { RouteSpec } from '../src/http/route.ts';

/**
 * A real server on a real database for the HTTP suites: a fresh SQLite file by default, or a
 * fresh PostgreSQL database when GATEHOUSE_TEST_PG names a server to create it on.
 */
export interface TestServer {
  url: string;
  running: Running;
  rootToken: string;
  rootPassword: string;
  engine: 'sqlite' | 'postgres';
  api: typeof request;
  close(): Promise<void>;
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  method?: string;
  token?: string | null;
  /** JSON body. */
  json?: unknown;
  /** application/x-www-form-urlencoded body. */
  form?: Record<string, string>;
  /** multipart/form-data body. */
  multipart?: FormData;
  headers?: Record<string, string>;
}

let baseUrl = '';
let defaultToken: string | null = null;

/** Calls the API like any client: `api('/groups', { token })`; path relative to /api/v4 unless it starts with /api. */
export async function request<T = any>(p: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  const token = opts.token === undefined ? defaultToken : opts.token;
  if (token) headers['PRIVATE-TOKEN'] = token;
  let body: BodyInit | undefined;
  if (opts.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(opts.json);
  } else if (opts.form) {
    body = new URLSearchParams(opts.form);
  } else if (opts.multipart) {
    body = opts.multipart;
  }
  const url = p.startsWith('http') ? p : `${baseUrl}${p.startsWith('/api') ? '' : '/api/v4'}${p}`;
  const res = await fetch(url, { method: opts.method ?? 'GET', headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  const type = res.headers.get('content-type') ?? '';
  if (type.includes('json') && text) parsed = JSON.parse(text);
  // Every JSON answer of the API carries exactly the platform's header (python-gitlab compares it whole).
  if (type.includes('json') && url.includes('/api/v4')) assert.equal(type, 'application/json', `Content-Type of ${url}`);
  checkDeclaredShape(opts.method ?? 'GET', url, res.status, parsed);
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

/** The route table as Express matches it: in declaration order, `:param` standing for one segment. */
const routeMatchers = routes.map((r) => ({ route: r, re: new RegExp(`^/api/v4${r.path.replace(/:[A-Za-z_]+/g, '[^/]+')}$`) }));
export function routeFor(method: string, url: string): RouteSpec | undefined {
  const path = new URL(url).pathname;
  return routeMatchers.find((m) => m.route.method === method.toLowerCase() && m.re.test(path))?.route;
}

/**
 * Every successful answer of every test is parsed with the response schema its route declares,
 * so a shape drift fails whichever test meets it.
 */
function checkDeclaredShape(method: string, url: string, status: number, body: unknown): void {
  if (status < 200 || status >= 300 || status === 204) return;
  const route = routeFor(method, url);
  if (!route?.response) return;
  const result = route.response.safeParse(body);
  if (!result.success) {
    assert.fail(`${method} ${route.path} answered a body its declared response schema refuses:\n${JSON.stringify(result.error.issues.slice(0, 5), null, 2)}\n${JSON.stringify(body).slice(0, 1000)}`);
  }
  // Presenters name every field: nothing beyond the schema may appear (a leaked column would).
  const schema = route.response as unknown as { element?: { shape?: object }; shape?: object };
  const shape = schema.shape ?? schema.element?.shape;
  if (!shape) return;
  for (const item of Array.isArray(body) ? body : [body]) {
    const extra: string[] = item && typeof item === 'object' ? Object.keys(item).filter((k) => !(k in shape)) : [];
    assert.deepEqual(extra, [], `${method} ${route.path} answered fields its declared response schema does not name`);
  }
}

async function createPgDatabase(adminUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `gatehouse_test_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client(pgConnection(adminUrl));
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  // Same server and credentials, another database: swap the path of the URL.
  const url = adminUrl.replace(/^(postgres(?:ql)?:\/\/[^/]*)\/[^?]*/, `$1/${name}`);
  return {
    url,
    drop: async () => {
      const c = new pg.Client(pgConnection(adminUrl));
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export async function startTestServer(env: Record<string, string> = {}, opts: { logger?: Logger } = {}): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-test-'));
  const pgAdmin = process.env.GATEHOUSE_TEST_PG;
  const database = pgAdmin ? await createPgDatabase(pgAdmin) : undefined;
  const rootToken = `test-root-${crypto.randomBytes(12).toString('hex')}`;
  const rootPassword = `root-${crypto.randomBytes(8).toString('hex')}`;
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    GATEHOUSE_DATA_DIR: dataDir,
    GATEHOUSE_DEMO: '0',
    GATEHOUSE_ROOT_PASSWORD: rootPassword,
    GATEHOUSE_ROOT_TOKEN: rootToken,
    GATEHOUSE_LOG_LEVEL: 'silent',
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...env,
  });
  const running = await startServer(config, opts);
  baseUrl = running.url;
  defaultToken = rootToken;
  return {
    url: running.url,
    running,
    rootToken,
    rootPassword,
    engine: database ? 'postgres' : 'sqlite',
    api: request,
    async close() {
      await running.close();
      await database?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Parses a response body with its shared schema: the test fails on any field of the wrong shape. */
export function expectShape<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const result = schema.safeParse(body);
  if (!result.success) assert.fail(`response does not match its schema:\n${JSON.stringify(result.error.issues, null, 2)}\n${JSON.stringify(body).slice(0, 2000)}`);
  // Presenters name every field: nothing beyond the schema may appear (a leak would show here).
  const shape = (schema as unknown as { shape?: Record<string, unknown> }).shape;
  if (shape && body && typeof body === 'object' && !Array.isArray(body)) {
    const extra = Object.keys(body).filter((k) => !(k in shape));
    assert.deepEqual(extra, [], `response carries fields its schema does not name: ${extra.join(', ')}`);
  }
  return result.data;
}

export function expectStatus(res: ApiResponse, status: number): void {
  assert.equal(res.status, status, `expected ${status}, got ${res.status}: ${res.text.slice(0, 500)}`);
}

let seq = 0;
const unique = (prefix: string) => `${prefix}${process.pid}x${++seq}${crypto.randomBytes(2).toString('hex')}`;

/** Factories: build real records through the API as the administrator. */
export async function buildUser(attrs: { admin?: boolean; scopes?: string[]; external?: boolean } = {}) {
  const username = unique('user');
  const password = `pw-${crypto.randomBytes(8).toString('hex')}`;
  const created = await request('/users', {
    method: 'POST',
    token: defaultToken,
    json: { username, name: `User ${username}`, email: `${username}@example.com`, password, admin: attrs.admin ?? false, external: attrs.external ?? false },
  });
  expectStatus(created, 201);
  const tok = await request(`/users/${created.body.id}/personal_access_tokens`, {
    method: 'POST',
    token: defaultToken,
    json: { name: 'test', scopes: attrs.scopes ?? ['api'] },
  });
  expectStatus(tok, 201);
  return { user: created.body as { id: number; username: string; name: string }, token: tok.body.token as string, password, tokenId: tok.body.id as number };
}

export async function buildGroup(attrs: { parent_id?: number; visibility?: string; token?: string; name?: string; path?: string } = {}) {
  const p = attrs.path ?? unique('group');
  const res = await request('/groups', {
    method: 'POST',
    token: attrs.token ?? defaultToken,
    json: { name: attrs.name ?? `Group ${p}`, path: p, parent_id: attrs.parent_id, visibility: attrs.visibility ?? 'private' },
  });
  expectStatus(res, 201);
  return res.body as { id: number; full_path: string; path: string; name: string; visibility: string };
}

export async function buildProject(namespaceId: number, attrs: { visibility?: string; token?: string } = {}) {
  const p = unique('project');
  const res = await request('/projects', {
    method: 'POST',
    token: attrs.token ?? defaultToken,
    json: { name: p, namespace_id: namespaceId, visibility: attrs.visibility ?? 'private' },
  });
  expectStatus(res, 201);
  return res.body as { id: number; path_with_namespace: string };
}

export async function addMember(scope: 'groups' | 'projects', id: number, userId: number, level: number) {
  const res = await request(`/${scope}/${id}/members`, { method: 'POST', token: defaultToken, json: { user_id: userId, access_level: level } });
  expectStatus(res, 201);
  return res.body;
}

/** A user with a given role in a group (0: no membership), and their token. */
export async function userWithRole(groupId: number, level: number, scopes?: string[]) {
  const u = await buildUser({ scopes });
  if (level > 0) await addMember('groups', groupId, u.user.id, level);
  return u;
}

/** The body an identity provider sends to create a SCIM user named `n`. */
export const scimUserBody = (n: string) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
  externalId: `ext-${n}`,
  userName: `${n}@corp.example`,
  active: true,
  name: { givenName: n, familyName: 'Doe' },
  emails: [{ value: `${n}@corp.example`, primary: true, type: 'work' }],
});
