import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import {
  registryCacheSummary,
  registryUpstream,
  upstreamTestResult,
  virtualRegistry,
  virtualRegistryUpstream,
  virtualRegistryUpstreamDetail,
  virtualRegistryUpstreamInRegistry,
} from '../../../shared/src/virtual-registries.ts';
import { buildGroup, buildUser, expectShape, expectStatus, request as api, startTestServer, userWithRole, type TestServer } from '../../test/harness.ts';
import { startMavenUpstream, type MavenUpstream } from '../../test/maven-upstream.ts';

let server: TestServer;
let upstream: MavenUpstream;
let group: { id: number; full_path: string };
let subgroup: { id: number };
let guest: Awaited<ReturnType<typeof userWithRole>>;
let developer: Awaited<ReturnType<typeof userWithRole>>;
let maintainer: Awaited<ReturnType<typeof userWithRole>>;
let stranger: Awaited<ReturnType<typeof buildUser>>;

/** The upstream's files: a small Maven repository layout. */
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-maven-upstream-'));
const UP = { username: 'mirror-bot', password: `upstream-secret-${crypto.randomBytes(4).toString('hex')}` };
const POM = 'com/example/demo/1.0/demo-1.0.pom';
const JAR = 'com/example/demo/1.0/demo-1.0.jar';
const BIG = 'com/example/big/1.0/big-1.0.jar';
const files: Record<string, Buffer> = {
  [POM]: Buffer.from('<project><modelVersion>4.0.0</modelVersion><groupId>com.example</groupId><artifactId>demo</artifactId><version>1.0</version></project>\n'),
  [JAR]: crypto.randomBytes(20_000),
  [BIG]: crypto.randomBytes(150_000),
  'com/example/demo/maven-metadata.xml': Buffer.from('<metadata><versioning><latest>1.0</latest></versioning></metadata>\n'),
};
for (const [name, bytes] of Object.entries(files)) {
  fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
  fs.writeFileSync(path.join(root, name), bytes);
}
const sha1 = (b: Buffer) => crypto.createHash('sha1').update(b).digest('hex');
const md5 = (b: Buffer) => crypto.createHash('md5').update(b).digest('hex');

const registriesOf = (groupId: number) => `/groups/${groupId}/-/virtual_registries/packages/maven/registries`;
const registryPath = (id: number) => `/virtual_registries/packages/maven/registries/${id}`;
const upstreamPath = (id: number) => `/virtual_registries/packages/maven/upstreams/${id}`;
const pullUrl = (registryId: number, file: string) => `${server.url}/api/v4/virtual_registries/packages/maven/${registryId}/${file}`;
/** A pull as the guest, its body read to the end (the file is cached by then). */
async function read(url: string): Promise<{ status: number; body: Buffer }> {
  const res = await fetch(url, { headers: { 'Private-Token': guest.token } });
  return { status: res.status, body: Buffer.from(await res.arrayBuffer()) };
}
const basic = (user: string, secret: string) => ({ Authorization: `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}` });

async function newRegistry(name = `r${crypto.randomBytes(3).toString('hex')}`): Promise<number> {
  const res = await api(registriesOf(group.id), { method: 'POST', json: { name } });
  expectStatus(res, 201);
  return res.body.id;
}
async function addUpstream(registryId: number, json: Record<string, unknown>): Promise<z.infer<typeof virtualRegistryUpstreamInRegistry>> {
  const res = await api(`${registryPath(registryId)}/upstreams`, { method: 'POST', json });
  expectStatus(res, 201);
  return res.body;
}
/** A distinct user name each time (the upstream takes any that starts with its own): two upstreams with the same URL and credentials are refused. */
let serial = 0;
const upstreamAt = (mode: string) => ({ url: `${upstream.url}/${mode}`, username: `${UP.username}-${++serial}`, password: UP.password, name: `${mode}${serial}` });

