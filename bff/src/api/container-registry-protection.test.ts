import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { registryProtectionRule } from '../../../shared/src/container-registry-protection.ts';
import { addMember, buildGroup, buildProject, buildUser, expectShape, expectStatus, request as api, startTestServer, userWithRole, type TestServer } from '../../test/harness.ts';
import { issueToken } from '../services/registry/token-service.ts';

let server: TestServer;
let project: { id: number; path_with_namespace: string };
let developer: Awaited<ReturnType<typeof userWithRole>>;
let maintainer: Awaited<ReturnType<typeof userWithRole>>;

const rules = (suffix = '', opts: Parameters<typeof api>[1] = {}) => api(`/projects/${project.id}/registry/protection/repository/rules${suffix}`, opts);

/** The registry's signing key (the server signs with it; the tests verify with its public half). */
const keyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-registry-key-'));
const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
fs.writeFileSync(path.join(keyDir, 'registry.key'), privateKey.export({ type: 'pkcs8', format: 'pem' }));

before(async () => {
  server = await startTestServer({ GATEHOUSE_REGISTRY_URL: 'http://registry.invalid:5000', GATEHOUSE_REGISTRY_KEY: path.join(keyDir, 'registry.key'), GATEHOUSE_REGISTRY_ISSUER: 'test-issuer' });
  const group = await buildGroup();
  project = await buildProject(group.id);
  developer = await userWithRole(group.id, 30);
  maintainer = await userWithRole(group.id, 40);
});
after(async () => {
  await server.close();
  fs.rmSync(keyDir, { recursive: true, force: true });
});

describe('POST /projects/:id/registry/protection/repository/rules', () => {
  it('creates a rule as a Maintainer (201, the spec’s shape); the same pattern again is 422', async () => {
    const pattern = `${project.path_with_namespace}/app-*`;
    const res = await rules('', { method: 'POST', token: maintainer.token, json: { repository_path_pattern: pattern, minimum_access_level_for_push: 'maintainer' } });
    expectStatus(res, 201);
    assert.deepEqual(expectShape(registryProtectionRule, res.body), {
      id: res.body.id,
      project_id: project.id,
      repository_path_pattern: pattern,
      minimum_access_level_for_push: 'maintainer',
      minimum_access_level_for_delete: null,
    });
    const again = await rules('', { method: 'POST', json: { repository_path_pattern: pattern, minimum_access_level_for_delete: 'owner' } });
    expectStatus(again, 422);
    assert.deepEqual(again.body, { message: { error: ['Repository path pattern has already been taken'] } });
  });

  it('answers 400 without a level or a pattern, or with a level it does not know', async () => {
    const none = await rules('', { method: 'POST', json: { repository_path_pattern: `${project.path_with_namespace}/x` } });
    expectStatus(none, 400);
    assert.deepEqual(none.body, { message: 'minimum_access_level_for_push, minimum_access_level_for_delete are missing, at least one parameter must be provided' });
    const noPattern = await rules('', { method: 'POST', json: { minimum_access_level_for_push: 'owner' } });
    expectStatus(noPattern, 400);
    assert.deepEqual(noPattern.body, { message: 'repository_path_pattern is missing' });
    const badLevel = await rules('', { method: 'POST', json: { repository_path_pattern: `${project.path_with_namespace}/x`, minimum_access_level_for_push: 'developer' } });
    expectStatus(badLevel, 400);
    assert.deepEqual(badLevel.body, { message: { minimum_access_level_for_push: ['does not have a valid value'] } });
  });

  it('answers 422 with the platform’s messages for a pattern outside the project or not a repository path', async () => {
    const outside = await rules('', { method: 'POST', json: { repository_path_pattern: 'other-group/app', minimum_access_level_for_push: 'owner' } });
    expectStatus(outside, 422);
    assert.deepEqual(outside.body, { message: { error: ["Repository path pattern should start with the project's full path"] } });
    const odd = await rules('', { method: 'POST', json: { repository_path_pattern: `${project.path_with_namespace}/bad!name`, minimum_access_level_for_push: 'owner' } });
    expectStatus(odd, 422);
    assert.deepEqual(odd.body, { message: { error: ['Repository path pattern should be a valid container repository path with optional wildcard characters.'] } });
    const blank = await rules('', { method: 'POST', json: { repository_path_pattern: '', minimum_access_level_for_push: 'owner' } });
    expectStatus(blank, 422);
    assert.equal(blank.body.message.error[0], "Repository path pattern can't be blank");
    // The project's path is matched whatever its case.
    const upper = await rules('', { method: 'POST', json: { repository_path_pattern: `${project.path_with_namespace.toUpperCase()}/x`, minimum_access_level_for_push: 'owner' } });
    expectStatus(upper, 422);
    assert.deepEqual(upper.body.message.error, ['Repository path pattern should be a valid container repository path with optional wildcard characters.']);
  });

  it('refuses callers below Maintainer (403), anonymous callers (401) and unknown projects (404)', async () => {
    const json = { repository_path_pattern: `${project.path_with_namespace}/dev`, minimum_access_level_for_push: 'owner' };
    expectStatus(await rules('', { method: 'POST', token: developer.token, json }), 403);
    expectStatus(await rules('', { method: 'POST', token: null, json }), 401);
    const missing = await api('/projects/987654321/registry/protection/repository/rules', { method: 'POST', json });
    expectStatus(missing, 404);
    assert.deepEqual(missing.body, { message: '404 Project Not Found' });
    assert.equal((await rules()).body.length, 1, 'nothing was made by the refused calls');
  });
});

