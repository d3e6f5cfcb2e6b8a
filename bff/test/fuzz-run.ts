import fc from 'fast-check';
import { sql } from 'kysely';
import type { Db } from '../src/db/index.ts';
import { tokenDigest } from '../src/auth/secrets.ts';
import { addMember, buildGroup, buildProject, buildUser, expectStatus, request, type TestServer } from './harness.ts';
import { startReceiver, type Receiver } from './receiver.ts';
import { FUZZ_CORPUS } from './fuzz-corpus.ts';
import { caseArb, operationsOf, PNG_BYTES, type FuzzCase, type OpenApiDocument, type Segment } from './fuzz-lib.ts';
import { buildRefusedCallers, leakIn, MARKERS, placeRefusedCallers, type RefusedAs, type RefusedCallers } from './fuzz-leaks.ts';
import { insertFindings } from './export-fixtures.ts';

/**
 * Runs generated cases against a real server and checks what every answer must be: never a
 * 5xx, a JSON body with exactly `Content-Type: application/json`, and no row added or removed
 * by a rejected write (or by any read). Failures are collected, not thrown, so one run reports
 * them all with what it takes to replay each.
 */

// ─── row counts ────────────────────────────────────────────────────────────────────────

const tablesOf = new WeakMap<Db, Promise<string[]>>();

/** Rows in every table of the schema (found by introspection, so a new table is counted too). */
export async function rowCounts(db: Db): Promise<Record<string, number>> {
  let tables = tablesOf.get(db);
  if (!tables) {
    tables = db.introspection.getTables().then((list) => list.map((t) => t.name).filter((n) => !n.startsWith('kysely_')).sort());
    tablesOf.set(db, tables);
  }
  const names = await tables;
  const counts = sql<Record<string, number | string>>`select ${sql.join(names.map((t) => sql`(select count(*) from ${sql.table(t)}) as ${sql.ref(t)}`))}`;
  const { rows } = await counts.execute(db);
  return Object.fromEntries(Object.entries(rows[0]).map(([k, v]) => [k, Number(v)]));
}

export function countChanges(before: Record<string, number>, after: Record<string, number>): string[] {
  return Object.keys({ ...before, ...after })
    .filter((t) => before[t] !== after[t])
    .map((t) => `${t} ${after[t] - before[t] > 0 ? '+' : ''}${after[t] - before[t]}`);
}

// ─── fixtures ──────────────────────────────────────────────────────────────────────────

/** Real records the generated path parameters point at; rebuilt when a case deletes them. */
export interface World {
  adminToken: string;
  memberUserId: number;
  group: { id: number; fullPath: string };
  project: { id: number; fullPath: string };
  hooks: { groups: number; projects: number; system: number };
  events: { groups: number; projects: number; system: number };
  groupAccessTokenId: number;
  deployTokenId: number;
  personalAccessTokenId: number;
  scimUid: string;
  /** A commit of the project, a pipeline on it and a trigger token. */
  sha: string;
  pipelineId: number;
  triggerId: number;
  /** An epic of the group: its iid (the epic's own routes) and its id (its note and event routes, epic_id). */
  epicIid: number;
  epicId: number;
  /** A manual iteration cadence of the group. */
  cadenceId: number;
  iterationEventId: number;
  /** A milestone of the group. */
  milestoneId: number;
  /** A milestone of the project. */
  projectMilestoneId: number;
  /** Work items of the project: an issue and a merge request, each with a note and a state event; a label of each owner. */
  issueIid: number;
  mergeRequestIid: number;
  /** A comment on each noteable (its issue, its merge request, its snippet). */
  notes: { issues: number; merge_requests: number; snippets: number };
  stateEvents: { issues: number; merge_requests: number };
  labels: { groups: number; projects: number };
  /** A snippet of the project (one file, `fuzz.txt`), a reaction on each awardable, a link between two issues. */
  snippetId: number;
  awards: Record<string, number>;
  issueLinkId: number;
  /** Integrated error tracking on in the project: a client key and an error it reported. */
  errorTrackingKeyId: number;
  /** A container repository protection rule of the project, and a container repository of it. */
  registryRuleId: number;
  containerRepositoryId: number;
  errorTrackingErrorId: number;
  /** A Maven virtual registry of the group, and an upstream of it (the receiver's address). */
  virtualRegistryId: number;
  virtualUpstreamId: number;
  /** Who made the fixtures (their activity is what a user's event feed shows). */
  rootId: number;
  /** Callers refused the private records (fuzz-leaks.ts). */
  refused: RefusedCallers;
}

