// Runs on SQLite only: the rules are the policies' code, the same on both engines; what they read is read by the API tests and authorization-spanning on PostgreSQL
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { routes } from '../src/api/index.ts';
import { urlPathOf, type RouteSpec } from '../src/http/route.ts';
import { addMember, buildGroup, buildProject, buildUser, expectStatus, request as api, routeKey, startTestServer, type TestServer, scimUserBody } from './harness.ts';
import { startReceiver, type Receiver } from './receiver.ts';
import { PNG_BYTES } from './fuzz-lib.ts';
import { createExport } from '../src/services/security/exports/exports.ts';
import { createPersonalAccessToken } from '../src/services/access/personal-access-tokens.ts';
import { personalAccessTokenCreateBody } from '../../shared/src/personal-access-tokens.ts';

const run = promisify(execFile);

/**
 * The authorisation matrix: every route of the table × every kind of caller, each answer
 * compared with what the route declares (auth, scope, load, permission). The expectations come
 * from the tables below, written independently of the policies module: a route that declares a
 * permission or a scope these tables do not know fails here until someone decides what it means.
 */

const GUEST = 10;
const REPORTER = 20;
const DEVELOPER = 30;
const MAINTAINER = 40;
const OWNER = 50;
/** Who may perform an action: a minimum role on the group or project, any signed-in user, or administrators only. */
type Need = number | 'signed-in' | 'admin';
/** Group and project twins ask for one action, whose need depends on what the route loads. */
type TwinNeed = { group: Need; project: Need };

const MINIMUM_ROLE: Record<string, Need | TwinNeed> = {
  read_members: { group: GUEST, project: GUEST },
  admin_members: { group: MAINTAINER, project: MAINTAINER },
  // Invitations by email: a group's Owners, a project's Maintainers (the platform's admin_group, admin_project).
  admin_invitations: { group: OWNER, project: MAINTAINER },
  admin_hooks: { group: OWNER, project: MAINTAINER },
  read_group: GUEST,
  read_group_settings: OWNER,
  admin_group: OWNER,
  remove_group: OWNER,
  export_group: OWNER,
  admin_placeholders: OWNER,
  admin_deploy_tokens: MAINTAINER,
  revoke_group_tokens: OWNER,
  // A new group's defaults: subgroups by Maintainers, projects by Developers.
  create_subgroup: MAINTAINER,
  create_project: DEVELOPER,
  read_project: GUEST,
  admin_project: MAINTAINER,
  remove_project: OWNER,
  change_namespace: OWNER,
  // The fixture project is private: its code is for Reporters and up; pushing for Developers.
  download_code: REPORTER,
  push_code: DEVELOPER,
  // Pipelines are read like the code of the (private) fixture project; moved by Developers.
  read_pipeline: REPORTER,
  update_pipeline: DEVELOPER,
  destroy_pipeline: OWNER,
  admin_pipeline_triggers: MAINTAINER,
  create_security_report: DEVELOPER,
  read_vulnerability: DEVELOPER,
  admin_vulnerability: MAINTAINER,
  create_snippet: REPORTER,
  // Security exports and the dependency list: Developers and up, as on the platform.
  create_vulnerability_export: DEVELOPER,
  read_dependency: DEVELOPER,
  // Planning (milestones, iteration cadences) by Reporters; deleting a group milestone by Developers.
  admin_milestones: REPORTER,
  // A project milestone is deleted by Reporters (the platform's admin_milestone).
  destroy_milestones: { group: DEVELOPER, project: REPORTER },
  // CI/CD variables, values and all: a project's Maintainers, a group's Owners.
  admin_cicd_variables: { group: OWNER, project: MAINTAINER },
  // Work items: anyone who sees the (private) project opens issues and comments; Reporters triage; merge requests as the code.
  create_issue: GUEST,
  admin_issue: REPORTER,
  destroy_issue: OWNER,
  create_note: GUEST,
  read_merge_request: REPORTER,
  create_merge_request: DEVELOPER,
  update_merge_request: DEVELOPER,
  // Approving a merge request (and taking it back): Developers and up, as the platform's approve_merge_request.
  approve_merge_request: DEVELOPER,
  admin_label: { group: REPORTER, project: REPORTER },
  admin_instance: 'admin',
  // The Features API: administrators, as the platform's authenticated_as_admin!.
  admin_features: 'admin',
  read_admin_fields: 'admin',
  create_group: 'signed-in',
  read_users: 'signed-in',
  read_self: 'signed-in',
  admin_epic: REPORTER,
  // Error tracking: its setting and keys by Maintainers (the platform's admin_operations); its errors read and triaged by Reporters.
  admin_error_tracking: MAINTAINER,
  read_error_tracking: REPORTER,
  update_error_tracking: REPORTER,
  // Container repository protection rules: Maintainers (the platform's admin_container_image).
  admin_container_image: MAINTAINER,
  // The project's container repositories and tags: as its code (the fixture project is private).
  read_container_image: REPORTER,
  // Deleting a tag's image: Maintainers, as the registry's delete scope (a protection rule may ask more).
  destroy_container_image: MAINTAINER,
  // Maven virtual registries: read by members (Guests and up), managed by Maintainers, as on the platform.
  read_virtual_registry: GUEST,
  admin_virtual_registry: MAINTAINER,
};

/**
 * Whether a token with only this scope may make a call that needs each declared scope. A
 * route declaring a scope need that a row does not know fails here until the row says.
 */
const SCOPED_TOKEN_MAY: Record<'read_api' | 'read_user' | 'read_repository', Record<string, boolean>> = {
  read_api: { read: true, read_user: true, any: true, write: false, self_rotate: false, ai_features: false },
  read_user: { read: false, read_user: true, any: true, write: false, self_rotate: false, ai_features: false },
  read_repository: { read: false, read_user: false, any: true, write: false, self_rotate: false, ai_features: false },
};
type TokenScope = keyof typeof SCOPED_TOKEN_MAY;

/**
 * Routes whose handler (or the spec) refines what the declaration alone says, and why. Each
 * entry is a decision; a new one needs a reason as good as these.
 */