describe('GET /api/console/projects/:id/registry', () => {
  it('gives the console the registry’s host and the project’s image prefix; 403 below Reporter', async () => {
    const res = await api(`/api/console/projects/${project.id}/registry`, { token: developer.token });
    expectStatus(res, 200);
    assert.deepEqual(res.body, { host: 'registry.invalid:5000', image_prefix: `registry.invalid:5000/${project.path_with_namespace.toLowerCase()}` });
    const guest = await buildUser();
    await addMember('projects', project.id, guest.user.id, 10);
    expectStatus(await api(`/api/console/projects/${project.id}/registry`, { token: guest.token }), 403);
  });
});

describe('GET /projects/:id/registry/protection/repository/rules', () => {
  it('lists the rules for Maintainers; 403 below, 401 with a bad token, 404 for an unknown project', async () => {
    const list = await rules('', { token: maintainer.token });
    expectStatus(list, 200);
    assert.deepEqual(expectShape(z.array(registryProtectionRule), list.body).map((r) => r.repository_path_pattern), [`${project.path_with_namespace}/app-*`]);
    expectStatus(await rules('', { token: developer.token }), 403);
    expectStatus(await rules('', { token: 'not-a-token' }), 401);
    expectStatus(await api('/projects/987654321/registry/protection/repository/rules'), 404);
  });
});

describe('PATCH /projects/:id/registry/protection/repository/rules/:protection_rule_id', () => {
  it('changes what is given, unsets a level with an empty string, and refuses to unset both (422)', async () => {
    const made = await rules('', { method: 'POST', json: { repository_path_pattern: `${project.path_with_namespace}/patch-me`, minimum_access_level_for_push: 'maintainer' } });
    const id = made.body.id;
    const both = await rules(`/${id}`, { method: 'PATCH', token: maintainer.token, json: { minimum_access_level_for_delete: 'admin', repository_path_pattern: `${project.path_with_namespace}/patched/*` } });
    expectStatus(both, 200);
    assert.deepEqual(
      [both.body.repository_path_pattern, both.body.minimum_access_level_for_push, both.body.minimum_access_level_for_delete],
      [`${project.path_with_namespace}/patched/*`, 'maintainer', 'admin'],
    );
    const unset = await rules(`/${id}`, { method: 'PATCH', json: { minimum_access_level_for_push: '' } });
    expectStatus(unset, 200);
    assert.equal(expectShape(registryProtectionRule, unset.body).minimum_access_level_for_push, null);
    const neither = await rules(`/${id}`, { method: 'PATCH', json: { minimum_access_level_for_delete: '' } });
    expectStatus(neither, 422);
    assert.deepEqual(neither.body, { message: { error: ['A rule must have at least a minimum access role for push or delete.'] } });
    const taken = await rules(`/${id}`, { method: 'PATCH', json: { repository_path_pattern: `${project.path_with_namespace}/app-*` } });
    expectStatus(taken, 422);
    assert.deepEqual(taken.body, { message: { error: ['Repository path pattern has already been taken'] } });
    expectStatus(await rules(`/${id}`, { method: 'PATCH', json: { minimum_access_level_for_push: 'guest' } }), 400);
    expectStatus(await rules(`/${id}`, { method: 'PATCH', token: developer.token, json: { minimum_access_level_for_push: 'owner' } }), 403);
    expectStatus(await rules(`/${id}`, { method: 'PATCH', token: null, json: { minimum_access_level_for_push: 'owner' } }), 401);
    const unchanged = await rules(`/${id}`, { method: 'PATCH', json: {} });
    expectStatus(unchanged, 200);
    assert.deepEqual([unchanged.body.minimum_access_level_for_push, unchanged.body.minimum_access_level_for_delete], [null, 'admin']);
    const unknown = await rules('/987654321', { method: 'PATCH', json: { minimum_access_level_for_push: 'owner' } });
    expectStatus(unknown, 404);
    assert.deepEqual(unknown.body, { message: '404 Not found' });
  });
});