before(async () => {
  server = await startTestServer({ GATEHOUSE_VIRTUAL_REGISTRY_TIMEOUT_SECONDS: '1', GATEHOUSE_VIRTUAL_REGISTRY_MAX_FILE_BYTES: '100000' });
  upstream = await startMavenUpstream({ root, ...UP });
  // The upstream is on loopback: local requests allowed, as for webhooks.
  expectStatus(await api('/application/settings', { method: 'PUT', json: { allow_local_requests_from_web_hooks_and_services: true } }), 200);
  group = await buildGroup();
  subgroup = await buildGroup({ parent_id: group.id });
  guest = await userWithRole(group.id, 10);
  developer = await userWithRole(group.id, 30);
  maintainer = await userWithRole(group.id, 40);
  stranger = await buildUser();
});
after(async () => {
  await upstream.close();
  await server.close();
  fs.rmSync(root, { recursive: true, force: true });
});

describe('POST and GET /groups/:id/-/virtual_registries/packages/maven/registries', () => {
  it('creates a registry as a Maintainer (201) and lists it to Guests; refuses Developers (403), anonymous callers (401), subgroups (400), strangers (404)', async () => {
    const made = await api(registriesOf(group.id), { method: 'POST', token: maintainer.token, json: { name: 'central', description: 'Maven Central' } });
    expectStatus(made, 201);
    const registry = expectShape(virtualRegistry, made.body);
    assert.deepEqual([registry.group_id, registry.name, registry.description], [group.id, 'central', 'Maven Central']);
    const list = await api(registriesOf(group.id), { token: guest.token });
    expectStatus(list, 200);
    assert.ok(expectShape(z.array(virtualRegistry), list.body).some((r) => r.id === registry.id));
    expectStatus(await api(registriesOf(group.id), { method: 'POST', token: developer.token, json: { name: 'x' } }), 403);
    expectStatus(await api(registriesOf(group.id), { method: 'POST', token: null, json: { name: 'x' } }), 401);
    const sub = await api(registriesOf(subgroup.id), { method: 'POST', json: { name: 'x' } });
    expectStatus(sub, 400);
    assert.deepEqual(sub.body, { message: { group: ['must be a top level Group'] } });
    expectStatus(await api(registriesOf(group.id), { token: stranger.token }), 404);
    const noName = await api(registriesOf(group.id), { method: 'POST', json: { description: 'd' } });
    expectStatus(noName, 400);
    assert.deepEqual(noName.body, { message: 'name is missing' });
  });
});

describe('GET, PATCH /virtual_registries/packages/maven/registries/:id', () => {
  it('reads a registry as a Guest, changes it as a Maintainer, refuses a Guest (403), a stranger (404), an unknown id (404)', async () => {
    const id = await newRegistry();
    const read = await api(registryPath(id), { token: guest.token });
    expectStatus(read, 200);
    assert.equal(expectShape(virtualRegistry, read.body).id, id);
    const changed = await api(registryPath(id), { method: 'PATCH', token: maintainer.token, json: { name: 'renamed', description: 'now described' } });
    expectStatus(changed, 200);
    assert.deepEqual([changed.body.name, changed.body.description], ['renamed', 'now described']);
    expectStatus(await api(registryPath(id), { method: 'PATCH', token: guest.token, json: { name: 'no' } }), 403);
    expectStatus(await api(registryPath(id), { token: stranger.token }), 404);
    const missing = await api(registryPath(987654321));
    expectStatus(missing, 404);
    assert.deepEqual(missing.body, { message: '404 Registry Not Found' });
    expectStatus(await api(registryPath(id), { method: 'PATCH', json: { description: 'no name' } }), 400);
  });
});

