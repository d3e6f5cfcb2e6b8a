import crypto from 'node:crypto';
import type { Db } from '../db/index.ts';
import type { Vault } from '../auth/vault.ts';
import { HOOK_EVENTS, type HookFlag } from '../../../shared/src/hooks.ts';
import { samplePayload, type PayloadContext } from '../services/webhooks/hook-payloads.ts';
import { ownerColumns, type TwinOwner } from '../db/twins.ts';
import type { Config } from '../config.ts';
import type { GroupRow, UserRow } from '../db/schema.ts';
import { randomPassword } from '../auth/secrets.ts';
import { createUser, findUserByUsername } from '../services/access/users.ts';
import { createGroup } from '../services/groups/groups.ts';
import { createProject } from '../services/groups/projects.ts';
import { addDays, nowIso } from '../util/time.ts';
import { createGroupAccessToken } from '../services/access/group-access-tokens.ts';
import { createDeployToken } from '../services/access/deploy-tokens.ts';
import { createPushRule } from '../services/git/group-push-rules.ts';
import { ensureRepository } from '../services/git/repositories.ts';
import { seedRepository } from './repositories.ts';
import { seedPipelines } from './pipelines.ts';
import { seedSecurity } from './security.ts';
import { seedSocial } from './social.ts';
import { seedEpics } from './epics.ts';
import { seedMilestones } from './milestones.ts';
import { seedWorkItems } from './work-items.ts';
import { seedMergeRequests } from './merge-requests.ts';

const PEOPLE = [
  { username: 'alice', name: 'Alice Owner' },
  { username: 'bob', name: 'Bob Maintainer' },
  { username: 'carol', name: 'Carol Developer' },
  { username: 'dave', name: 'Dave Reporter' },
  { username: 'erin', name: 'Erin Planner' },
  { username: 'frank', name: 'Frank Guest' },
];
const ROLE_OF: Record<string, number> = { bob: 40, carol: 30, dave: 20, erin: 15, frank: 10 };

interface GroupSeed {
  path: string;
  name: string;
  description: string;
  visibility: 'public' | 'internal' | 'private';
  projects: string[];
  children?: GroupSeed[];
}

const TREE: GroupSeed[] = [
  {
    path: 'acme',
    name: 'Acme Corp',
    description: 'Everything Acme ships.',
    visibility: 'public',
    projects: ['website', 'handbook'],
    children: [
      {
        path: 'platform',
        name: 'Platform',
        description: 'Shared services and infrastructure.',
        visibility: 'public',
        projects: ['api-gateway', 'billing', 'auth-service'],
        children: [{ path: 'observability', name: 'Observability', description: 'Metrics, logs and traces.', visibility: 'internal', projects: ['dashboards'] }],
      },
      { path: 'security', name: 'Security', description: 'Scanners, policies and audits.', visibility: 'private', projects: ['policies', 'scanner-rules'] },
    ],
  },
  {
    path: 'umbrella',
    name: 'Umbrella Labs',
    description: 'Research projects.',
    visibility: 'internal',
    projects: ['experiments'],
    children: [{ path: 'ml', name: 'Machine Learning', description: 'Models and pipelines.', visibility: 'internal', projects: ['training-pipeline'] }],
  },
  { path: 'skunkworks', name: 'Skunkworks', description: 'Not announced yet.', visibility: 'private', projects: ['prototype'] },
];

/**
 * Demo data for a fresh database: groups with subgroups and projects, and a user in each role
 * of the Acme group, so every screen has something real to show.
 */