describe('DELETE /projects/:id/registry/protection/repository/rules/:protection_rule_id', () => {
  it('deletes a rule (204) as a Maintainer; 403 below, 404 once gone or for a rule id that is not one', async () => {
    const made = await rules('', { method: 'POST', json: { repository_path_pattern: `${project.path_with_namespace}/gone`, minimum_access_level_for_delete: 'owner' } });
    expectStatus(await rules(`/${made.body.id}`, { method: 'DELETE', token: developer.token }), 403);
    expectStatus(await rules(`/${made.body.id}`, { method: 'DELETE', token: null }), 401);
    expectStatus(await rules(`/${made.body.id}`, { method: 'DELETE', token: maintainer.token }), 204);
    expectStatus(await rules(`/${made.body.id}`, { method: 'DELETE' }), 404);
    expectStatus(await rules('/not-an-id', { method: 'DELETE' }), 404);
    // A rule of another project is not found through this one.
    const other = await buildProject((await buildGroup()).id);
    const theirs = await api(`/projects/${other.id}/registry/protection/repository/rules`, { method: 'POST', json: { repository_path_pattern: `${other.path_with_namespace}/x`, minimum_access_level_for_push: 'owner' } });
    expectStatus(theirs, 201);
    expectStatus(await rules(`/${theirs.body.id}`, { method: 'DELETE' }), 404);
  });
});

// ─── the token service ────────────────────────────────────────────────────────────────────