describe('upstreams: POST and GET …/registries/:id/upstreams, GET and PATCH …/upstreams/:id, GET the group’s', () => {
  it('adds upstreams in order with the defaults, keeps the password sealed and unshown, and answers the spec’s 400s', async () => {
    const id = await newRegistry();
    const first = await addUpstream(id, { url: `${upstream.url}/maven`, username: 'u1', password: 'first-secret', name: 'first' });
    expectShape(virtualRegistryUpstreamInRegistry, first);
    assert.deepEqual([first.registry_upstream.registry_id, first.registry_upstream.position, first.cache_validity_hours, first.metadata_cache_validity_hours, first.username], [id, 1, 24, 24, 'u1']);
    const second = await addUpstream(id, { url: `${upstream.url}/other`, cache_validity_hours: 0, metadata_cache_validity_hours: 2 });
    assert.deepEqual([second.registry_upstream.position, second.cache_validity_hours, second.metadata_cache_validity_hours, second.username, second.name], [2, 0, 2, null, `127.0.0.1:${upstream.port}`]);
    const row = await server.running.db.selectFrom('virtual_registry_upstreams').select('encrypted_password').where('id', '=', first.id).executeTakeFirstOrThrow();
    assert.match(row.encrypted_password!, /^v1:/);
    assert.ok(!row.encrypted_password!.includes('first-secret'));

    const listed = await api(`${registryPath(id)}/upstreams`, { token: guest.token });
    expectStatus(listed, 200);
    assert.deepEqual(expectShape(z.array(virtualRegistryUpstreamInRegistry), listed.body).map((u) => [u.id, u.registry_upstream.position]), [[first.id, 1], [second.id, 2]]);
    assert.ok(!listed.text.includes('first-secret') && !listed.text.includes('password'));
    const one = await api(upstreamPath(first.id), { token: guest.token });
    expectStatus(one, 200);
    assert.deepEqual(expectShape(virtualRegistryUpstreamDetail, one.body).registry_upstreams, [first.registry_upstream]);

    const bad = async (json: Record<string, unknown>, body: unknown) => {
      const res = await api(`${registryPath(id)}/upstreams`, { method: 'POST', json });
      expectStatus(res, 400);
      assert.deepEqual(res.body, body);
    };
    await bad({ url: `${upstream.url}/x`, username: 'only' }, { message: 'username, password provide all or none of parameters' });
    await bad({ url: '' }, { message: { url: ['is empty'] } });
    await bad({ url: `${upstream.url}/x`, metadata_cache_validity_hours: 0 }, { message: { metadata_cache_validity_hours: ['must be greater than or equal to 1'] } });
    await bad({ name: 'no url' }, { message: 'url is missing' });
    await bad({ url: `${upstream.url}/maven`, username: 'u1', password: 'first-secret' }, { message: { group: ['already has an upstream with the same credentials'] } });
    expectStatus(await api(`${registryPath(id)}/upstreams`, { method: 'POST', token: developer.token, json: { url: `${upstream.url}/y` } }), 403);

    // The outbound guard refuses local addresses unless the instance allows them, as webhooks'.
    expectStatus(await api('/application/settings', { method: 'PUT', json: { allow_local_requests_from_web_hooks_and_services: false } }), 200);
    try {
      await bad({ url: 'http://127.0.0.1:9/maven' }, { message: { url: ['is blocked: Requests to the local network are not allowed (127.0.0.1 resolves to 127.0.0.1)'] } });
    } finally {
      expectStatus(await api('/application/settings', { method: 'PUT', json: { allow_local_requests_from_web_hooks_and_services: true } }), 200);
    }

    const patched = await api(upstreamPath(first.id), { method: 'PATCH', token: maintainer.token, json: { name: 'renamed', password: 'new-secret', cache_validity_hours: 3 } });
    expectStatus(patched, 200);
    assert.deepEqual([expectShape(virtualRegistryUpstream, patched.body).name, patched.body.cache_validity_hours], ['renamed', 3]);
    expectStatus(await api(upstreamPath(first.id), { method: 'PATCH', json: {} }), 400);
    expectStatus(await api(upstreamPath(first.id), { method: 'PATCH', json: { url: '' } }), 400);
    expectStatus(await api(upstreamPath(first.id), { method: 'PATCH', token: guest.token, json: { name: 'no' } }), 403);
    expectStatus(await api(upstreamPath(first.id), { token: stranger.token }), 404);

    const page = await api(`/groups/${group.id}/-/virtual_registries/packages/maven/upstreams?per_page=1&upstream_name=RENAMED`, { token: guest.token });
    expectStatus(page, 200);
    assert.deepEqual(expectShape(z.array(virtualRegistryUpstream), page.body).map((u) => u.id), [first.id]);
    assert.equal(page.headers.get('x-total'), '1');
    expectStatus(await api(`/groups/${subgroup.id}/-/virtual_registries/packages/maven/upstreams`), 400);
  });
});