const HANDLER_RULES: Record<string, { need: Need; denied: 401 | 403; why: string; viaRecord?: string; stranger?: 403 }> = {
  'POST /groups/:id/access_tokens/:token_id/rotate': {
    need: OWNER,
    denied: 401,
    why: 'the spec answers 401 to a caller without access; the rule is in the service because a token may also rotate itself',
  },
  'DELETE /groups/:id/members/:user_id': { need: MAINTAINER, denied: 403, why: 'leaving needs only read access; removing another member needs admin_members' },
  'DELETE /projects/:id/members/:user_id': { need: MAINTAINER, denied: 403, why: 'leaving needs only read access; removing another member needs admin_members' },
  ...Object.fromEntries(
    [['GET /vulnerabilities/:id', DEVELOPER], ...['confirm', 'dismiss', 'resolve', 'revert'].map((a) => [`POST /vulnerabilities/:id/${a}`, MAINTAINER])].map(([key, need]) => [
      key,
      { need: need as Need, denied: 403 as const, viaRecord: 'Vulnerability', why: 'the platform’s path names the vulnerability, not its project: the role is the one held on the vulnerability’s project' },
    ]),
  ),
  ...Object.fromEntries(
    ['/security/vulnerability_exports/:id', '/dependency_list_exports/:id'].flatMap((path) => [`GET ${path}`, `GET ${path}/download`]).map((key) => [
      key,
      {
        need: DEVELOPER,
        denied: 403 as const,
        viaRecord: 'Export',
        stranger: 403 as const,
        why: 'an export is its author’s (each caller reads one of their own here, of the fixture project): the role that counts is the one the author holds now where the export was made, and once it no longer holds, the platform’s export policy answers 403',
      },
    ]),
  ),
  ...Object.fromEntries(
    [
      ['GET /virtual_registries/packages/maven/registries/:id', GUEST, 'Registry'],
      ['PATCH /virtual_registries/packages/maven/registries/:id', MAINTAINER, 'Registry'],
      ['DELETE /virtual_registries/packages/maven/registries/:id', MAINTAINER, 'Registry'],
      ['DELETE /virtual_registries/packages/maven/registries/:id/cache', MAINTAINER, 'Registry'],
      ['GET /virtual_registries/packages/maven/registries/:id/upstreams', GUEST, 'Registry'],
      ['POST /virtual_registries/packages/maven/registries/:id/upstreams', MAINTAINER, 'Registry'],
      ['GET /virtual_registries/packages/maven/upstreams/:id', GUEST, 'Upstream'],
      ['PATCH /virtual_registries/packages/maven/upstreams/:id', MAINTAINER, 'Upstream'],
      ['DELETE /virtual_registries/packages/maven/upstreams/:id', MAINTAINER, 'Upstream'],
      ['GET /virtual_registries/packages/maven/upstreams/:id/test', GUEST, 'Upstream'],
      ['PATCH /virtual_registries/packages/maven/registry_upstreams/:id', MAINTAINER, 'Registry upstream'],
      ['GET /api/console/virtual_registries/packages/maven/registries/:id/cache', GUEST, 'Registry'],
    ].map(([key, need, record]) => [
      key,
      { need: need as Need, denied: 403 as const, viaRecord: record as string, why: 'the platform’s path names the registry, upstream or an upstream’s place, not its group: the role is the one held on the record’s (top-level) group' },
    ]),
  ),
  'DELETE /projects/:id/snippets/:snippet_id': { need: MAINTAINER, denied: 403, why: 'a snippet’s author or a Maintainer deletes it; the fixture snippet is root’s' },
  'PUT /projects/:id/issues/:issue_iid': { need: REPORTER, denied: 403, why: 'an author edits their own issue; anyone else triages, which needs admin_issue (the fixture issue is root’s)' },
  'PUT /projects/:id/issues/:issue_iid/notes/:note_id': { need: 'admin', denied: 403, why: 'only its author (or an administrator) edits a note, as on the platform; the fixture note is root’s' },
  'PUT /projects/:id/merge_requests/:merge_request_iid/notes/:note_id': { need: 'admin', denied: 403, why: 'only its author (or an administrator) edits a note, as on the platform; the fixture note is root’s' },
  'DELETE /projects/:id/issues/:issue_iid/notes/:note_id': { need: MAINTAINER, denied: 403, why: 'an author deletes their own note; another’s needs admin_project (the fixture note is root’s)' },
  'DELETE /projects/:id/merge_requests/:merge_request_iid/notes/:note_id': { need: MAINTAINER, denied: 403, why: 'an author deletes their own note; another’s needs admin_project (the fixture note is root’s)' },
  'PUT /projects/:id/snippets/:snippet_id/notes/:note_id': { need: 'admin', denied: 403, why: 'only its author (or an administrator) edits a note, as on the platform; the fixture note is root’s' },
  'DELETE /projects/:id/snippets/:snippet_id/notes/:note_id': { need: MAINTAINER, denied: 403, why: 'an author deletes their own note; another’s needs admin_project (the fixture note is root’s)' },
};

type CallerKind = 'anonymous' | 'member' | 'non-member' | 'administrator' | 'scoped' | 'revoked' | 'expired';
interface Caller {
  name: string;
  kind: CallerKind;
  /** Role on the fixture group (and so on its project); 0 when none. */
  level: number;
  /** The only scope of a `scoped` caller's token. */
  scope?: TokenScope;
}

const CALLERS: Caller[] = [
  { name: 'anonymous', kind: 'anonymous', level: 0 },
  { name: 'a Guest', kind: 'member', level: GUEST },
  { name: 'a Reporter', kind: 'member', level: REPORTER },
  { name: 'a Developer', kind: 'member', level: DEVELOPER },
  { name: 'a Maintainer', kind: 'member', level: MAINTAINER },
  { name: 'an Owner', kind: 'member', level: OWNER },
  { name: 'a signed-in non-member', kind: 'non-member', level: 0 },
  { name: 'an administrator', kind: 'administrator', level: 0 },
  { name: "an Owner's read_api token", kind: 'scoped', level: OWNER, scope: 'read_api' },
  { name: "an Owner's read_user token", kind: 'scoped', level: OWNER, scope: 'read_user' },
  { name: "an Owner's read_repository token", kind: 'scoped', level: OWNER, scope: 'read_repository' },
  { name: "an Owner's revoked token", kind: 'revoked', level: OWNER },
  { name: "an Owner's expired token", kind: 'expired', level: OWNER },
];

type Expected = { allowed: true } | { status: 401 | 403 | 404 };