/** Asks /jwt/auth as the registry's clients do: HTTP Basic, the service, one `scope` per repository. */
async function auth(opts: { user?: string; password?: string; service?: string; scopes?: string[] }) {
  const q = new URLSearchParams();
  if (opts.service !== null) q.set('service', opts.service ?? 'container_registry');
  for (const s of opts.scopes ?? []) q.append('scope', s);
  const headers: Record<string, string> = {};
  if (opts.password !== undefined) headers.Authorization = `Basic ${Buffer.from(`${opts.user ?? 'someone'}:${opts.password}`).toString('base64')}`;
  const res = await fetch(`${server.url}/jwt/auth?${q}`, { headers });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

/** The token's header and claims, its RS256 signature checked with the registry's public key. */
function verified(token: string) {
  const [h, p, sig] = token.split('.');
  assert.ok(crypto.verify('sha256', Buffer.from(`${h}.${p}`), publicKey, Buffer.from(sig, 'base64url')), 'the signature verifies with the public key');
  return { header: JSON.parse(Buffer.from(h, 'base64url').toString()), claims: JSON.parse(Buffer.from(p, 'base64url').toString()) };
}

describe('GET /jwt/auth', () => {
  let owner: Awaited<ReturnType<typeof buildUser>>;
  let reporter: Awaited<ReturnType<typeof userWithRole>>;
  let dev: Awaited<ReturnType<typeof userWithRole>>;
  let maint: Awaited<ReturnType<typeof userWithRole>>;
  let stranger: Awaited<ReturnType<typeof buildUser>>;
  let repo: { id: number; path_with_namespace: string };
  let base: string;
  before(async () => {
    const group = await buildGroup();
    repo = await buildProject(group.id);
    base = repo.path_with_namespace.toLowerCase();
    const registryScopes = ['read_registry', 'write_registry'];
    reporter = await userWithRole(group.id, 20, registryScopes);
    dev = await userWithRole(group.id, 30, registryScopes);
    maint = await userWithRole(group.id, 40, ['api']);
    owner = await userWithRole(group.id, 50, registryScopes);
    stranger = await buildUser({ scopes: registryScopes });
    for (const json of [
      { repository_path_pattern: `${base}/release*`, minimum_access_level_for_push: 'maintainer' },
      { repository_path_pattern: `${base}/vault`, minimum_access_level_for_push: 'owner', minimum_access_level_for_delete: 'admin' },
    ]) expectStatus(await api(`/projects/${repo.id}/registry/protection/repository/rules`, { method: 'POST', json }), 201);
  });

  it('signs an RS256 token for what the caller may do: kid the key’s libtrust ID, aud the service, the issuer, sub the user', async () => {
    const res = await auth({ user: dev.user.username, password: dev.token, scopes: [`repository:${base}/app:pull,push`] });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.headers.get('content-type'), 'application/json');
    const { header, claims } = verified(res.body.token);
    assert.equal(header.alg, 'RS256');
    assert.match(header.kid, /^([A-Z2-7]{4}:){11}[A-Z2-7]{4}$/);
    // The libtrust key ID, computed here from the public key as Distribution does.
    const digest = crypto.createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest().subarray(0, 30);
    let bits = '';
    for (const b of digest) bits += b.toString(2).padStart(8, '0');
    const b32 = bits.match(/.{5}/g)!.map((c) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'[parseInt(c, 2)]).join('');
    assert.equal(header.kid, b32.match(/.{4}/g)!.join(':'));
    assert.deepEqual([claims.iss, claims.aud, claims.sub], ['test-issuer', 'container_registry', dev.user.username]);
    assert.deepEqual(claims.access, [{ type: 'repository', name: `${base}/app`, actions: ['pull', 'push'] }]);
    assert.ok(claims.exp > claims.iat && claims.exp - claims.iat <= 300 && claims.nbf <= claims.iat);
  });

  it('grants only what the role allows: a Reporter pulls, a stranger gets nothing, the catalog is for administrators', async () => {
    const asReporter = await auth({ user: reporter.user.username, password: reporter.token, scopes: [`repository:${base}/app:pull,push`] });
    assert.deepEqual(verified(asReporter.body.token).claims.access, [{ type: 'repository', name: `${base}/app`, actions: ['pull'] }]);
    // Several scopes in one parameter, separated by spaces, as the registry's challenges list them.
    const two = await auth({ user: reporter.user.username, password: reporter.token, scopes: [`repository:${base}/app:pull repository:${base}/other:pull`] });
    assert.deepEqual(verified(two.body.token).claims.access.map((a: { name: string }) => a.name), [`${base}/app`, `${base}/other`]);
    const asStranger = await auth({ user: stranger.user.username, password: stranger.token, scopes: [`repository:${base}/app:pull,push`, 'registry:catalog:*'] });
    assert.equal(asStranger.status, 200);
    assert.deepEqual(verified(asStranger.body.token).claims.access, []);
    const asRoot = await auth({ user: 'root', password: server.rootToken, scopes: ['registry:catalog:*', `repository:${base}/vault:*`] });
    assert.deepEqual(verified(asRoot.body.token).claims.access, [{ type: 'registry', name: 'catalog', actions: ['*'] }, { type: 'repository', name: `${base}/vault`, actions: ['*'] }]);
    // A path no project holds grants nothing.
    const elsewhere = await auth({ user: dev.user.username, password: dev.token, scopes: ['repository:no-such-group/no-such-project/app:pull'] });
    assert.deepEqual(verified(elsewhere.body.token).claims.access, []);
  });

  it('answers 403 DENIED with the platform’s message for a push the rules refuse; Maintainers, Owners and administrators as the rules say', async () => {
    const refused = await auth({ user: dev.user.username, password: dev.token, scopes: [`repository:${base}/release-1:pull,push`] });
    assert.equal(refused.status, 403);
    assert.deepEqual(refused.body, { errors: [{ code: 'DENIED', message: 'Pushing to protected repository path forbidden' }] });
    assert.equal((await auth({ user: maint.user.username, password: maint.token, scopes: [`repository:${base}/release-1:pull,push`] })).status, 200);
    assert.equal((await auth({ user: maint.user.username, password: maint.token, scopes: [`repository:${base}/vault:push`] })).status, 403);
    assert.equal((await auth({ user: owner.user.username, password: owner.token, scopes: [`repository:${base}/vault:push`] })).status, 200);
    // Only pulling from a protected path is never refused.
    assert.equal((await auth({ user: dev.user.username, password: dev.token, scopes: [`repository:${base}/vault:pull`] })).status, 200);
  });

  it('applies the rule’s delete level to delete scopes: a Maintainer deletes an open path, not one kept for administrators', async () => {
    const open = await auth({ user: maint.user.username, password: maint.token, scopes: [`repository:${base}/app:*`] });
    assert.deepEqual(verified(open.body.token).claims.access, [{ type: 'repository', name: `${base}/app`, actions: ['*'] }]);
    const kept = await auth({ user: owner.user.username, password: owner.token, scopes: [`repository:${base}/vault:delete`] });
    // The Owner's token has the registry scopes, not api: no delete is granted, so nothing to refuse.
    assert.deepEqual(verified(kept.body.token).claims.access, []);
    const apiOwner = await buildUser();
    await addMember('projects', repo.id, apiOwner.user.id, 50);
    const refused = await auth({ user: apiOwner.user.username, password: apiOwner.token, scopes: [`repository:${base}/vault:delete`] });
    assert.equal(refused.status, 403);
    assert.deepEqual(refused.body, { errors: [{ code: 'DENIED', message: 'Deleting from protected repository path forbidden' }] });
    assert.equal((await auth({ user: 'root', password: server.rootToken, scopes: [`repository:${base}/vault:delete`] })).status, 200);
  });

  it('takes a group deploy token by its scopes, with no role: any rule on the path stops its push', async () => {
    const group = (await api(`/projects/${repo.id}`)).body.namespace.id;
    const made = await api(`/groups/${group}/deploy_tokens`, { method: 'POST', json: { name: 'ci', scopes: ['read_registry', 'write_registry'] } });
    expectStatus(made, 201);
    const open = await auth({ user: made.body.username, password: made.body.token, scopes: [`repository:${base}/app:pull,push,delete`] });
    const { claims } = verified(open.body.token);
    assert.deepEqual([claims.sub, claims.access], [made.body.username, [{ type: 'repository', name: `${base}/app`, actions: ['pull', 'push'] }]]);
    assert.equal((await auth({ user: made.body.username, password: made.body.token, scopes: [`repository:${base}/release-9:push`] })).status, 403);
    // Its own user name only.
    assert.equal((await auth({ user: 'someone-else', password: made.body.token, scopes: [`repository:${base}/app:pull`] })).status, 401);
  });

  it('answers 401 UNAUTHORIZED to credentials it does not accept, and 403 to a credential without a registry scope', async () => {
    const bad = await auth({ user: dev.user.username, password: 'not-a-token', scopes: [`repository:${base}/app:pull`] });
    assert.equal(bad.status, 401);
    assert.equal(bad.body.errors[0].code, 'UNAUTHORIZED');
    assert.match(bad.body.errors[0].message, /^HTTP Basic: Access denied/);
    assert.equal(bad.headers.get('www-authenticate'), 'Basic realm="Gatehouse"');
    const gitOnly = await buildUser({ scopes: ['read_repository'] });
    const denied = await auth({ user: gitOnly.user.username, password: gitOnly.token, scopes: [`repository:${base}/app:pull`] });
    assert.equal(denied.status, 403);
    assert.deepEqual(denied.body, { errors: [{ code: 'DENIED', message: 'access forbidden' }] });
  });

  it('lets anyone pull from a public project, and nobody anonymous log in without a scope', async () => {
    const open = await buildProject((await buildGroup({ visibility: 'public' })).id, { visibility: 'public' });
    const path = open.path_with_namespace.toLowerCase();
    const anon = await auth({ scopes: [`repository:${path}/app:pull,push`] });
    assert.deepEqual([verified(anon.body.token).claims.sub, verified(anon.body.token).claims.access], ['', [{ type: 'repository', name: `${path}/app`, actions: ['pull'] }]]);
    const nothing = await auth({});
    assert.equal(nothing.status, 403);
    assert.deepEqual(nothing.body, { errors: [{ code: 'DENIED', message: 'access forbidden' }] });
  });

  it('answers 404 for another service, and for any request while no registry is connected', async () => {
    const other = await auth({ service: 'dependency_proxy', user: dev.user.username, password: dev.token });
    assert.equal(other.status, 404);
    assert.equal(other.body.errors[0].code, 'UNSUPPORTED');
    assert.equal((await auth({ service: null as never })).status, 404);
    assert.deepEqual(await issueToken(server.running.db, undefined, { service: 'container_registry', scopes: [], caller: { kind: 'anonymous' } }), { code: 'UNAVAILABLE', message: 'registry not enabled' });
  });
});