export async function seedDemo(db: Db, config: Config, vault: Vault): Promise<{ password: string }> {
  const password = randomPassword();
  const users: Record<string, UserRow> = {};
  for (const p of PEOPLE) {
    users[p.username] =
      (await findUserByUsername(db, p.username)) ?? (await createUser(db, { ...p, email: `${p.username}@example.com`, password }));
  }
  const alice = users.alice;
  const plant = async (seed: GroupSeed, parent: GroupRow | null) => {
    const group = await createGroup(db, alice, { name: seed.name, path: seed.path, description: seed.description, visibility: seed.visibility, parent_id: parent?.id ?? null }, parent);
    for (const name of seed.projects) {
      const project = await createProject(db, alice, group, { name, namespace_id: group.id, description: `${name} of ${seed.name}`, visibility: seed.visibility });
      const authors = PEOPLE.slice(0, 4).map((p) => ({ name: p.name, email: `${p.username}@example.com` }));
      await seedRepository(await ensureRepository(db, config.repositoriesDir, project), { name, description: project.description ?? name }, authors, 24 + (project.id % 3) * 6);
    }
    for (const child of seed.children ?? []) await plant(child, group);
    return group;
  };
  const roots = [];
  for (const seed of TREE) roots.push(await plant(seed, null));
  const now = nowIso();
  for (const [username, level] of Object.entries(ROLE_OF)) {
    await db
      .insertInto('members')
      .values({ source_type: 'group', source_id: roots[0].id, user_id: users[username].id, access_level: level, created_by_id: alice.id, created_at: now, updated_at: now })
      .execute();
  }
  // Records of the access-control screens: tokens (their plaintexts are not kept), a push rule.
  const acme = roots[0];
  const aliceActor = { user: alice, via: 'token' as const, scopes: ['api'] };
  await createGroupAccessToken(db, aliceActor, acme, { name: 'release-bot', description: 'Publishes releases from CI', scopes: ['api'], access_level: 40 });
  await createGroupAccessToken(db, aliceActor, acme, { name: 'metrics-reader', scopes: ['read_api'], access_level: 20, expires_at: addDays(5) });
  await createDeployToken(db, acme, { name: 'registry-pull', scopes: ['read_registry', 'read_repository'] });
  await createPushRule(db, { scope: 'groups', id: acme.id }, {
    commit_message_regex: '^(feat|fix|docs|chore|refactor|test)(\\(.+\\))?: .+',
    branch_name_regex: '^(main|release/.+|(feature|fix)/[a-z0-9._-]+)$',
    author_email_regex: '@example\\.com$',
    file_name_regex: '\\.(exe|dll|jar)$',
    deny_delete_tag: true,
    prevent_secrets: true,
    max_file_size: 50,
  });
  const baseUrl = config.externalUrl ?? `http://localhost:${config.port}`;
  const website = await db.selectFrom('projects').selectAll().where('namespace_id', '=', acme.id).where('path', '=', 'website').executeTakeFirstOrThrow();
  await seedWorkItems(db, config, { project: website, group: acme, baseUrl }, [alice, users.bob, users.carol, users.dave]);
  await seedMergeRequests(db, config, { project: website, group: acme, baseUrl }, [alice, users.bob, users.carol, users.dave]);
  await seedHook(db, vault, {
    owner: { scope: 'groups', id: acme.id },
    name: 'CI notifier (demo)',
    description: 'Tells the CI system about pushes and membership changes',
    url: 'https://ci.example.com/hooks/{pipeline_key}',
    urlVariables: [{ key: 'pipeline_key', value: crypto.randomBytes(8).toString('hex') }],
    headers: [{ key: 'X-CI-Tenant', value: 'acme' }],
    flags: ['push_events', 'member_events', 'subgroup_events', 'tag_push_events'],
    payload: { baseUrl, user: alice, group: acme },
    deliveries: GROUP_HOOK_DELIVERIES,
  });
  // A project hook, so a Maintainer (who may not see group hooks) has deliveries to review.
  await seedHook(db, vault, {
    owner: { scope: 'projects', id: website.id },
    name: 'Deploy previews (demo)',
    description: 'Builds a preview site for every merge request and push',
    url: 'https://previews.example.com/webhooks/website',
    urlVariables: [],
    headers: [],
    flags: ['push_events', 'merge_requests_events', 'pipeline_events', 'tag_push_events'],
    payload: { baseUrl, user: users.bob, group: acme, project: website },
    deliveries: weekOfDeliveries(['push_events', 'merge_requests_events', 'pipeline_events', 'tag_push_events']),
  });
  await seedPipelines(db, config, vault, website, [alice, users.bob, users.carol]);
  await seedSecurity(db, website, [users.bob, users.carol]);
  await seedSocial(db, website, [alice, users.bob, users.carol]);
  await seedEpics(db, acme, users);
  await seedMilestones(db, acme, website, [alice, users.bob, users.carol]);
  return { password };
}

const HOOK_FLAGS_ALL = Object.keys(HOOK_EVENTS) as HookFlag[];

/** A delivery of the demo's history: the event, the receiver's status (null: no answer) and body. */
export type DemoDelivery = [HookFlag, number | null, string];