const ok = async (path: string, init: Parameters<typeof request>[1], status: number) => {
  const res = await request(path, init);
  expectStatus(res, status);
  return res.body;
};

async function hookWithEvent(receiver: Receiver, scope: 'groups' | 'projects', id: number) {
  const hook = await ok(`/${scope}/${id}/hooks`, { method: 'POST', json: { url: `${receiver.url}/fuzz`, push_events: true } }, 201);
  await ok(`/${scope}/${id}/hooks/${hook.id}/test/push_events`, { method: 'POST' }, 201);
  const events = await ok(`/${scope}/${id}/hooks/${hook.id}/events`, {}, 200);
  return { hookId: hook.id as number, eventId: events[0].id as number };
}

/** A system hook with one delivery (its test) in its log. */
async function systemHookWithEvent(receiver: Receiver) {
  const hook = await ok('/hooks', { method: 'POST', json: { url: `${receiver.url}/fuzz`, push_events: false } }, 201);
  await ok(`/hooks/${hook.id}`, { method: 'POST' }, 201);
  const events = await ok(`/api/console/admin/hooks/${hook.id}/events`, {}, 200);
  return { hookId: hook.id as number, eventId: events[0].id as number };
}

async function buildProjectFixtures(db: Db, world: World, receiver: Receiver) {
  const project = await buildProject(world.group.id);
  world.project = { id: project.id, fullPath: project.path_with_namespace };
  // A new project copies its group's push rule, which a fuzz case may have set to anything valid
  // (seen: author_email_regex `z<`, refusing the fixtures' commits): the fixtures' project has none.
  const rule = await request(`/projects/${project.id}/push_rule`, { method: 'DELETE' });
  if (rule.status !== 204 && rule.status !== 404) expectStatus(rule, 204);
  await addMember('projects', project.id, world.memberUserId, 30);
  const { hookId, eventId } = await hookWithEvent(receiver, 'projects', project.id);
  world.hooks.projects = hookId;
  world.events.projects = eventId;
  await ok(`/projects/${project.id}/custom_attributes/fuzzkey`, { method: 'PUT', json: { value: 'v' } }, 200);
  // A repository with a commit, so the repository routes read a tree rather than answer "empty"; a pipeline on it and a trigger.
  const readme = { action: 'create', file_path: 'README.md', content: 'fuzz\n' };
  world.sha = (await ok(`/projects/${project.id}/repository/commits`, { method: 'POST', json: { branch: 'main', commit_message: `fuzz: first ${MARKERS.reporters}`, actions: [readme] } }, 201)).id;
  world.pipelineId = (await ok(`/projects/${project.id}/statuses/${world.sha}`, { method: 'POST', json: { state: 'running', name: 'fuzz' } }, 201)).pipeline_id;
  world.triggerId = (await ok(`/projects/${project.id}/triggers`, { method: 'POST', json: { description: 'fuzz' } }, 201)).id;
  // Merge trains on, so their routes answer lists rather than 403.
  await ok(`/projects/${project.id}`, { method: 'PUT', json: { merge_trains_enabled: true } }, 200);
  await ok(`/projects/${project.id}/repository/commits`, { method: 'POST', json: { branch: 'fuzz-mr', start_branch: 'main', commit_message: `fuzz: mr ${MARKERS.reporters}`, actions: [{ action: 'create', file_path: 'mr.txt', content: 'mr\n' }] } }, 201);
  // The private records' text carries the markers of who may read them (fuzz-leaks.ts).
  world.issueIid = (await ok(`/projects/${project.id}/issues`, { method: 'POST', json: { title: `fuzz ${MARKERS.members}` } }, 201)).iid;
  await ok(`/projects/${project.id}/issues`, { method: 'POST', json: { title: `fuzz ${MARKERS.reporters}`, confidential: true, milestone_id: world.milestoneId } }, 201);
  world.projectMilestoneId = (await ok(`/projects/${project.id}/milestones`, { method: 'POST', json: { title: `fuzz ${project.id}` } }, 201)).id;
  await ok(`/projects/${project.id}/variables`, { method: 'POST', json: { key: 'fuzzkey', value: 'fuzz' } }, 201);
  await insertFindings(db, project.id, 2, { title: `fuzz ${MARKERS.reporters}` });
  world.mergeRequestIid = (await ok(`/projects/${project.id}/merge_requests`, { method: 'POST', json: { title: `fuzz ${MARKERS.reporters}`, source_branch: 'fuzz-mr', target_branch: 'main', milestone_id: world.milestoneId } }, 201)).iid;
  world.notes = { issues: 0, merge_requests: 0, snippets: 0 };
  world.stateEvents = { issues: 0, merge_requests: 0 };
  for (const [kind, iid] of [['issues', world.issueIid], ['merge_requests', world.mergeRequestIid]] as const) {
    world.notes[kind] = (await ok(`/projects/${project.id}/${kind}/${iid}/notes`, { method: 'POST', json: { body: 'fuzz' } }, 201)).id;
    await ok(`/projects/${project.id}/${kind}/${iid}`, { method: 'PUT', json: { state_event: 'close' } }, 200);
    await ok(`/projects/${project.id}/${kind}/${iid}`, { method: 'PUT', json: { state_event: 'reopen' } }, 200);
    world.stateEvents[kind] = (await ok(`/projects/${project.id}/${kind}/${iid}/resource_state_events`, {}, 200))[0].id;
  }
  // The issue in an iteration of the group's cadence: an iteration event to read.
  // A cadence of its own (a fuzzed DELETE may have taken the group's away before a rebuild).
  const cadence = (await ok(`/groups/${world.group.id}/iteration_cadences`, { method: 'POST', json: { title: `fuzz ${project.id}`, automatic: false } }, 201)).id;
  const iteration = (await ok(`/groups/${world.group.id}/iteration_cadences/${cadence}/iterations`, { method: 'POST', json: { start_date: '2030-01-01', due_date: '2030-01-10' } }, 201)).id;
  await ok(`/projects/${project.id}/issues/${world.issueIid}`, { method: 'PUT', json: { iteration_id: iteration } }, 200);
  world.iterationEventId = (await ok(`/projects/${project.id}/issues/${world.issueIid}/resource_iteration_events`, {}, 200))[0].id;
  world.labels = { ...world.labels, projects: (await ok(`/projects/${project.id}/labels`, { method: 'POST', json: { name: 'fuzz', color: '#123456' } }, 201)).id };
  world.snippetId = (await ok(`/projects/${project.id}/snippets`, { method: 'POST', json: { title: 'fuzz', visibility: 'private', files: [{ file_path: 'fuzz.txt', content: 'fuzz' }] } }, 201)).id;
  world.notes.snippets = (await ok(`/projects/${project.id}/snippets/${world.snippetId}/notes`, { method: 'POST', json: { body: 'fuzz' } }, 201)).id;
  // A reaction on each awardable, keyed by the awardable's path (as awardKey reads it from a route's path).
  const p = `/projects/${project.id}`;
  world.awards = {};
  for (const [key, path] of [
    ['issues', `${p}/issues/${world.issueIid}`],
    ['merge_requests', `${p}/merge_requests/${world.mergeRequestIid}`],
    ['snippets', `${p}/snippets/${world.snippetId}`],
    ['issues/notes', `${p}/issues/${world.issueIid}/notes/${world.notes.issues}`],
    ['merge_requests/notes', `${p}/merge_requests/${world.mergeRequestIid}/notes/${world.notes.merge_requests}`],
    ['snippets/notes', `${p}/snippets/${world.snippetId}/notes/${world.notes.snippets}`],
  ] as const) {
    world.awards[key] = (await ok(`${path}/award_emoji`, { method: 'POST', json: { name: 'thumbsup' } }, 201)).id;
  }
  const other = (await ok(`${p}/issues`, { method: 'POST', json: { title: 'fuzz linked' } }, 201)).iid;
  await ok(`${p}/issues/${world.issueIid}/links`, { method: 'POST', json: { target_project_id: project.id, target_issue_iid: other } }, 201);
  world.issueLinkId = (await ok(`${p}/issues/${world.issueIid}/links`, {}, 200))[0].issue_link_id;
  await ok(`${p}/error_tracking/settings`, { method: 'PUT', json: { active: true, integrated: true } }, 200);
  const key = await ok(`${p}/error_tracking/client_keys`, { method: 'POST' }, 201);
  world.errorTrackingKeyId = key.id;
  await db.insertInto('container_repositories').values({ project_id: project.id, name: 'fuzz', created_at: new Date().toISOString() }).execute();
  world.containerRepositoryId = (await db.selectFrom('container_repositories').select('id').where('project_id', '=', project.id).executeTakeFirstOrThrow()).id;
  world.registryRuleId = (await ok(`${p}/registry/protection/repository/rules`, { method: 'POST', json: { repository_path_pattern: `${project.path_with_namespace}/fuzz-*`, minimum_access_level_for_push: 'maintainer' } }, 201)).id;
  const sent = await fetch(`${new URL(key.sentry_dsn).origin}/api/v4/error_tracking/collector/api/${project.id}/store?sentry_key=${key.public_key}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ message: `fuzz ${MARKERS.reporters}`, level: 'error', user: { id: 'fuzz' } }),
  });
  if (sent.status !== 200) throw new Error(`the fixture error was not recorded: ${sent.status} ${await sent.text()}`);
  world.errorTrackingErrorId = (await ok(`${p}/error_tracking/errors`, {}, 200))[0].id;
  await placeRefusedCallers(db, world.refused, world);
}

/** Which fixture reaction a reaction route's :award_id names: its awardable's kind, and `/notes` for a comment's. */
const awardKey = (opPath: string) => `${opPath.split('/')[3]}${opPath.includes('/notes/') ? '/notes' : ''}`;

async function buildGroupFixtures(db: Db, world: World, receiver: Receiver) {
  const group = await buildGroup();
  world.group = { id: group.id, fullPath: group.full_path };
  world.labels = { ...world.labels, groups: (await ok(`/groups/${group.id}/labels`, { method: 'POST', json: { name: 'fuzz', color: '#123456' } }, 201)).id };
  await addMember('groups', group.id, world.memberUserId, 30);
  const { hookId, eventId } = await hookWithEvent(receiver, 'groups', group.id);
  world.hooks.groups = hookId;
  world.events.groups = eventId;
  world.groupAccessTokenId = (await ok(`/groups/${group.id}/access_tokens`, { method: 'POST', json: { name: 'fuzz', scopes: ['api'] } }, 201)).id;
  world.deployTokenId = (await ok(`/groups/${group.id}/deploy_tokens`, { method: 'POST', json: { name: 'fuzz', scopes: ['read_repository'] } }, 201)).id;
  await ok(`/groups/${group.id}/custom_attributes/fuzzkey`, { method: 'PUT', json: { value: 'v' } }, 200);
  await ok(`/groups/${group.id}/push_rule`, { method: 'POST', json: { commit_message_regex: '^fuzz' } }, 201);
  const avatar = new FormData();
  avatar.set('avatar', new Blob([Buffer.from(PNG_BYTES)], { type: 'image/png' }), 'avatar.png');
  await ok(`/groups/${group.id}`, { method: 'PUT', multipart: avatar }, 200);
  const scim = await ok(`/groups/${group.id}/scim/token`, { method: 'POST' }, 201);
  const scimUser = {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
    externalId: `ext-fuzz-${group.id}`,
    userName: `fuzz${group.id}@corp.example`,
    active: true,
    name: { givenName: 'Fuzz', familyName: 'Doe' },
    emails: [{ value: `fuzz${group.id}@corp.example`, primary: true, type: 'work' }],
  };
  await ok(scim.scim_api_url + '/Users', { method: 'POST', token: null, headers: { Authorization: `Bearer ${scim.token}` }, json: scimUser }, 201);
  world.scimUid = scimUser.externalId;
  const epic = await ok(`/groups/${group.id}/epics`, { method: 'POST', json: { title: 'fuzz' } }, 201);
  world.epicIid = epic.iid;
  world.epicId = epic.id;
  world.cadenceId = (await ok(`/groups/${group.id}/iteration_cadences`, { method: 'POST', json: { title: 'fuzz', automatic: false } }, 201)).id;
  world.milestoneId = (await ok(`/groups/${group.id}/milestones`, { method: 'POST', json: { title: `fuzz ${group.id}` } }, 201)).id;
  // The CI/CD variable the `key` fixture names on the variables routes.
  await ok(`/groups/${group.id}/variables`, { method: 'POST', json: { key: 'fuzzkey', value: 'fuzz' } }, 201);
  await virtualRegistryFixtures(world, receiver);
  await buildProjectFixtures(db, world, receiver);
}

/** A virtual registry of the group with an upstream (the receiver, which answers anything). */
async function virtualRegistryFixtures(world: World, receiver: Receiver) {
  world.virtualRegistryId = (await ok(`/groups/${world.group.id}/-/virtual_registries/packages/maven/registries`, { method: 'POST', json: { name: 'fuzz' } }, 201)).id;
  const upstream = { url: `${receiver.url}/maven`, name: 'fuzz', username: 'fuzz', password: `fuzz-${world.virtualRegistryId}` };
  world.virtualUpstreamId = (await ok(`/virtual_registries/packages/maven/registries/${world.virtualRegistryId}/upstreams`, { method: 'POST', json: upstream }, 201)).id;
}

export async function buildWorld(db: Db, receiver: Receiver): Promise<World> {
  await ok('/application/settings', { method: 'PUT', json: { allow_local_requests_from_web_hooks_and_services: true } }, 200);
  const admin = await buildUser({ admin: true });
  const member = await buildUser();
  const world = {
    adminToken: admin.token,
    memberUserId: member.user.id,
    hooks: {},
    events: {},
    personalAccessTokenId: member.tokenId,
    rootId: (await ok('/user', {}, 200)).id,
    refused: await buildRefusedCallers(),
  } as World;
  await ok(`/users/${member.user.id}/custom_attributes/fuzzkey`, { method: 'PUT', json: { value: 'v' } }, 200);
  await buildGroupFixtures(db, world, receiver);
  const system = await systemHookWithEvent(receiver);
  world.hooks.system = system.hookId;
  world.events.system = system.eventId;
  return world;
}

/**
 * Puts back what a successful DELETE, PUT or PATCH may have taken away: the credentials the run
 * uses, the group, the project and the hooks the paths point at (and their paths and URLs), the
 * fixture member, and the setting that lets hooks reach the local receiver. A POST only adds
 * (a rotation revokes the fixture token, which then answers as a revoked one should).
 */
export const mayTakeFixturesAway = (method: string) => ['DELETE', 'PUT', 'PATCH'].includes(method);

async function repair(db: Db, world: World, receiver: Receiver, rootToken: string, c: FuzzCase) {
  await db
    .updateTable('personal_access_tokens')
    .set({ revoked: 0, expires_at: null })
    .where('token_digest', 'in', [rootToken, world.adminToken, world.refused.guest.token, world.refused.former.token].map(tokenDigest))
    .execute();
  if (c.op.path === '/application/settings') {
    await ok('/application/settings', { method: 'PUT', json: { allow_local_requests_from_web_hooks_and_services: true } }, 200);
  }
  const group = await db.selectFrom('groups').select('full_path').where('id', '=', world.group.id).executeTakeFirst();
  if (!group) return buildGroupFixtures(db, world, receiver);
  world.group.fullPath = group.full_path;
  const project = await db.selectFrom('projects').select('path_with_namespace').where('id', '=', world.project.id).executeTakeFirst();
  if (!project) return buildProjectFixtures(db, world, receiver);
  world.project.fullPath = project.path_with_namespace;
  for (const [scope, type, id] of [['groups', 'group', world.group.id], ['projects', 'project', world.project.id]] as const) {
    const member = await db.selectFrom('members').select('id').where('source_type', '=', type).where('source_id', '=', id).where('user_id', '=', world.memberUserId).executeTakeFirst();
    if (!member) await addMember(scope, id, world.memberUserId, 30);
  }
  const registry = await db.selectFrom('virtual_registries').select('id').where('id', '=', world.virtualRegistryId).executeTakeFirst();
  if (!registry) await virtualRegistryFixtures(world, receiver);
  const systemHook = await db.selectFrom('web_hooks').select('id').where('id', '=', world.hooks.system).executeTakeFirst();
  if (!systemHook) {
    const made = await systemHookWithEvent(receiver);
    world.hooks.system = made.hookId;
    world.events.system = made.eventId;
  } else if (/^\/((api\/console\/)?admin\/)?hooks\//.test(c.op.path) && c.method !== 'delete') {
    await ok(`/hooks/${systemHook.id}`, { method: 'PUT', json: { url: `${receiver.url}/fuzz` } }, 200);
  }
  for (const scope of ['groups', 'projects'] as const) {
    const owner = scope === 'groups' ? world.group.id : world.project.id;
    const hook = await db.selectFrom('web_hooks').select('id').where('id', '=', world.hooks[scope]).executeTakeFirst();
    if (!hook) {
      const made = await hookWithEvent(receiver, scope, owner);
      world.hooks[scope] = made.hookId;
      world.events[scope] = made.eventId;
    } else if (c.op.path.startsWith(`/${scope}/:id/hooks/`) && c.method !== 'delete') {
      await ok(`/${scope}/${owner}/hooks/${hook.id}`, { method: 'PUT', json: { url: `${receiver.url}/fuzz` } }, 200);
    }
  }
}

/** The text a path parameter stands for in the URL. */
export function segmentText(world: World, opPath: string, param: string, seg: Segment): string {
  if ('raw' in seg) return seg.raw;
  const byPath = seg.fixture === 'path';
  const scope = opPath.startsWith('/projects') ? 'projects' : 'groups';
  const hookScope = /^\/((api\/console\/)?admin\/)?hooks\//.test(opPath) ? 'system' : scope;
  switch (param) {
    case 'id':
      if (opPath.startsWith('/users')) return String(world.memberUserId);
      // An export is its author's: the former member's (fuzz-leaks.ts).
      if (opPath.startsWith('/security/vulnerability_exports/')) return String(world.refused.exports.vulnerability);
      if (opPath.startsWith('/dependency_list_exports/')) return String(world.refused.exports.dependency_list);
      // The collector names its project by id only (the DSN's).
      if (opPath.startsWith('/error_tracking/collector/')) return String(world.project.id);
      // A virtual registry or an upstream by its own id.
      if (opPath.startsWith('/virtual_registries/packages/maven/registries/')) return String(world.virtualRegistryId);
      if (opPath.startsWith('/virtual_registries/packages/maven/upstreams/')) return String(world.virtualUpstreamId);
      if (scope === 'projects') return byPath ? encodeURIComponent(world.project.fullPath) : String(world.project.id);
      return byPath ? encodeURIComponent(world.group.fullPath) : String(world.group.id);
    case 'hook_id':
      return String(world.hooks[hookScope]);
    case 'hook_event_id':
      return String(world.events[hookScope]);
    case 'token_id':
      if (opPath.includes('/access_tokens')) return byPath ? 'self' : String(world.groupAccessTokenId);
      if (opPath.includes('/deploy_tokens')) return String(world.deployTokenId);
      return byPath ? 'self' : String(world.personalAccessTokenId);
    case 'user_id':
      // A user's activity: that of whoever made the fixtures.
      return String(opPath === '/users/:user_id/events' ? world.rootId : world.memberUserId);
    case 'key':
      return byPath ? 'fuzz%2Fkey' : 'fuzzkey';
    case 'uid':
      return encodeURIComponent(world.scimUid);
    case 'trigger':
      return byPath ? 'member_events' : 'push_events';
    case 'sha':
      return world.sha;
    case 'pipeline_id':
      return String(world.pipelineId);
    case 'trigger_id':
      return String(world.triggerId);
    case 'epic_iid':
      return String(world.epicIid);
    case 'epic_id':
      return String(world.epicId);
    case 'cadence_id':
      return String(world.cadenceId);
    case 'milestone_id':
      return String(scope === 'projects' ? world.projectMilestoneId : world.milestoneId);
    case 'issue_iid':
      return String(world.issueIid);
    case 'merge_request_iid':
      return String(world.mergeRequestIid);
    case 'note_id':
      return String(world.notes[opPath.split('/')[3] as keyof World['notes']]);
    case 'resource_state_event_id':
      return String(world.stateEvents[opPath.includes('/issues/') ? 'issues' : 'merge_requests']);
    case 'resource_iteration_event_id':
      return String(world.iterationEventId);
    case 'label_id':
      return String(world.labels[scope]);
    case 'snippet_id':
      return String(world.snippetId);
    case 'award_id':
      return String(world.awards[awardKey(opPath)]);
    case 'issue_link_id':
      return String(world.issueLinkId);
    case 'key_id':
      return String(world.errorTrackingKeyId);
    case 'error_id':
      return String(world.errorTrackingErrorId);
    case 'protection_rule_id':
      return String(world.registryRuleId);
    case 'repository_id':
      return String(world.containerRepositoryId);
    case 'ref':
      if (opPath.includes('/snippets/')) return 'main';
      return '987654321';
    case 'file_path':
      if (opPath.includes('/snippets/')) return 'fuzz.txt';
      return '987654321';
    case 'name':
      // A feature flag Gatehouse reads; by path, one it does not define.
      return byPath ? 'fuzz_undefined_flag' : 'vulnerabilities_pdf_export';
    default:
      // A parameter this file does not know yet: an ID that exists nowhere.
      return '987654321';
  }
}

// ─── sending and checking ──────────────────────────────────────────────────────────────

export interface Wire {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

const MAX_URL = 10_000;

export function toWire(baseUrl: string, world: World, c: FuzzCase): Wire {
  const path = c.op.path.replace(/:([A-Za-z_]+)/g, (_m, p: string) => segmentText(world, c.op.path, p, c.params[p]));
  const headers: Record<string, string> = {};
  if (c.caller.as === 'admin') headers['PRIVATE-TOKEN'] = world.adminToken;
  if (c.caller.as === 'admin-bearer') headers.Authorization = `Bearer ${world.adminToken}`;
  if (c.caller.as === 'junk') headers[c.caller.header] = c.caller.value;
  if (c.caller.as === 'guest' || c.caller.as === 'former') headers['PRIVATE-TOKEN'] = world.refused[c.caller.as].token;
  if (c.accept) headers.Accept = c.accept;
  if (c.body?.contentType) headers['Content-Type'] = c.body.contentType;
  const body = c.body ? (c.body.bytes ? Buffer.from(c.body.bytes) : c.body.text) : undefined;
  // Node refuses request heads over 16 KiB (431) before the app sees them: keep the URL under that.
  let query = c.query;
  while (query && path.length + query.length > MAX_URL) query = query.includes('&') ? query.slice(0, query.lastIndexOf('&')) : query.slice(0, Math.max(0, MAX_URL - path.length));
  return { method: c.method.toUpperCase(), url: `${baseUrl}/api/v4${path}${query ? `?${query}` : ''}`, headers, body };
}

export interface Answer {
  status: number;
  contentType: string | null;
  text: string;
  error?: string;
}

export async function send(w: Wire): Promise<Answer> {
  try {
    const body = Buffer.isBuffer(w.body) ? new Uint8Array(w.body) : w.body;
    const res = await fetch(w.url, { method: w.method, headers: w.headers, body, redirect: 'manual', signal: AbortSignal.timeout(30_000) });
    return { status: res.status, contentType: res.headers.get('content-type'), text: await res.text() };
  } catch (e) {
    const err = e as Error & { cause?: Error };
    return { status: 0, contentType: null, text: '', error: `${err.message}${err.cause ? ` (${err.cause.message})` : ''}` };
  }
}

/** What is wrong with an answer; empty when nothing is. */
export function problemsOf(w: Wire, a: Answer, changes: string[], route: { answersFile?: boolean; documented5xx?: number[] } = {}): string[] {
  if (a.error) return [`no answer: ${a.error}`];
  const problems: string[] = [];
  if (a.status >= 500 && !route.documented5xx?.includes(a.status)) problems.push(`answers ${a.status}`);
  const pathname = new URL(w.url).pathname;
  // A route whose document declares no JSON success answers with a file; every other answer with a body is JSON.
  const file = route.answersFile === true && a.status < 300;
  const bodyless = a.status === 204 || a.status === 304 || w.method === 'HEAD';
  if (pathname.startsWith('/api/v4') && !file && !bodyless) {
    if (a.contentType !== 'application/json') problems.push(`Content-Type is ${JSON.stringify(a.contentType)}, not exactly application/json`);
    else {
      try {
        JSON.parse(a.text);
      } catch {
        problems.push('the body is not JSON');
      }
    }
  }
  if (changes.length && a.status >= 400) problems.push(`a rejected ${w.method} changed row counts: ${changes.join(', ')}`);
  else if (changes.length && (w.method === 'GET' || w.method === 'OPTIONS')) problems.push(`a ${w.method} changed row counts: ${changes.join(', ')}`);
  return problems;
}

const preview = (s: string, n = 400) => (s.length > n ? `${JSON.stringify(s.slice(0, n))}… (${s.length} characters)` : JSON.stringify(s));

/** The request as a reader can replay it (the administrator's token named, not shown). */
export function describeWire(w: Wire, world: World): string {
  const url = w.url.replace(/^https?:\/\/[^/]+/, '');
  const named: [string, string][] = [
    [world.adminToken, '<administrator token>'],
    [world.refused.guest.token, '<Guest token>'],
    [world.refused.former.token, '<former member token>'],
  ];
  const headers = Object.entries(w.headers).map(([k, v]) => `${k}: ${named.reduce((text, [secret, name]) => text.replaceAll(secret, name), v)}`);
  const body = w.body === undefined ? '' : Buffer.isBuffer(w.body) ? ` body bytes ${w.body.toString('hex')}` : ` body ${preview(w.body)}`;
  return `${w.method} ${url.length > 600 ? `${url.slice(0, 600)}… (${url.length} characters)` : url} [${headers.join('; ') || 'no credential'}]${body}`;
}

export interface FuzzFailure {
  problem: string;
  route: string;
  request: string;
  answer: string;
}

export interface FuzzReport {
  engine: string;
  seed: number;
  sent: number;
  operations: number;
  perOperation: number;
  statuses: Record<string, number>;
  /** Statuses by declared operation, to see how deep each route was reached. */
  byOperation: Record<string, Record<string, number>>;
  failures: FuzzFailure[];
  /** The slowest requests, to keep the run's time in view. */
  slowest: { ms: number; request: string; status: number }[];
  /** Where the time went: answering requests, counting rows, putting fixtures back. */
  ms: { requests: number; counts: number; repairs: number };
  seconds: number;
  /** Requests sent as a caller refused the private records (a Guest, a former member, anonymous). */
  refusedSent: number;
  /** The leak check of the run, on the world as the run left it: the marker an answer's text shows this caller, if any. */
  leakIn: (as: RefusedAs, text: string) => Promise<string | undefined>;
}

/** Sends `runs` generated cases (spread evenly over every operation of the document). */
export async function runFuzz(server: TestServer, opts: { runs: number; seed: number; progress?: (line: string) => void }): Promise<FuzzReport> {
  const started = Date.now();
  const doc = (await (await fetch(`${server.url}/api/v4/openapi.json`)).json()) as OpenApiDocument;
  const ops = operationsOf(doc);
  // The corpus names its routes by method and path only: what the document says of them is looked up.
  const documented = new Map(ops.map((op) => [`${op.method} ${op.path}`, op]));
  const receiver = await startReceiver();
  const db = server.running.db;
  const report: FuzzReport = { engine: server.engine, seed: opts.seed, sent: 0, operations: ops.length, perOperation: Math.max(1, Math.ceil(opts.runs / ops.length)), statuses: {}, byOperation: {}, failures: [], slowest: [], ms: { requests: 0, counts: 0, repairs: 0 }, seconds: 0, refusedSent: 0, leakIn: async () => undefined };
  try {
    const world = await buildWorld(db, receiver);
    report.leakIn = (as, text) => leakIn(db, world.refused, world, as, text);
    let before = await rowCounts(db);
    const batches = [
      { label: 'the corpus of past failures', cases: FUZZ_CORPUS },
      ...ops.map((op, i) => ({ label: `${op.method.toUpperCase()} ${op.path}`, cases: fc.sample(caseArb(op), { numRuns: report.perOperation, seed: (opts.seed + i) | 0 }) })),
    ];
    for (const { label, cases } of batches) {
      for (const c of cases) {
        const wire = toWire(server.url, world, c);
        const t0 = performance.now();
        const answer = await send(wire);
        const ms = Math.round(performance.now() - t0);
        report.ms.requests += ms;
        if (report.slowest.length < 5 || ms > report.slowest[4].ms) {
          report.slowest = [...report.slowest, { ms, request: describeWire(wire, world).slice(0, 300), status: answer.status }].sort((a, b) => b.ms - a.ms).slice(0, 5);
        }
        const t1 = performance.now();
        const after = await rowCounts(db);
        report.ms.counts += performance.now() - t1;
        report.sent++;
        const bucket = answer.error ? 'no answer' : `${answer.status}`;
        report.statuses[bucket] = (report.statuses[bucket] ?? 0) + 1;
        const perOp = (report.byOperation[`${c.op.method.toUpperCase()} ${c.op.path}`] ??= {});
        perOp[bucket] = (perOp[bucket] ?? 0) + 1;
        const problems = problemsOf(wire, answer, countChanges(before, after), documented.get(`${c.op.method} ${c.op.path}`));
        const as = c.caller.as;
        if (as === 'guest' || as === 'former' || as === 'anonymous') {
          report.refusedSent++;
          const shown = await report.leakIn(as, answer.text);
          if (shown) problems.push(`leaks a record refused to ${as === 'former' ? 'a former member' : as === 'guest' ? 'a Guest' : 'anonymous callers'} (its text holds ${shown})`);
        }
        for (const problem of problems) {
          report.failures.push({
            problem,
            route: `${c.op.method.toUpperCase()} ${c.op.path}`,
            request: `${describeWire(wire, world)} (${c.caller.as}${c.body ? `, ${c.body.kind}` : ''})`,
            answer: `${answer.status} ${answer.contentType ?? ''} ${preview(answer.text, 300)}`,
          });
        }
        if (answer.status >= 200 && answer.status < 300 && mayTakeFixturesAway(wire.method)) {
          const t2 = performance.now();
          await repair(db, world, receiver, server.rootToken, c);
          before = await rowCounts(db);
          report.ms.repairs += performance.now() - t2;
        } else before = after;
      }
      opts.progress?.(`${label}: ${report.sent} sent, ${report.failures.length} failures`);
    }
  } finally {
    await receiver.close();
  }
  report.seconds = (Date.now() - started) / 1000;
  return report;
}

/** Failures grouped by problem and route, a few replayable examples of each. */
export function formatFailures(failures: FuzzFailure[], examples = 3): string {
  const groups = new Map<string, FuzzFailure[]>();
  for (const f of failures) {
    const key = `${f.problem.replace(/changed row counts: .*/, 'changed row counts')} — ${f.route}`;
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  return [...groups]
    .map(([key, list]) => [`${key} (${list.length}×)`, ...list.slice(0, examples).map((f) => `    ${f.request}\n      → ${f.problem}; ${f.answer}`)].join('\n'))
    .join('\n');
}
