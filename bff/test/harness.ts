import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import assert from 'node:assert/strict';
import pg from 'pg';
import type { Logger } from 'pino';
import type { z } from 'zod';
import { loadConfig, type Config } from '../src/config.ts';
import { repoRoot, startServer, type Running } from '../src/server.ts';
import { migrate, openDb, pgConnection } from '../src/db/index.ts';
import { routes } from '../src/api/index.ts';
import { urlPathOf, type RouteSpec } from '../src/http/route.ts';
import type { Actor } from '../src/auth/actor.ts';
import { actorForToken } from '../src/services/access/authentication.ts';
import { hashPassword } from '../src/auth/secrets.ts';
import { createPersonalAccessToken } from '../src/services/access/personal-access-tokens.ts';
import { createGroupAs, findGroup, groupToCreateIn } from '../src/services/groups/groups.ts';
import { createProject, findProject } from '../src/services/groups/projects.ts';
import { addMember as addMemberTo, type MemberSource } from '../src/services/access/members.ts';
import { userCreateBody } from '../../shared/src/users.ts';
import { insertUser } from '../src/services/access/users.ts';
import { groupCreateBody } from '../../shared/src/groups.ts';
import { projectCreateBody } from '../../shared/src/projects.ts';
import { memberCreateBody } from '../../shared/src/members.ts';
import { personalAccessTokenCreateBody } from '../../shared/src/personal-access-tokens.ts';

/**
 * A real server on a real database for the HTTP suites: a fresh SQLite file by default, or a
 * fresh PostgreSQL database when GATEHOUSE_TEST_PG names a server to create it on.
 */