describe('POST /groups/:id/-/virtual_registries/packages/maven/upstreams/test', () => {
  const test = (json: Record<string, unknown>, token?: string) => api(`/groups/${group.id}/-/virtual_registries/packages/maven/upstreams/test`, { method: 'POST', json, token });
  it('succeeds for a reachable upstream (its 404 for the test path too) and says why otherwise: 401, 403, 5XX, a dead port', async () => {
    const ok = await test({ url: `${upstream.url}/maven`, ...UP }, maintainer.token);
    expectStatus(ok, 200);
    assert.deepEqual(expectShape(upstreamTestResult, ok.body), { success: true });
    assert.ok(upstream.received.some((r) => r.method === 'HEAD' && r.path.startsWith('/maven/')), 'a HEAD request reached the upstream');
    assert.deepEqual((await test({ url: `${upstream.url}/maven`, username: UP.username, password: 'wrong' })).body, { success: false, result: 'Error: 401 - Unauthorized' });
    assert.deepEqual((await test({ url: `${upstream.url}/maven` })).body, { success: false, result: 'Error: 401 - Unauthorized' });
    assert.deepEqual((await test({ url: `${upstream.url}/forbidden`, ...UP })).body, { success: false, result: 'Error: 403 - Forbidden' });
    assert.deepEqual((await test({ url: `${upstream.url}/broken`, ...UP })).body, { success: false, result: 'Error: 503 - Server Error' });
    const dead = await test({ url: 'http://127.0.0.1:9/maven' });
    assert.equal(dead.body.success, false);
    assert.match(dead.body.result, /^Error: ECONNREFUSED/);
    expectStatus(await test({ url: `${upstream.url}/maven`, ...UP }, developer.token), 403);
    expectStatus(await test({ url: `${upstream.url}/maven`, password: 'p' }), 400);
    expectStatus(await test({ url: 'not a url' }), 400);
  });
});

