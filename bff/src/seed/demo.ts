import crypto from 'node:crypto';
import type { Db } from '../db/index.ts';
import type { Vault } from '../auth/vault.ts';
import { HOOK_EVENTS, type HookFlag } from '../../../shared/src/hooks.ts';
import { samplePayload } from '../services/hook-payloads.ts';
import type { Config } from '../config.ts';
import type { GroupRow, UserRow } from '../db/schema.ts';
import { randomPassword } from '../auth/secrets.ts';
import { createUser, findUserByUsername } from '../services/users.ts';
import { createGroup } from '../services/groups.ts';
import { createProject } from '../services/projects.ts';
import { addDays, nowIso } from '../util/time.ts';
import { createGroupAccessToken } from '../services/group-access-tokens.ts';
import { createDeployToken } from '../services/deploy-tokens.ts';
import { createPushRule } from '../services/group-push-rules.ts';

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
      await createProject(db, alice, group, { name, namespace_id: group.id, description: `${name} of ${seed.name}`, visibility: seed.visibility });
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
  await createPushRule(db, acme, {
    commit_message_regex: '^(feat|fix|docs|chore|refactor|test)(\\(.+\\))?: .+',
    branch_name_regex: '^(main|release/.+|(feature|fix)/[a-z0-9._-]+)$',
    author_email_regex: '@example\\.com$',
    file_name_regex: '\\.(exe|dll|jar)$',
    deny_delete_tag: true,
    prevent_secrets: true,
    max_file_size: 50,
  });
  await seedHookDeliveries(db, config, vault, acme, alice);
  return { password };
}

/**
 * A hook of the Acme group with a few days of deliveries, so the delivery log has something to
 * show. Its receiver is not reachable from a fresh install (example.com), so the hook row and
 * its past deliveries are written directly rather than sent; new events will fail against it
 * until its URL is changed, which is also what the health column and banner are for.
 */
async function seedHookDeliveries(db: Db, config: Config, vault: Vault, acme: GroupRow, alice: UserRow) {
  const now = Date.now();
  const baseUrl = config.externalUrl ?? `http://localhost:${config.port}`;
  const hook = await db
    .insertInto('web_hooks')
    .values({
      uuid: crypto.randomUUID(),
      scope: 'group',
      group_id: acme.id,
      project_id: null,
      url: 'https://ci.example.com/hooks/{pipeline_key}',
      name: 'CI notifier (demo)',
      description: 'Tells the CI system about pushes and membership changes',
      encrypted_token: vault.encrypt(crypto.randomBytes(12).toString('hex')),
      encrypted_custom_headers: vault.encryptJson([{ key: 'X-CI-Tenant', value: 'acme' }]),
      encrypted_url_variables: vault.encryptJson([{ key: 'pipeline_key', value: crypto.randomBytes(8).toString('hex') }]),
      custom_webhook_template: null,
      push_events_branch_filter: null,
      disabled_until: null,
      member_events: 1,
      subgroup_events: 1,
      tag_push_events: 1,
      created_at: new Date(now - 5 * 86_400_000).toISOString(),
      updated_at: new Date(now - 5 * 86_400_000).toISOString(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const answers: [HookFlag, number | null, string][] = [
    ['push_events', 200, '{"status":"queued"}'],
    ['member_events', 200, '{"status":"ok"}'],
    ['push_events', 404, '{"error":"pipeline not found"}'],
    ['subgroup_events', 200, '{"status":"ok"}'],
    ['push_events', 500, 'Internal Server Error'],
    ['push_events', null, ''],
    ['tag_push_events', 200, '{"status":"queued"}'],
  ];
  for (const [i, [flag, status, body]] of answers.entries()) {
    const data = samplePayload(flag, { baseUrl, user: alice, group: acme });
    await db
      .insertInto('web_hook_logs')
      .values({
        web_hook_id: hook.id,
        trigger: HOOK_EVENTS[flag].trigger,
        url: 'https://ci.example.com/hooks/{pipeline_key}',
        request_headers: JSON.stringify({
          'Content-Type': 'application/json',
          'User-Agent': 'Gatehouse/0.1',
          'Idempotency-Key': crypto.randomUUID(),
          'X-Service-Event': HOOK_EVENTS[flag].header,
          'X-Service-Token': '[REDACTED]',
          'X-CI-Tenant': '[REDACTED]',
        }),
        request_data: JSON.stringify(data),
        response_headers: JSON.stringify(status === null ? {} : { 'content-type': body.startsWith('{') ? 'application/json' : 'text/plain' }),
        response_body: body,
        response_status: status === null ? 'internal error' : String(status),
        execution_duration: status === null ? 10 : 0.05 + i * 0.03,
        internal_error_message: status === null ? 'Request timed out after 10 s' : null,
        idempotency_key: crypto.randomUUID(),
        event_uuid: crypto.randomUUID(),
        created_at: new Date(now - (answers.length - i) * 7 * 3_600_000).toISOString(),
      })
      .execute();
  }
}