export interface TestServer {
  url: string;
  running: Running;
  /** The configuration it was started with (its data and repositories directories among it). */
  config: Config;
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
/** The server the factories write to: the one started last. */
let running: Running | undefined;

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

/** How the tests name a route: `GET /groups/:id` for the API's, with /api/console before the console's own. */
export const routeKey = (r: RouteSpec) => `${r.method.toUpperCase()} ${r.mount === 'console' ? urlPathOf(r) : r.path}`;

/** The route table as Express matches it: in declaration order, `:param` standing for one segment. */
const routeMatchers = routes.map((r) => ({ route: r, re: new RegExp(`^${urlPathOf(r).replace(/:[A-Za-z_]+/g, '[^/]+')}$`) }));
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

const MIGRATIONS_DIR = path.join(repoRoot, 'bff/src/db/migrations');
/** Same server and credentials, another database: swap the path of the URL. */
const withDatabase = (url: string, name: string) => url.replace(/^(postgres(?:ql)?:\/\/[^/]*)\/[^?]*/, `$1/${name}`);

async function withAdmin<T>(adminUrl: string, work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client(pgConnection(adminUrl));
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

/**
 * A migrated database to copy for each test server: migrating a fresh PostgreSQL database takes
 * about a second, copying one a third of that. One template per set of migrations (named by
 * their digest, so a changed or added migration makes another); the first test process builds
 * it under a lock while the others wait, and renames it into place only once it is complete.
 */
async function migratedTemplate(adminUrl: string): Promise<string> {
  // The migrations and what they import from beside their folder (the dialect helpers).
  const files = new Set(fs.readdirSync(MIGRATIONS_DIR).sort().map((f) => path.join(MIGRATIONS_DIR, f)));
  for (const f of [...files]) for (const m of fs.readFileSync(f, 'utf8').matchAll(/from '(\.\.\/[^']+)'/g)) files.add(path.resolve(MIGRATIONS_DIR, m[1]));
  const digest = crypto.createHash('sha256');
  for (const f of files) digest.update(path.relative(repoRoot, f)).update(fs.readFileSync(f));
  const name = `gatehouse_test_template_${digest.digest('hex').slice(0, 16)}`;
  return withAdmin(adminUrl, async (admin) => {
    const lock = [0x6761_7465, 0x7470_6c00];
    await admin.query('SELECT pg_advisory_lock($1, $2)', lock);
    try {
      if ((await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount) return name;
      const building = `${name}_building`;
      await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${building}`);
      const db = openDb({ databaseUrl: withDatabase(adminUrl, building), poolSize: 1 });
      try {
        await migrate(db);
      } finally {
        await db.destroy();
      }
      await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
      return name;
    } finally {
      await admin.query('SELECT pg_advisory_unlock($1, $2)', lock);
    }
  });
}

async function createPgDatabase(adminUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const template = await migratedTemplate(adminUrl);
  const name = `gatehouse_test_${crypto.randomBytes(6).toString('hex')}`;
  await withAdmin(adminUrl, (admin) => admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
  return {
    url: withDatabase(adminUrl, name),
    drop: () => withAdmin(adminUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
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
  const started = await startServer(config, opts);
  running = started;
  administrator = undefined;
  baseUrl = started.url;
  defaultToken = rootToken;
  return {
    url: started.url,
    running: started,
    config,
    rootToken,
    rootPassword,
    engine: database ? 'postgres' : 'sqlite',
    api: request,
    async close() {
      await started.close();
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

/**
 * Factories: real records for tests whose route under test is not the one creating them.
 * They are written in-process through the services, on the test server's own database, as its
 * administrator — what the API would do, without an HTTP round trip each. Given a `token`, a
 * factory calls the API as that caller instead, since the caller's credential is then part of
 * what the test exercises.
 */
let administrator: Promise<Actor> | undefined;
function asAdministrator(): Promise<Actor> {
  return (administrator ??= actorForToken(currentServer().db, defaultToken!).then((a) => {
    if (typeof a !== 'object') throw new Error(`the test server's root token cannot be used: ${a}`);
    return a;
  }));
}

function currentServer(): Running {
  if (!running) throw new Error('start a test server first (startTestServer)');
  return running;
}

/**
 * Every built user shares one password per test process, hashed once: scrypt costs 150–250 ms
 * a user on this machine, most of the time a user fixture took. users.createUser takes a
 * password, not a digest, so the row is written through users.insertUser with the shared digest.
 */
const sharedPassword = `pw-${crypto.randomBytes(8).toString('hex')}`;
let sharedDigest: Promise<string> | undefined;

export async function buildUser(attrs: { admin?: boolean; scopes?: string[]; external?: boolean } = {}) {
  const { db } = currentServer();
  const username = unique('user');
  const body = userCreateBody.parse({ username, name: `User ${username}`, email: `${username}@example.com`, admin: attrs.admin ?? false, external: attrs.external ?? false });
  const passwordDigest = await (sharedDigest ??= hashPassword(sharedPassword));
  const { id } = await insertUser(db, { username: body.username, name: body.name, email: body.email, is_admin: body.admin ? 1 : 0, external: body.external ? 1 : 0, password_digest: passwordDigest });
  const token = await createPersonalAccessToken(db, id, personalAccessTokenCreateBody.parse({ name: 'test', scopes: attrs.scopes ?? ['api'] }));
  return { user: { id, username: body.username, name: body.name }, token: token.plaintext, password: sharedPassword, tokenId: token.token.id };
}

export async function buildGroup(attrs: { parent_id?: number; visibility?: string; token?: string; name?: string; path?: string } = {}) {
  const p = attrs.path ?? unique('group');
  const json = { name: attrs.name ?? `Group ${p}`, path: p, parent_id: attrs.parent_id, visibility: attrs.visibility ?? 'private' };
  if (attrs.token) {
    const res = await request('/groups', { method: 'POST', token: attrs.token, json });
    expectStatus(res, 201);
    return res.body as { id: number; full_path: string; path: string; name: string; visibility: string };
  }
  const g = await createGroupAs(currentServer().db, await asAdministrator(), groupCreateBody.parse(json));
  return { id: g.id, full_path: g.full_path, path: g.path, name: g.name, visibility: g.visibility };
}

export async function buildProject(namespaceId: number, attrs: { visibility?: string; token?: string } = {}) {
  const p = unique('project');
  const json = { name: p, namespace_id: namespaceId, visibility: attrs.visibility ?? 'private' };
  if (attrs.token) {
    const res = await request('/projects', { method: 'POST', token: attrs.token, json });
    expectStatus(res, 201);
    return res.body as { id: number; path_with_namespace: string };
  }
  const { db } = currentServer();
  const actor = await asAdministrator();
  const body = projectCreateBody.parse(json);
  const project = await createProject(db, actor.user!, await groupToCreateIn(db, actor, body.namespace_id, 'create_project', 'namespace_id'), body);
  return { id: project.id, path_with_namespace: project.path_with_namespace };
}

/** Makes the user a direct member of the group or project, as an administrator adding them would. */
export async function addMember(scope: 'groups' | 'projects', id: number, userId: number, level: number): Promise<void> {
  const { db } = currentServer();
  let source: MemberSource;
  if (scope === 'groups') {
    const group = await findGroup(db, String(id));
    if (!group) throw new Error(`no group ${id}`);
    source = { type: 'group', id, group };
  } else {
    const found = await findProject(db, String(id));
    if (!found) throw new Error(`no project ${id}`);
    source = { type: 'project', id, group: found.group };
  }
  await addMemberTo(db, await asAdministrator(), 0, source, memberCreateBody.parse({ user_id: userId, access_level: level }));
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