describe('GET /api/v4/virtual_registries/packages/maven/:id/*path (the pull-through)', () => {
  let registryId: number;
  before(async () => {
    registryId = await newRegistry('pull');
    // First in order an upstream without the files (its 404 passes to the next), then the real one.
    await addUpstream(registryId, upstreamAt('empty'));
    await addUpstream(registryId, upstreamAt('maven'));
  });

  it('fetches a file through the upstreams in order with their credentials, streams it, then serves it from the cache with its checksums; the caller’s token never reaches the upstream', async () => {
    const fresh = await fetch(pullUrl(registryId, POM), { headers: basic(guest.user.username, guest.token) });
    assert.equal(fresh.status, 200);
    assert.deepEqual(Buffer.from(await fresh.arrayBuffer()), files[POM]);
    assert.equal(fresh.headers.get('content-type'), 'text/xml');
    assert.equal(upstream.fetches(`/empty/${POM}`), 1);
    assert.equal(upstream.fetches(`/maven/${POM}`), 1);
    const cached = await fetch(pullUrl(registryId, POM), { headers: { 'Private-Token': guest.token } });
    assert.equal(cached.status, 200);
    assert.deepEqual(Buffer.from(await cached.arrayBuffer()), files[POM]);
    assert.equal(cached.headers.get('x-checksum-sha1'), sha1(files[POM]));
    assert.equal(cached.headers.get('x-checksum-md5'), md5(files[POM]));
    assert.equal(cached.headers.get('content-length'), String(files[POM].length));
    assert.equal(cached.headers.get('etag'), `"${sha1(files[POM])}"`);
    assert.equal(upstream.fetches(`/maven/${POM}`), 1, 'served from the cache');
    const revalidated = await fetch(pullUrl(registryId, POM), { headers: { 'Private-Token': guest.token, 'If-None-Match': `"${sha1(files[POM])}"` } });
    assert.equal(revalidated.status, 304);
    const head = await fetch(pullUrl(registryId, POM), { method: 'HEAD', headers: { 'Private-Token': guest.token } });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('x-checksum-sha1'), sha1(files[POM]));
    const seen = JSON.stringify(upstream.received.map((r) => r.headers));
    assert.ok(!seen.includes(guest.token), 'the caller’s token never reached the upstream');
    const pulls = upstream.received.filter((r) => r.method === 'GET' && r.path.startsWith('/maven/'));
    const password = (r: (typeof pulls)[number]) => Buffer.from((r.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString().split(':')[1];
    assert.ok(pulls.length && pulls.every((r) => password(r) === UP.password), 'each fetch carried the upstream’s own credentials');
  });

  it('authenticates as the package endpoints do: Basic or Private-Token of a member, a deploy token with read_virtual_registry; 401 (with a challenge) otherwise, 404 for a stranger', async () => {
    const anonymous = await fetch(pullUrl(registryId, POM));
    assert.equal(anonymous.status, 401);
    assert.match(anonymous.headers.get('www-authenticate') ?? '', /^Basic /);
    assert.equal((await fetch(pullUrl(registryId, POM), { headers: basic('x', 'not-a-token') })).status, 401);
    assert.equal((await fetch(pullUrl(registryId, POM), { headers: { 'Job-Token': 'glcbt-unknown' } })).status, 401);
    assert.equal((await fetch(pullUrl(registryId, POM), { headers: { 'Private-Token': stranger.token } })).status, 404);
    const reader = await api(`/groups/${group.id}/deploy_tokens`, { method: 'POST', json: { name: 'maven', scopes: ['read_virtual_registry'] } });
    expectStatus(reader, 201);
    assert.equal((await fetch(pullUrl(registryId, POM), { headers: { 'Deploy-Token': reader.body.token } })).status, 200);
    assert.equal((await fetch(pullUrl(registryId, POM), { headers: basic(reader.body.username, reader.body.token) })).status, 200);
    const other = await api(`/groups/${group.id}/deploy_tokens`, { method: 'POST', json: { name: 'repo', scopes: ['read_repository'] } });
    assert.equal((await fetch(pullUrl(registryId, POM), { headers: { 'Deploy-Token': other.body.token } })).status, 403);
    assert.equal((await fetch(`${server.url}/api/v4/virtual_registries/packages/maven/987654321/${POM}`, { headers: { 'Private-Token': guest.token } })).status, 404);
    assert.equal((await fetch(pullUrl(registryId, 'com/example/a%5Cb/x.pom'), { headers: { 'Private-Token': guest.token } })).status, 400);
    const missing = await fetch(pullUrl(registryId, 'com/example/none/1.0/none-1.0.pom'), { headers: { 'Private-Token': guest.token } });
    assert.equal(missing.status, 404);
  });

  it('fetches one uncached file once for concurrent requests', async () => {
    const id = await newRegistry();
    await addUpstream(id, upstreamAt('slow'));
    const answers = await Promise.all(Array.from({ length: 5 }, () => fetch(pullUrl(id, JAR), { headers: { 'Private-Token': guest.token } })));
    for (const res of answers) {
      assert.equal(res.status, 200);
      assert.deepEqual(Buffer.from(await res.arrayBuffer()), files[JAR]);
    }
    assert.equal(upstream.fetches(`/slow/${JAR}`), 1);
  });

  it('serves a stale copy when every upstream is down, asks again once it is stale, and stops at the size limit and a stalled upstream', async () => {
    const down = await startMavenUpstream({ root, ...UP });
    const id = await newRegistry();
    const up = await addUpstream(id, { url: `${down.url}/maven`, ...UP });
    const get = () => fetch(pullUrl(id, JAR), { headers: { 'Private-Token': guest.token } });
    assert.equal((await read(pullUrl(id, JAR))).status, 200);
    await down.close();
    // Stale by a day: the upstream is asked, fails, and the copy is served all the same.
    await server.running.db.updateTable('virtual_registry_cache_entries').set({ upstream_checked_at: '2000-01-01T00:00:00.000Z' }).where('upstream_id', '=', up.id).execute();
    const stale = await get();
    assert.equal(stale.status, 200);
    assert.deepEqual(Buffer.from(await stale.arrayBuffer()), files[JAR]);
    // Nothing cached and nothing reachable: 502.
    assert.equal((await fetch(pullUrl(id, POM), { headers: { 'Private-Token': guest.token } })).status, 502);

    // Metadata is asked again once stale: a 304 for its ETag keeps the copy.
    const meta = 'com/example/demo/maven-metadata.xml';
    assert.equal((await read(pullUrl(registryId, meta))).status, 200);
    await server.running.db.updateTable('virtual_registry_cache_entries').set({ upstream_checked_at: '2000-01-01T00:00:00.000Z' }).where('relative_path', '=', meta).execute();
    const again = await fetch(pullUrl(registryId, meta), { headers: { 'Private-Token': guest.token } });
    assert.equal(again.status, 200);
    assert.deepEqual(Buffer.from(await again.arrayBuffer()), files[meta]);
    assert.equal(upstream.received.filter((r) => r.path === `/maven/${meta}` && r.headers['if-none-match']).length, 1);

    // Past the limit (100 000 bytes here): refused by its length, or cut short when it has none; nothing is kept.
    assert.equal((await fetch(pullUrl(registryId, BIG), { headers: { 'Private-Token': guest.token } })).status, 502);
    const limits = await newRegistry();
    await addUpstream(limits, upstreamAt('chunked'));
    await assert.rejects(read(pullUrl(limits, BIG)), 'the transfer is cut short');
    const stalled = await newRegistry();
    const staller = await addUpstream(stalled, upstreamAt('stall'));
    await assert.rejects(read(pullUrl(stalled, JAR)), 'the transfer is cut short');
    // A cache entry is written only once its file is whole: none for either.
    const kept = await server.running.db.selectFrom('virtual_registry_cache_entries').select('relative_path').where((eb) => eb.or([eb('relative_path', '=', BIG), eb('upstream_id', '=', staller.id)])).execute();
    assert.deepEqual(kept, []);
  });
});

describe('DELETE /virtual_registries/packages/maven/registries/:id/cache and DELETE …/registries/:id', () => {
  it('empties the cache of exclusive upstreams (204), then deletes the registry with its exclusive upstreams, leaving a shared one', async () => {
    const id = await newRegistry();
    const own = await addUpstream(id, upstreamAt('maven'));
    const get = () => read(pullUrl(id, POM));
    assert.equal((await get()).status, 200);
    const before = upstream.fetches(`/maven/${POM}`);
    expectStatus(await api(`${registryPath(id)}/cache`, { method: 'DELETE', token: developer.token }), 403);
    expectStatus(await api(`${registryPath(id)}/cache`, { method: 'DELETE', token: maintainer.token }), 204);
    assert.equal((await get()).status, 200);
    assert.equal(upstream.fetches(`/maven/${POM}`), before + 1, 'fetched again once purged');

    // An upstream another registry uses too (the platform links one upstream to several registries).
    const other = await newRegistry();
    const shared = await addUpstream(other, upstreamAt('maven'));
    await server.running.db.insertInto('virtual_registry_registry_upstreams').values({ registry_id: id, upstream_id: shared.id, position: 2 }).execute();
    expectStatus(await api(registryPath(id), { method: 'DELETE', token: guest.token }), 403);
    expectStatus(await api(registryPath(id), { method: 'DELETE', token: maintainer.token }), 204);
    expectStatus(await api(registryPath(id)), 404);
    expectStatus(await api(upstreamPath(own.id)), 404);
    expectStatus(await api(upstreamPath(shared.id)), 200);
    const left = await server.running.db.selectFrom('virtual_registry_cache_entries').select('id').where('upstream_id', '=', own.id).execute();
    assert.deepEqual(left, []);
  });
});

describe('PATCH …/registry_upstreams/:id, GET …/upstreams/:id/test, DELETE …/upstreams/:id and the console’s GET /api/console/…/registries/:id/cache', () => {
  it('moves an upstream in its registry’s order (past the last is the last), deletes one (the others move up) with its cache, and counts the cache per upstream', async () => {
    const id = await newRegistry();
    const [a, b, c] = [await addUpstream(id, upstreamAt('maven')), await addUpstream(id, upstreamAt('maven')), await addUpstream(id, upstreamAt('maven'))];
    const order = async () => {
      const res = await api(`${registryPath(id)}/upstreams`, { token: guest.token });
      expectStatus(res, 200);
      return expectShape(z.array(virtualRegistryUpstreamInRegistry), res.body).map((u) => [u.id, u.registry_upstream.position]);
    };
    const move = (link: number, json: unknown, token?: string | null) => api(`/virtual_registries/packages/maven/registry_upstreams/${link}`, { method: 'PATCH', json, token });

    const moved = await move(c.registry_upstream.id, { position: 1 }, maintainer.token);
    expectStatus(moved, 200);
    assert.deepEqual(expectShape(registryUpstream, moved.body), { id: c.registry_upstream.id, registry_id: id, upstream_id: c.id, position: 1 });
    assert.deepEqual(await order(), [[c.id, 1], [a.id, 2], [b.id, 3]]);
    expectStatus(await move(c.registry_upstream.id, { position: 20 }), 200);
    assert.deepEqual(await order(), [[a.id, 1], [b.id, 2], [c.id, 3]], 'a place past the last is the last');
    expectStatus(await move(b.registry_upstream.id, { position: '1' }), 200);
    assert.deepEqual(await order(), [[b.id, 1], [a.id, 2], [c.id, 3]]);

    expectStatus(await move(a.registry_upstream.id, { position: 1 }, developer.token), 403);
    expectStatus(await move(a.registry_upstream.id, { position: 1 }, null), 401);
    const strange = await move(a.registry_upstream.id, { position: 1 }, stranger.token);
    expectStatus(strange, 404);
    assert.deepEqual(strange.body, { message: '404 Registry upstream Not Found' });
    expectStatus(await move(2_000_000_000, { position: 1 }), 404);
    for (const position of [0, -1, 21]) {
      const bad = await move(a.registry_upstream.id, { position });
      expectStatus(bad, 400);
      assert.deepEqual(bad.body, { message: { position: ['does not have a valid value'] } });
    }
    expectStatus(await move(a.registry_upstream.id, { position: 'a' }), 400);
    const missing = await move(a.registry_upstream.id, {});
    expectStatus(missing, 400);
    assert.deepEqual(missing.body, { message: 'position is missing' });
    assert.deepEqual(await order(), [[b.id, 1], [a.id, 2], [c.id, 3]], 'refused moves change nothing');

    // The cache, per upstream in the registry's order: the first upstream (b) serves the POM and the JAR.
    const cachePath = `/api/console${registryPath(id)}/cache`;
    const empty = await api(cachePath, { token: guest.token });
    expectStatus(empty, 200);
    assert.deepEqual(expectShape(registryCacheSummary, empty.body), { entries: 0, bytes: 0, upstreams: [b, a, c].map((u) => ({ upstream_id: u.id, entries: 0, bytes: 0 })) });
    assert.equal((await read(pullUrl(id, POM))).status, 200);
    assert.equal((await read(pullUrl(id, JAR))).status, 200);
    const filled = await api(cachePath, { token: guest.token });
    const bytes = files[POM]!.length + files[JAR]!.length;
    assert.deepEqual(filled.body, { entries: 2, bytes, upstreams: [{ upstream_id: b.id, entries: 2, bytes }, ...[a, c].map((u) => ({ upstream_id: u.id, entries: 0, bytes: 0 }))] });
    expectStatus(await api(cachePath, { token: stranger.token }), 404);
    expectStatus(await api(cachePath, { token: null }), 401);

    // A saved upstream's test uses the credentials Gatehouse keeps (Guests may run it).
    const tested = await api(`${upstreamPath(b.id)}/test`, { token: guest.token });
    expectStatus(tested, 200);
    assert.deepEqual(expectShape(upstreamTestResult, tested.body), { success: true });
    const refusing = await addUpstream(await newRegistry(), upstreamAt('forbidden'));
    assert.deepEqual((await api(`${upstreamPath(refusing.id)}/test`)).body, { success: false, result: 'Error: 403 - Forbidden' });
    expectStatus(await api(`${upstreamPath(b.id)}/test`, { token: stranger.token }), 404);

    // Deleting b (cached files and all): a and c move up one place.
    expectStatus(await api(upstreamPath(b.id), { method: 'DELETE', token: developer.token }), 403);
    expectStatus(await api(upstreamPath(b.id), { method: 'DELETE', token: stranger.token }), 404);
    expectStatus(await api(upstreamPath(b.id), { method: 'DELETE', token: maintainer.token }), 204);
    expectStatus(await api(upstreamPath(b.id)), 404);
    expectStatus(await api(upstreamPath(b.id), { method: 'DELETE' }), 404);
    assert.deepEqual(await order(), [[a.id, 1], [c.id, 2]]);
    assert.deepEqual(await server.running.db.selectFrom('virtual_registry_cache_entries').select('id').where('upstream_id', '=', b.id).execute(), []);
    assert.deepEqual((await api(cachePath)).body, { entries: 0, bytes: 0, upstreams: [a, c].map((u) => ({ upstream_id: u.id, entries: 0, bytes: 0 })) });
  });
});