/** What the declaration implies for this caller. Throws when a declaration uses a name the tables do not know. */
function expectation(route: RouteSpec, caller: Caller): Expected {
  if (route.permission !== undefined && !(route.permission in MINIMUM_ROLE)) {
    throw new Error(`${routeKey(route)} declares the permission ${route.permission}, which MINIMUM_ROLE does not know: add it with the role it needs`);
  }
  const scope = route.scope ?? (route.method === 'get' ? 'read' : 'write');
  for (const [tokenScope, may] of Object.entries(SCOPED_TOKEN_MAY)) {
    if (!(scope in may)) throw new Error(`${routeKey(route)} declares the scope ${scope}, which SCOPED_TOKEN_MAY.${tokenScope} does not know`);
  }
  if (caller.kind === 'revoked' || caller.kind === 'expired') return { status: 401 };
  const rule = HANDLER_RULES[routeKey(route)];
  const declared = route.permission ? MINIMUM_ROLE[route.permission] : undefined;
  const need: Need | undefined = rule?.need ?? (typeof declared === 'object' ? declared[route.load === 'pipeline' ? 'project' : (route.load ?? 'group')] : declared);
  if (caller.kind === 'anonymous') {
    if (route.auth !== 'optional') return { status: 401 };
    // Anonymous callers see public resources only; the fixtures are private.
    if (route.load) return { status: 404 };
    return need === undefined ? { allowed: true } : { status: 401 };
  }
  if (caller.kind === 'scoped' && !SCOPED_TOKEN_MAY[caller.scope!][scope]) return { status: 403 };
  const admin = caller.kind === 'administrator';
  if ((route.load || rule?.viaRecord) && !admin && caller.level === 0) return { status: rule?.stranger ?? 404 };
  // A pipeline is loaded only by those who read the project's pipelines (of a private project: Reporters and up, as MINIMUM_ROLE.read_pipeline).
  if (route.load === 'pipeline' && !admin && caller.level < REPORTER) return { status: 404 };
  if (need === undefined || need === 'signed-in' || admin) return { allowed: true };
  if (need === 'admin') return { status: rule?.denied ?? 403 };
  // A role counts only where the route loads the group or project it is held on.
  const level = route.load || rule?.viaRecord ? caller.level : 0;
  return level >= need ? { allowed: true } : { status: rule?.denied ?? 403 };
}

// ─── fixtures ──────────────────────────────────────────────────────────────────────────

let server: TestServer;
let receiver: Receiver;
interface Person {
  id: number;
  token: string;
  tokenId: number;
}
/** `bystander`: a Guest of the group and the project whom no caller is, the member the calls that must not remove anyone name. */
const people = {} as Record<'guest' | 'reporter' | 'developer' | 'maintainer' | 'owner' | 'nonMember' | 'admin' | 'bystander', Person>;
const MEMBERS = [
  ['guest', GUEST],
  ['reporter', REPORTER],
  ['developer', DEVELOPER],
  ['maintainer', MAINTAINER],
  ['owner', OWNER],
] as const;
const fx = {} as {
  group: { id: number; full_path: string };
  project: { id: number };
  hooks: Record<'groups' | 'projects' | 'system', number>;
  events: Record<'groups' | 'projects' | 'system', number>;
  groupAccessTokenId: number;
  deployTokenId: number;
  scimUid: string;
  pipelineId?: string;
  vulnerabilityId?: Promise<number> | number;
  tokens: Record<TokenScope | 'revoked' | 'expired', string>;
  /** A client key of the project and an error it reported. */
  errorTracking?: { keyId: number; errorId: number };
  /** A virtual registry of the group with an upstream. */
  virtualRegistry?: Promise<{ registryId: number; upstreamId: number; linkId: number }>;
};
let serial = 0;

async function ok(path: string, init: Parameters<typeof api>[1], status: number) {
  const res = await api(path, { token: server.rootToken, ...init });
  expectStatus(res, status);
  return res.body;
}

/** The project's repository with a commit on main, pushed once by the real git client as root. */
const withCommit = new Map<number, Promise<void>>();
function repositoryWithCommit(projectId: number): Promise<void> {
  if (!withCommit.has(projectId)) {
    withCommit.set(
      projectId,
      (async () => {
        const project = await ok(`/projects/${projectId}`, {}, 200);
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-matrix-'));
        const url = new URL(`${server.url}/${project.path_with_namespace}.git`);
        url.username = 'root';
        url.password = server.rootToken;
        const env = { ...process.env, GIT_TERMINAL_PROMPT: '0', HOME: dir, GIT_AUTHOR_NAME: 'M', GIT_AUTHOR_EMAIL: 'm@example.com', GIT_COMMITTER_NAME: 'M', GIT_COMMITTER_EMAIL: 'm@example.com' };
        await run('git', ['clone', '--quiet', url.toString(), `${dir}/r`], { env });
        fs.writeFileSync(`${dir}/r/README.md`, 'matrix\n');
        await run('git', ['add', 'README.md'], { cwd: `${dir}/r`, env });
        await run('git', ['commit', '-q', '-m', 'matrix'], { cwd: `${dir}/r`, env });
        await run('git', ['push', '--quiet', 'origin', 'main'], { cwd: `${dir}/r`, env });
        fs.rmSync(dir, { recursive: true, force: true });
      })(),
    );
  }
  return withCommit.get(projectId)!;
}

/** A vulnerability of the fixture project: a SAST report uploaded to a pipeline of main. */
async function matrixVulnerability(): Promise<number> {
  const status = await ok(`/projects/${fx.project.id}/statuses/${await mainCommit(fx.project.id)}`, { method: 'POST', json: { state: 'success', name: 'sast', ref: 'main' } }, 201);
  const form = new FormData();
  form.set('report_type', 'sast');
  form.set('file', new Blob([fs.readFileSync(new URL('./fixtures/security/gl-sast-report.json', import.meta.url))]), 'gl-sast-report.json');
  await ok(`/projects/${fx.project.id}/pipelines/${status.pipeline_id}/reports`, { method: 'POST', multipart: form }, 201);
  return (await ok(`/projects/${fx.project.id}/vulnerabilities`, {}, 200))[0].id;
}