const GROUP_HOOK_DELIVERIES: DemoDelivery[] = [
  ['push_events', 200, '{"status":"queued"}'],
  ['member_events', 200, '{"status":"ok"}'],
  ['push_events', 404, '{"error":"pipeline not found"}'],
  ['subgroup_events', 200, '{"status":"ok"}'],
  ['push_events', 500, 'Internal Server Error'],
  ['push_events', null, ''],
  ['tag_push_events', 200, '{"status":"queued"}'],
];

/** A week of mostly successful deliveries with the failures a real receiver has: a 404, 500s, a 429, timeouts. */
export function weekOfDeliveries(flags: HookFlag[], count = 42): DemoDelivery[] {
  const out: DemoDelivery[] = [];
  for (let i = 0; i < count; i++) {
    const flag = flags[i % flags.length];
    const failure =
      i % 17 === 5 ? [500, 'Internal Server Error'] : i % 13 === 7 ? [null, ''] : i === 24 ? [404, '{"error":"no such site"}'] : i === 31 ? [429, '{"error":"slow down"}'] : null;
    out.push(failure ? [flag, failure[0] as number | null, failure[1] as string] : [flag, i % 3 ? 200 : 202, '{"status":"accepted"}']);
  }
  return out;
}

export interface DemoHook {
  owner: TwinOwner;
  name: string;
  description: string;
  url: string;
  urlVariables: { key: string; value: string }[];
  headers: { key: string; value: string }[];
  flags: HookFlag[];
  payload: PayloadContext;
  /** Oldest first, spread evenly over the past week. */
  deliveries: DemoDelivery[];
}

/**
 * A hook with a history of deliveries, so the delivery log has something to show. Its receiver
 * is not reachable from a fresh install (example.com), so the hook row and its past deliveries
 * are written directly rather than sent; new events will fail against it until its URL is
 * changed, which is also what the health column and banner are for.
 */
export async function seedHook(db: Db, vault: Vault, h: DemoHook): Promise<{ id: number }> {
  const now = Date.now();
  const week = 7 * 86_400_000;
  const created = new Date(now - week - 3_600_000).toISOString();
  const hook = await db
    .insertInto('web_hooks')
    .values({
      ...ownerColumns(h.owner),
      uuid: crypto.randomUUID(),
      scope: h.owner.scope === 'groups' ? 'group' : 'project',
      url: h.url,
      name: h.name,
      description: h.description,
      encrypted_token: vault.encrypt(crypto.randomBytes(12).toString('hex')),
      encrypted_custom_headers: vault.encryptJson(h.headers),
      encrypted_url_variables: vault.encryptJson(h.urlVariables),
      custom_webhook_template: null,
      push_events_branch_filter: null,
      disabled_until: null,
      ...Object.fromEntries(HOOK_FLAGS_ALL.map((f) => [f, h.flags.includes(f) ? 1 : 0])),
      created_at: created,
      updated_at: created,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const redacted = Object.fromEntries(h.headers.map((x) => [x.key, '[REDACTED]']));
  const step = week / h.deliveries.length;
  const rows = h.deliveries.map(([flag, status, body], i) => ({
    web_hook_id: hook.id,
    trigger: HOOK_EVENTS[flag].trigger,
    url: h.url,
    request_headers: JSON.stringify({
      'Content-Type': 'application/json',
      'User-Agent': 'Gatehouse/0.1',
      'Idempotency-Key': crypto.randomUUID(),
      'X-Service-Event': HOOK_EVENTS[flag].header,
      'X-Service-Token': '[REDACTED]',
      'X-Gitlab-Event': HOOK_EVENTS[flag].header,
      'X-Gitlab-Token': '[REDACTED]',
      ...redacted,
    }),
    request_data: JSON.stringify(samplePayload(flag, h.payload)),
    response_headers: JSON.stringify(status === null ? {} : { 'content-type': body.startsWith('{') ? 'application/json' : 'text/plain' }),
    response_body: body,
    response_status: status === null ? 'internal error' : String(status),
    execution_duration: status === null ? 10 : 0.05 + (i % 7) * 0.03,
    internal_error_message: status === null ? 'Request timed out after 10 s' : null,
    idempotency_key: crypto.randomUUID(),
    event_uuid: crypto.randomUUID(),
    created_at: new Date(now - week + (i + 0.5) * step).toISOString(),
  }));
  // In batches: a large history (the perf spec's 10,000 deliveries) is written in seconds, within SQLite's variable limit.
  for (let i = 0; i < rows.length; i += 500) await db.insertInto('web_hook_logs').values(rows.slice(i, i + 500)).execute();
  return hook;
}