/** An error of the fixture project, reported to its collector with a client key of its own. */
async function matrixError(): Promise<{ keyId: number; errorId: number }> {
  const key = await ok(`/projects/${fx.project.id}/error_tracking/client_keys`, { method: 'POST' }, 201);
  const sent = await fetch(`${server.url}/api/v4/error_tracking/collector/api/${fx.project.id}/store?sentry_key=${key.public_key}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ message: 'matrix' }) });
  assert.equal(sent.status, 200, await sent.text());
  return { keyId: key.id, errorId: (await ok(`/projects/${fx.project.id}/error_tracking/errors`, {}, 200))[0].id };
}

/** A virtual registry of the fixture group with an upstream of its own (distinct credentials each time). */
async function matrixVirtualRegistry(): Promise<{ registryId: number; upstreamId: number; linkId: number }> {
  const registryId = (await ok(`/groups/${fx.group.id}/-/virtual_registries/packages/maven/registries`, { method: 'POST', json: { name: `matrix${++serial}` } }, 201)).id;
  const upstream = { url: `${receiver.url}/maven`, username: 'matrix', password: `matrix-${registryId}` };
  const made = await ok(`/virtual_registries/packages/maven/registries/${registryId}/upstreams`, { method: 'POST', json: upstream }, 201);
  return { registryId, upstreamId: made.id, linkId: made.registry_upstream.id };
}

/** The SHA of main in the project's repository (pushed first when needed). */
async function mainCommit(projectId: number): Promise<string> {
  await repositoryWithCommit(projectId);
  return (await ok(`/projects/${projectId}/repository/branches/main`, {}, 200)).commit.id;
}

const person = async (attrs: { admin?: boolean } = {}): Promise<Person> => {
  const u = await buildUser(attrs);
  return { id: u.user.id, token: u.token, tokenId: u.tokenId };
};

/** A credential for a caller, made in-process: the matrix tests what the credential may do, not how it was made. */
async function personalToken(userId: number, scopes: string[]): Promise<{ id: number; token: string }> {
  const made = await createPersonalAccessToken(server.running.db, userId, personalAccessTokenCreateBody.parse({ name: `matrix${++serial}`, scopes }));
  return { id: made.token.id, token: made.plaintext };
}

/** The user behind a caller (the Owner for the Owner's other tokens; the Owner's for anonymous). */
function userOf(caller: Caller): Person {
  if (caller.kind === 'member') return people[MEMBERS.find(([, level]) => level === caller.level)![0]];
  if (caller.kind === 'non-member') return people.nonMember;
  if (caller.kind === 'administrator') return people.admin;
  return people.owner;
}

/** A credential of this kind of caller. Fresh ones for calls that may revoke the credential they use. */
async function credential(caller: Caller, fresh: boolean): Promise<string | null> {
  switch (caller.kind) {
    case 'anonymous':
      return null;
    case 'scoped':
      return fresh ? (await personalToken(people.owner.id, [caller.scope!])).token : fx.tokens[caller.scope!];
    case 'revoked':
      return fresh ? revokedToken() : fx.tokens.revoked;
    case 'expired':
      return fresh ? expiredToken() : fx.tokens.expired;
    default:
      return fresh ? (await personalToken(userOf(caller).id, ['api'])).token : userOf(caller).token;
  }
}

async function revokedToken(): Promise<string> {
  const t = await personalToken(people.owner.id, ['api']);
  await ok(`/personal_access_tokens/${t.id}`, { method: 'DELETE' }, 204);
  return t.token;
}

async function expiredToken(): Promise<string> {
  const t = await personalToken(people.owner.id, ['api']);
  // The API refuses an expiry in the past; the database is told directly.
  await server.running.db.updateTable('personal_access_tokens').set({ expires_at: '2000-01-01' }).where('id', '=', t.id).execute();
  return t.token;
}

/** A private group where each member caller has their role. */
async function groupWithMembers() {
  const group = await buildGroup();
  for (const [name, level] of MEMBERS) await addMember('groups', group.id, people[name].id, level);
  return group;
}

async function hookWithEvent(scope: 'groups' | 'projects', id: number) {
  const hook = await ok(`/${scope}/${id}/hooks`, { method: 'POST', json: { url: `${receiver.url}/matrix`, push_events: true } }, 201);
  await ok(`/${scope}/${id}/hooks/${hook.id}/test/push_events`, { method: 'POST' }, 201);
  const events = await ok(`/${scope}/${id}/hooks/${hook.id}/events`, {}, 200);
  return { hookId: hook.id as number, eventId: events[0]?.id as number };
}

/** A system hook with its test delivery logged. */
async function systemHookWithEvent() {
  const hook = await ok('/hooks', { method: 'POST', json: { url: `${receiver.url}/matrix`, push_events: false } }, 201);
  await ok(`/hooks/${hook.id}`, { method: 'POST' }, 201);
  const events = await ok(`/api/console/admin/hooks/${hook.id}/events`, {}, 200);
  return { hookId: hook.id as number, eventId: events[0]?.id as number };
}

async function scimIdentity(groupId: number): Promise<string> {
  const scim = await ok(`/groups/${groupId}/scim/token`, { method: 'POST' }, 201);
  const n = `m${++serial}x${groupId}`;
  const user = scimUserBody(n);
  await ok(`${scim.scim_api_url}/Users`, { method: 'POST', token: null, headers: { Authorization: `Bearer ${scim.token}` }, json: user }, 201);
  return user.externalId;
}

before(async () => {
  // A gateway address for code suggestions' direct access (which only hands it out); no call here reaches it.
  server = await startTestServer({ GATEHOUSE_WORKERS: '0', GATEHOUSE_HOOK_TIMEOUT_SECONDS: '1', GATEHOUSE_AI_GATEWAY_URL: 'http://127.0.0.1:9' });
  receiver = await startReceiver();
  await ok('/application/settings', { method: 'PUT', json: { allow_local_requests_from_web_hooks_and_services: true } }, 200);
  for (const [name] of MEMBERS) people[name] = await person();
  people.nonMember = await person();
  people.admin = await person({ admin: true });
  fx.group = await groupWithMembers();
  fx.project = await buildProject(fx.group.id);
  // Merge train routes answer 403 where trains are off: on here, so the roles decide.
  await ok(`/api/console/projects/${fx.project.id}/merge_settings`, { method: 'PUT', json: { merge_trains_enabled: true } }, 200);
  // Error tracking on, so the collector reads what it is sent (refusing, with 400, a request that names no key).
  await ok(`/projects/${fx.project.id}/error_tracking/settings`, { method: 'PUT', json: { active: true, integrated: true } }, 200);
  // Direct members of the project as well, for the routes that read direct members only.
  await addMember('projects', fx.project.id, people.guest.id, GUEST);
  people.bystander = await person();
  await addMember('groups', fx.group.id, people.bystander.id, GUEST);
  await addMember('projects', fx.project.id, people.bystander.id, GUEST);
  const avatar = new FormData();
  avatar.set('avatar', new Blob([new Uint8Array(PNG_BYTES)], { type: 'image/png' }), 'avatar.png');
  await ok(`/groups/${fx.group.id}`, { method: 'PUT', multipart: avatar }, 200);
  fx.hooks = {} as typeof fx.hooks;
  fx.events = {} as typeof fx.events;
  for (const [scope, id] of [['groups', fx.group.id], ['projects', fx.project.id]] as const) {
    const made = await hookWithEvent(scope, id);
    fx.hooks[scope] = made.hookId;
    fx.events[scope] = made.eventId;
  }
  const system = await systemHookWithEvent();
  fx.hooks.system = system.hookId;
  fx.events.system = system.eventId;
  fx.groupAccessTokenId = (await ok(`/groups/${fx.group.id}/access_tokens`, { method: 'POST', json: { name: 'matrix', scopes: ['api'] } }, 201)).id;
  fx.deployTokenId = (await ok(`/groups/${fx.group.id}/deploy_tokens`, { method: 'POST', json: { name: 'matrix', scopes: ['read_repository'] } }, 201)).id;
  for (const path of [`/groups/${fx.group.id}`, `/projects/${fx.project.id}`, `/users/${people.guest.id}`]) {
    await ok(`${path}/custom_attributes/matrix`, { method: 'PUT', json: { value: 'v' } }, 200);
  }
  fx.scimUid = await scimIdentity(fx.group.id);
  fx.tokens = { revoked: await revokedToken(), expired: await expiredToken() } as typeof fx.tokens;
  for (const scope of Object.keys(SCOPED_TOKEN_MAY) as TokenScope[]) fx.tokens[scope] = (await personalToken(people.owner.id, [scope])).token;
});
after(async () => {
  await receiver.close();
  await server.close();
});

/**
 * The value of a path parameter: the shared fixtures for reads, throwaway records for calls
 * that would destroy what other cases need (the last parameter of a DELETE or a rotation).
 */
/** Each epic made for a case: its iid by its id. */
const epicIids = new Map<string, string>();

/** Merge requests shared by the calls that change nothing, by project and kind (see paramValue). */
const sharedMergeRequests = new Map<string, Promise<string>>();

/** A merge request from a branch with a commit of its own, into main or (`ownTarget`) a branch of its own; `car`: on the merge train. */
async function newMergeRequest(filled: Record<string, string>, ownTarget: boolean, car: boolean): Promise<string> {
  const branch = `mr${++serial}`;
  await ok(`/projects/${filled.id}/repository/commits`, { method: 'POST', json: { branch, start_branch: 'main', commit_message: 'matrix', actions: [{ action: 'create', file_path: `${branch}.txt`, content: 'm' }] } }, 201);
  // A merge request that is merged (on a train or at once) targets a branch of its own: only
  // Maintainers merge into the protected default branch, a rule of its own (401, as on the platform, before any other check).
  const target = ownTarget ? `${branch}-target` : 'main';
  if (ownTarget) await ok(`/projects/${filled.id}/repository/branches`, { method: 'POST', json: { branch: target, ref: 'main' } }, 201);
  const iid = (await ok(`/projects/${filled.id}/merge_requests`, { method: 'POST', json: { source_branch: branch, target_branch: target, title: branch } }, 201)).iid;
  // A car of the train to read.
  if (car) await ok(`/projects/${filled.id}/merge_trains/merge_requests/${iid}`, { method: 'POST', json: {} }, 201);
  return String(iid);
}

async function paramValue(route: RouteSpec, param: string, throwaway: boolean, caller: Caller, filled: Record<string, string>): Promise<string> {
  // /security/projects/:id/… is a project's route, /security/groups/:id/… a group's.
  const segments = route.path.split('/');
  const resource = (segments[1] === 'security' ? segments[2] : segments[1]) as 'groups' | 'projects' | 'users' | string;
  const scope = resource === 'projects' ? 'projects' : 'groups';
  const systemHook = resource === 'hooks' || route.path.startsWith('/admin/hooks/');
  switch (param) {
    case 'id':
      if (resource === 'users') return String(people.guest.id);
      if (resource === 'vulnerabilities') return String((fx.vulnerabilityId ??= await matrixVulnerability()));
      // An export is its author's only: one made by the caller's user (or the Owner's for the anonymous).
      if (resource === 'vulnerability_exports' || resource === 'dependency_list_exports') {
        const kind = resource === 'vulnerability_exports' ? 'vulnerability' : 'dependency_list';
        const made = await createExport(server.running.db, { kind, authorId: userOf(caller).id, exportable: { project_id: fx.project.id }, format: 'csv', sendEmail: false, oneAtATime: false });
        if (route.path.endsWith('/download')) {
          // Finished, with its file (this server runs no workers): something to download.
          const file = path.join(os.tmpdir(), `gatehouse-matrix-export-${made.id}-${++serial}.csv`);
          fs.writeFileSync(file, 'Name\n');
          await server.running.db.updateTable('exports').set({ status: 'finished', file_path: file }).where('id', '=', made.id).execute();
        }
        return String(made.id);
      }
      // The collector names the project by id (the DSN's); tracking is on there (see before).
      if (resource === 'error_tracking') return String(fx.project.id);
      // A registry, an upstream or an upstream's place by its own id: the group's, or a throwaway one for a call that deletes or empties it.
      if (resource === 'virtual_registries') {
        const made = throwaway ? matrixVirtualRegistry() : (fx.virtualRegistry ??= matrixVirtualRegistry());
        if (route.path.includes('/registry_upstreams/:id')) return String((await made).linkId);
        return String(route.path.includes('/upstreams/:id') ? (await made).upstreamId : (await made).registryId);
      }
      if (resource === 'projects') return String(throwaway ? (await buildProject(fx.group.id)).id : fx.project.id);
      // A group's export, written (this server runs no workers): something to download.
      if (route.path === '/groups/:id/export/download') {
        const key = `group-exports/${fx.group.id}.tar.gz`;
        await server.running.files.put(key, Readable.from([Buffer.from('matrix')]));
        const now = new Date().toISOString();
        await server.running.db
          .insertInto('group_exports')
          .values({ group_id: fx.group.id, author_id: null, status: 'finished', file_key: key, file_size: 6, expires_at: new Date(Date.now() + 86_400_000).toISOString(), created_at: now, updated_at: now })
          .onConflict((oc) => oc.column('group_id').doUpdateSet({ status: 'finished', file_key: key, expires_at: new Date(Date.now() + 86_400_000).toISOString() }))
          .execute();
        return String(fx.group.id);
      }
      // A pipeline by its own id: the project's matrix pipeline.
      if (resource === 'pipelines') return paramValue(route, 'pipeline_id', false, caller, { id: String(fx.project.id) });
      return String(throwaway ? (await groupWithMembers()).id : fx.group.id);
    case 'token_id':
      if (route.path.includes('/access_tokens')) {
        return String(throwaway ? (await ok(`/groups/${filled.id}/access_tokens`, { method: 'POST', json: { name: 'throwaway', scopes: ['api'] } }, 201)).id : fx.groupAccessTokenId);
      }
      if (route.path.includes('/deploy_tokens')) {
        return String(throwaway ? (await ok(`/groups/${filled.id}/deploy_tokens`, { method: 'POST', json: { name: 'throwaway', scopes: ['read_repository'] } }, 201)).id : fx.deployTokenId);
      }
      if (route.path.includes('/personal_access_tokens')) {
        // A token of the caller's own user: theirs to read and revoke.
        const user = userOf(caller);
        return String(throwaway ? (await personalToken(user.id, ['api'])).id : user.tokenId);
      }
      return '987654321';
    case 'hook_id':
      if (systemHook) return String(throwaway ? (await systemHookWithEvent()).hookId : fx.hooks.system);
      return String(throwaway ? (await hookWithEvent(scope, Number(filled.id))).hookId : fx.hooks[scope]);
    case 'hook_event_id':
      return String(fx.events[systemHook ? 'system' : scope]);
    case 'trigger':
      return 'push_events';
    case 'user_id': {
      if (!route.path.includes('/members/') || !throwaway) return String(people.bystander.id);
      // Someone else to remove: a fresh Guest of this group or project.
      const other = await person();
      await addMember(scope, Number(filled.id), other.id, GUEST);
      return String(other.id);
    }
    case 'key': {
      if (route.path.includes('/variables/')) {
        // A CI/CD variable of its own each time (a delete takes it).
        const key = `matrix${++serial}`;
        await ok(`/${resource}/${filled.id}/variables`, { method: 'POST', json: { key, value: 'matrix' } }, 201);
        return key;
      }
      if (!throwaway) return 'matrix';
      const key = `throwaway${++serial}`;
      await ok(`/${resource}/${filled.id}/custom_attributes/${key}`, { method: 'PUT', json: { value: 'v' } }, 200);
      return key;
    }
    case 'uid':
      return encodeURIComponent(throwaway ? await scimIdentity(Number(filled.id)) : fx.scimUid);
    case 'branch': {
      await repositoryWithCommit(Number(filled.id));
      if (!throwaway) return 'main';
      const name = `throwaway${++serial}`;
      await ok(`/projects/${filled.id}/repository/branches`, { method: 'POST', json: { branch: name, ref: 'main' } }, 201);
      return name;
    }
    case 'sha':
      return mainCommit(Number(filled.id));
    case 'file_path':
      if (route.path.includes('/snippets/')) return 'matrix.txt';
      await repositoryWithCommit(Number(filled.id));
      return 'README.md';
    case 'tag_name': {
      await repositoryWithCommit(Number(filled.id));
      const name = throwaway ? `throwaway${++serial}` : 'matrix';
      const made = await api(`/projects/${filled.id}/repository/tags`, { method: 'POST', json: { tag_name: name, ref: 'main' }, token: server.rootToken });
      assert.ok(made.status === 201 || (!throwaway && made.status === 400), made.text);
      return name;
    }
    case 'pipeline_id': {
      // A pipeline on main's commit; a throwaway one on a ref of its own.
      const ref = throwaway ? `throwaway${++serial}` : 'main';
      const made = async () => String((await ok(`/projects/${filled.id}/statuses/${await mainCommit(Number(filled.id))}`, { method: 'POST', json: { state: 'running', name: `matrix${++serial}`, ref } }, 201)).pipeline_id);
      if (throwaway) return made();
      return (fx.pipelineId ??= await made());
    }
    case 'project_id': {
      // On the caller's security dashboard, to be removed from it.
      const user = userOf(caller);
      await server.running.db.insertInto('security_dashboard_projects').values({ user_id: user.id, project_id: fx.project.id, created_at: new Date().toISOString() }).onConflict((oc) => oc.doNothing()).execute();
      return String(fx.project.id);
    }
    // The platform's epic routes take the iid (the epic, its issues, links, award emoji), its
    // note and event routes the id (epic_id): each gets its own, the iid kept by id for the latter.
    case 'epic_iid':
    case 'epic_id': {
      const made = await ok(`/groups/${filled.id}/epics`, { method: 'POST', json: { title: 'matrix' } }, 201);
      epicIids.set(String(made.id), String(made.iid));
      return String(param === 'epic_id' ? made.id : made.iid);
    }
    case 'trigger_id':
      return String((await ok(`/projects/${filled.id}/triggers`, { method: 'POST', json: { description: 'matrix' } }, 201)).id);
    case 'milestone_id':
      return String((await ok(`/${resource}/${filled.id}/milestones`, { method: 'POST', json: { title: `matrix ${++serial}` } }, 201)).id);
    case 'cadence_id':
      return String((await ok(`/groups/${filled.id}/iteration_cadences`, { method: 'POST', json: { title: 'matrix', automatic: false } }, 201)).id);
    // Work items: a fresh one each time (cheap), so destructive calls cannot take another case's.
    case 'issue_iid':
      return String((await ok(`/projects/${filled.id}/issues`, { method: 'POST', json: { title: `matrix${++serial}` } }, 201)).iid);
    case 'merge_request_iid': {
      await repositoryWithCommit(Number(filled.id));
      // A merge request is made with a commit of its own (git work, the matrix's costliest
      // fixture). A fresh one only for a call that may change it; reads, and calls refused
      // before they change anything, share one per project and kind.
      const target = route.path.includes('/merge_trains/') || route.path.endsWith('/merge') ? 'own' : 'main';
      const car = route.method === 'get' && route.path.includes('/merge_trains/merge_requests/');
      if (route.method === 'get' || !('allowed' in expectation(route, caller))) {
        const key = `${filled.id} ${target}${car ? ' car' : ''}`;
        if (!sharedMergeRequests.has(key)) sharedMergeRequests.set(key, newMergeRequest(filled, target === 'own', car));
        return sharedMergeRequests.get(key)!;
      }
      return newMergeRequest(filled, target === 'own', car);
    }
    case 'note_id': {
      // A comment (root's) on the noteable the path names: an issue, a merge request or a snippet.
      const noteable = route.path.slice(0, route.path.indexOf('/notes')).replace(/:([A-Za-z_]+)/g, (_m, name: string) => filled[name]);
      return String((await ok(`${noteable}/notes`, { method: 'POST', json: { body: 'matrix' } }, 201)).id);
    }
    case 'label_id':
      return String((await ok(`/${resource}/${filled.id}/labels`, { method: 'POST', json: { name: `matrix${++serial}`, color: '#123456' } }, 201)).id);
    case 'resource_state_event_id': {
      const epic = route.path.includes('/epics/') ? `groups/${filled.id}/epics/` : undefined;
      const item = epic ? `${epic}${epicIids.get(filled.epic_id)}` : `projects/${filled.id}/${route.path.includes('/issues/') ? `issues/${filled.issue_iid}` : `merge_requests/${filled.merge_request_iid}`}`;
      await ok(`/${item}`, { method: 'PUT', json: { state_event: 'close' } }, 200);
      return String((await ok(`/${epic ? `${epic}${filled.epic_id}` : item}/resource_state_events`, {}, 200))[0].id);
    }
    case 'resource_iteration_event_id': {
      // The issue put in an iteration of its project's group: one "add" event.
      const namespace = (await ok(`/projects/${filled.id}`, {}, 200)).namespace.id;
      const cadence = (await ok(`/groups/${namespace}/iteration_cadences`, { method: 'POST', json: { title: `matrix${++serial}`, automatic: false } }, 201)).id;
      const iteration = (await ok(`/groups/${namespace}/iteration_cadences/${cadence}/iterations`, { method: 'POST', json: { start_date: '2030-01-01', due_date: '2030-01-10' } }, 201)).id;
      await ok(`/projects/${filled.id}/issues/${filled.issue_iid}`, { method: 'PUT', json: { iteration_id: iteration } }, 200);
      return String((await ok(`/projects/${filled.id}/issues/${filled.issue_iid}/resource_iteration_events`, {}, 200))[0].id);
    }
    case 'snippet_id':
      return String((await ok(`/projects/${filled.id}/snippets`, { method: 'POST', json: { title: 'matrix', visibility: 'private', files: [{ file_path: 'matrix.txt', content: 'm' }] } }, 201)).id);
    case 'ref':
      return 'main';
    case 'name':
      // A protected branch or tag (a throwaway one for calls that change or remove it).
      for (const kind of ['protected_branches', 'protected_tags']) {
        if (!route.path.includes(`/${kind}/`)) continue;
        const name = throwaway ? `throwaway${++serial}` : 'matrix';
        const made = await api(`/projects/${filled.id}/${kind}`, { method: 'POST', json: { name }, token: server.rootToken });
        assert.ok(made.status === 201 || (!throwaway && (made.status === 409 || made.status === 422)), made.text);
        return name;
      }
      // A feature flag Gatehouse reads (a call that sets it sends no value: 400 for those let through).
      return 'vulnerabilities_pdf_export';
    case 'award_id': {
      // A reaction of the caller's own user where it has one (only its author removes it), else the Owner's.
      const awardable = route.path.slice(0, route.path.indexOf('/award_emoji')).replace(/:([A-Za-z_]+)/g, (_m, name: string) => filled[name]);
      // (A Guest does not see merge requests: the Owner's then.)
      const own = caller.kind === 'administrator' || (caller.kind === 'member' && (caller.level >= REPORTER || !route.path.includes('/merge_requests/')));
      const token = own ? userOf(caller).token : server.rootToken;
      // On a shared merge request (see merge_request_iid) the user may have reacted already: that reaction, then.
      const made = await api(awardable + '/award_emoji', { method: 'POST', json: { name: 'thumbsup' }, token });
      if (made.status === 201) return String(made.body.id);
      assert.match(made.text, /has already been taken/, made.text);
      const mine = await api(`${awardable}/award_emoji?per_page=100`, { token });
      const user = own ? userOf(caller).id : (await api('/user', { token })).body.id;
      return String((mine.body as { id: number; name: string; user: { id: number } }[]).find((a) => a.name === 'thumbsup' && a.user.id === user)!.id);
    }
    case 'issue_link_id': {
      const other = (await ok(`/projects/${filled.id}/issues`, { method: 'POST', json: { title: `matrix${++serial}` } }, 201)).iid;
      await ok(`/projects/${filled.id}/issues/${filled.issue_iid}/links`, { method: 'POST', json: { target_project_id: Number(filled.id), target_issue_iid: other } }, 201);
      return String((await ok(`/projects/${filled.id}/issues/${filled.issue_iid}/links`, {}, 200))[0].issue_link_id);
    }
    case 'key_id':
      // A client key of the project (a fresh one for a delete).
      return String(throwaway || !fx.errorTracking ? (await ok(`/projects/${filled.id}/error_tracking/client_keys`, { method: 'POST' }, 201)).id : fx.errorTracking.keyId);
    case 'error_id':
      return String((fx.errorTracking ??= await matrixError()).errorId);
    case 'repository_id': {
      // A container repository of the project, as the token service records it on a granted push (no registry here: no tags).
      await server.running.db.insertInto('container_repositories').values({ project_id: Number(filled.id), name: 'matrix', created_at: new Date().toISOString() }).onConflict((oc) => oc.doNothing()).execute();
      return String((await server.running.db.selectFrom('container_repositories').select('id').where('project_id', '=', Number(filled.id)).where('name', '=', 'matrix').executeTakeFirstOrThrow()).id);
    }
    case 'protection_rule_id': {
      // A container repository protection rule of its own each time (a delete takes it).
      const fullPath = (await ok(`/projects/${filled.id}`, {}, 200)).path_with_namespace;
      return String((await ok(`/projects/${filled.id}/registry/protection/repository/rules`, { method: 'POST', json: { repository_path_pattern: `${fullPath}/matrix${++serial}`, minimum_access_level_for_push: 'owner' } }, 201)).id);
    }
    case 'job_id': {
      // A background job that gave up, for an administrator to retry (one per call: a retried job is queued again).
      const now = new Date().toISOString();
      const job = await server.running.db
        .insertInto('jobs')
        .values({ kind: 'matrix-unknown', payload: '{}', state: 'failed', run_at: now, attempts: 5, max_attempts: 5, last_error: 'matrix', created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      return String(job.id);
    }
    case 'email': {
      // A pending invitation of its own each time (a delete withdraws it).
      const email = `matrix${++serial}@invited.example`;
      await ok(`/${route.path.startsWith('/projects/') ? 'projects' : 'groups'}/${filled.id}/invitations`, { method: 'POST', json: { email, access_level: GUEST } }, 201);
      return encodeURIComponent(email);
    }
    default:
      // A parameter this file does not know yet: an ID that exists nowhere (404 is then fine for a caller who may).
      return '987654321';
  }
}

async function pathFor(route: RouteSpec, caller: Caller, destructive: boolean): Promise<string> {
  const params = [...route.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]);
  const filled: Record<string, string> = {};
  for (const [i, p] of params.entries()) filled[p] = await paramValue(route, p, destructive && i === params.length - 1, caller, filled);
  if (route.path.endsWith('/push_rule') && route.method !== 'post') {
    // Something to read, change or delete.
    const owner = route.path.startsWith('/projects/') ? 'projects' : 'groups';
    const rule = await api(`/${owner}/${filled.id}/push_rule`, { token: server.rootToken });
    if (rule.status === 404 || rule.body === null) await ok(`/${owner}/${filled.id}/push_rule`, { method: 'POST', json: { commit_message_regex: '^matrix' } }, 201);
  }
  return urlPathOf(route).replace(/:([A-Za-z_]+)/g, (_m, p: string) => filled[p]);
}

/**
 * Routes whose handler, reached, answers a 404 of its own to every caller let through, because
 * what it asks for lives outside this matrix's server; the 404 must be that one (past
 * authentication, loading and authorisation), which then counts as reaching the handler.
 */
const NO_REGISTRY_TAG = {
  message: '404 Tag Not Found',
  why: 'no registry runs beside the matrix: the handler asks the registry for the tag (container-registry.test.ts reads and deletes one in a real registry)',
};
const OWN_404: Record<string, { message: string; why: string }> = {
  'GET /projects/:id/registry/repositories/:repository_id/tags/:tag_name': NO_REGISTRY_TAG,
  'DELETE /projects/:id/registry/repositories/:repository_id/tags/:tag_name': NO_REGISTRY_TAG,
};

/** Statuses answered to the callers let through, by route ('own 404' for an OWN_404 route's own answer). */
const reached: Record<string, (number | 'own 404')[]> = {};

const describeExpected = (e: Expected) => ('allowed' in e ? 'is let through' : `answers ${e.status}`);

for (const route of routes) {
  describe(routeKey(route), () => {
    const destructive = route.method === 'delete' || route.path.endsWith('/rotate');
    for (const caller of CALLERS) {
      let title: string;
      try {
        title = describeExpected(expectation(route, caller));
      } catch {
        title = 'has no expectation: the route declares a name the tables do not know';
      }
      it(`as ${caller.name}: ${title}`, async () => {
        const expected = expectation(route, caller);
        // Throwaway records and credentials only where the call may destroy them: a refused call must not.
        const throwaway = destructive && 'allowed' in expected;
        const path = await pathFor(route, caller, throwaway);
        const res = await fetch(`${server.url}${path}`, {
          method: route.method.toUpperCase(),
          headers: { ...(await credentialHeader(caller, throwaway)) },
        });
        const text = await res.text();
        const own404 = res.status === 404 && OWN_404[routeKey(route)] !== undefined && text === JSON.stringify({ message: OWN_404[routeKey(route)]!.message });
        if ('allowed' in expected) (reached[routeKey(route)] ??= []).push(own404 ? 'own 404' : res.status);
        const what = `${route.method.toUpperCase()} ${path} as ${caller.name}: ${res.status} ${text.slice(0, 300)}`;
        assert.ok(res.status < 500, what);
        if ('allowed' in expected) {
          assert.ok(![401, 403].includes(res.status), `expected the call to be let through; ${what}`);
          // A caller who may see the group or project is never told it does not exist.
          if (route.load) assert.doesNotMatch(text, /"404 (Group|Project) Not Found"/, what);
        } else {
          assert.equal(res.status, expected.status, what);
          const record = HANDLER_RULES[routeKey(route)]?.viaRecord ?? ({ project: 'Project', pipeline: 'Pipeline', group: 'Group' } as const)[route.load ?? 'group'];
          if (expected.status === 404) assert.match(text, new RegExp(`"404 ${record} Not Found"`), what);
        }
      });
    }
  });
}

async function credentialHeader(caller: Caller, fresh: boolean): Promise<Record<string, string>> {
  const token = await credential(caller, fresh);
  return token ? { 'PRIVATE-TOKEN': token } : {};
}

describe('the tables of this matrix', () => {
  it('know every permission and scope the route table declares', () => {
    const unknown = routes.flatMap((r) => {
      const scope = r.scope ?? (r.method === 'get' ? 'read' : 'write');
      return [
        ...(r.permission !== undefined && !(r.permission in MINIMUM_ROLE) ? [`${routeKey(r)}: permission ${r.permission}`] : []),
        ...Object.entries(SCOPED_TOKEN_MAY).flatMap(([tokenScope, may]) => (scope in may ? [] : [`${routeKey(r)}: scope ${scope} for a ${tokenScope} token`])),
      ];
    });
    assert.deepEqual(unknown, [], 'add each to MINIMUM_ROLE or SCOPED_TOKEN_MAY with what it requires');
  });
  it('let some caller reach the handler of every route (past authentication, loading and authorisation)', () => {
    // Answers of 404 only would mean the fixtures no longer fit the route, and the matrix proves little there.
    const unreached = routes.map(routeKey).filter((k) => !(reached[k] ?? []).some((status) => status !== 404));
    assert.deepEqual(unreached, [], JSON.stringify(Object.fromEntries(unreached.map((k) => [k, reached[k] ?? []]))));
  });
  it('name only routes that exist in HANDLER_RULES and OWN_404', () => {
    const keys = new Set(routes.map(routeKey));
    assert.deepEqual([...Object.keys(HANDLER_RULES), ...Object.keys(OWN_404)].filter((k) => !keys.has(k)), []);
  });
});
