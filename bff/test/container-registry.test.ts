// Runs on SQLite only: what it adds is a real registry and a real client obeying the token service; the token service's reads run on PostgreSQL in container-registry-protection.test.ts
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { containerRepository, containerRepositoryTag, containerRepositoryTagDetails } from '../../shared/src/container-registry.ts';
import { addMember, buildGroup, buildProject, buildUser, expectShape, expectStatus, request as api, startTestServer, type TestServer } from './harness.ts';
import { freePort, ociImage, registryKey, skopeo, startRegistry, type Registry } from './registry.ts';

/**
 * Debian's CNCF Distribution (`docker-registry`) with token auth pointed at Gatehouse, driven by
 * Debian's skopeo as users would: pushes, pulls and deletes of a tiny OCI image, each allowed or
 * refused by the roles and the project's protection rules (issue 30). One registry and one server
 * for the file.
 */
const ISSUER = 'gatehouse-test-issuer';

let server: TestServer;
let registry: Registry;
let keyDir: string;
let image: string;
let built: Awaited<ReturnType<typeof ociImage>>;
let base: string;
type Person = { user: { username: string }; token: string };
const people = {} as Record<'reporter' | 'developer' | 'maintainer' | 'owner' | 'stranger', Person>;
let projectId: number;

const ref = (repo: string, tag = '1') => `docker://${registry.host}/${base}/${repo}:${tag}`;
const creds = (p: Person) => `${p.user.username}:${p.token}`;
const push = (p: Person, repo: string, tag = '1') => skopeo(['copy', '--dest-creds', creds(p), '--dest-tls-verify=false', `oci:${image}:latest`, ref(repo, tag)]);
const inspect = (p: Person, repo: string, tag = '1') => skopeo(['inspect', '--creds', creds(p), '--tls-verify=false', ref(repo, tag)]);
const remove = (p: Person, repo: string, tag = '1') => skopeo(['delete', '--creds', creds(p), '--tls-verify=false', ref(repo, tag)]);
const rules = (suffix = '', opts: Parameters<typeof api>[1] = {}) => api(`/projects/${projectId}/registry/protection/repository/rules${suffix}`, opts);

/** The registry's answer for a tag's manifest, asked with a token Gatehouse gives its administrator. */
async function manifest(repo: string, tag: string, method: 'HEAD' | 'GET'): Promise<Response> {
  const q = new URLSearchParams({ service: 'container_registry', scope: `repository:${base}/${repo}:pull` });
  const auth = await fetch(`${server.url}/jwt/auth?${q}`, { headers: { Authorization: `Basic ${Buffer.from(`root:${server.rootToken}`).toString('base64')}` } });
  const { token } = (await auth.json()) as { token: string };
  return fetch(`${registry.url}/v2/${base}/${repo}/manifests/${tag}`, { method, headers: { Authorization: `Bearer ${token}`, Accept: 'application/vnd.oci.image.manifest.v1+json' } });
}

/** Whether the registry holds the tag. */
async function held(repo: string, tag = '1'): Promise<boolean> {
  const res = await manifest(repo, tag, 'HEAD');
  assert.ok(res.status === 200 || res.status === 404, `HEAD manifest: ${res.status}`);
  return res.status === 200;
}

before(async () => {
  const key = registryKey();
  keyDir = key.dir;
  const port = await freePort();
  server = await startTestServer({ GATEHOUSE_REGISTRY_URL: `http://127.0.0.1:${port}`, GATEHOUSE_REGISTRY_KEY: key.key, GATEHOUSE_REGISTRY_ISSUER: ISSUER });
  registry = await startRegistry({ dir: keyDir, port, realm: `${server.url}/jwt/auth`, issuer: ISSUER, cert: key.cert });
  image = path.join(keyDir, 'image');
  built = await ociImage(image, 'hello from gatehouse\n');
  const group = await buildGroup();
  const project = await buildProject(group.id);
  projectId = project.id;
  base = project.path_with_namespace.toLowerCase();
  const levels = { reporter: 20, developer: 30, maintainer: 40, owner: 50, stranger: 0 } as const;
  for (const [name, level] of Object.entries(levels) as [keyof typeof levels, number][]) {
    // Maintainers and Owners delete, which needs the api scope; the others hold the registry scopes.
    const u = await buildUser({ scopes: level >= 40 ? ['api'] : ['read_registry', 'write_registry'] });
    if (level) await addMember('groups', group.id, u.user.id, level);
    people[name] = u;
  }
  for (const json of [
    { repository_path_pattern: `${base}/release*`, minimum_access_level_for_push: 'maintainer' },
    { repository_path_pattern: `${base}/vault`, minimum_access_level_for_push: 'owner' },
    { repository_path_pattern: `${base}/keep`, minimum_access_level_for_delete: 'owner' },
  ]) expectStatus(await rules('', { method: 'POST', json }), 201);
});

after(async () => {
  await registry?.stop();
  await server?.close();
  if (keyDir) fs.rmSync(keyDir, { recursive: true, force: true });
});

describe('a real registry behind the token service', () => {
  it('takes a Developer’s push to an open path, and a Reporter pulls it', async () => {
    const pushed = await push(people.developer, 'app');
    assert.ok(pushed.ok, pushed.out);
    assert.ok(await held('app'));
    const pulled = await inspect(people.reporter, 'app');
    assert.ok(pulled.ok, pulled.out);
    assert.equal(JSON.parse(pulled.out.slice(pulled.out.indexOf('{'))).Name, `${registry.host}/${base}/app`);
  });

  it('refuses a Developer’s push to a path protected for Maintainers, and the image is absent; a Maintainer’s works', async () => {
    const refused = await push(people.developer, 'release-web');
    assert.equal(refused.ok, false, refused.out);
    // Refused by the token service (its 403), before the registry is asked to store anything.
    assert.match(refused.out, /Requesting bearer token: invalid status code from registry 403/);
    assert.equal(await held('release-web'), false);
    const pushed = await push(people.maintainer, 'release-web');
    assert.ok(pushed.ok, pushed.out);
    assert.ok(await held('release-web'));
  });

  it('keeps a path with a rule at Owner from a Maintainer, not from the Owner', async () => {
    assert.equal((await push(people.maintainer, 'vault')).ok, false);
    assert.equal(await held('vault'), false);
    const pushed = await push(people.owner, 'vault');
    assert.ok(pushed.ok, pushed.out);
    assert.ok(await held('vault'));
  });

  it('protects deletes: a Maintainer deletes an open path’s image, not one whose rule keeps deletes for Owners', async () => {
    assert.ok((await push(people.developer, 'keep')).ok);
    const refused = await remove(people.maintainer, 'keep');
    assert.equal(refused.ok, false, refused.out);
    assert.ok(await held('keep'), 'the protected image is still there');
    const deleted = await remove(people.owner, 'keep');
    assert.ok(deleted.ok, deleted.out);
    assert.equal(await held('keep'), false);
    assert.ok((await push(people.developer, 'scratch')).ok);
    const open = await remove(people.maintainer, 'scratch');
    assert.ok(open.ok, open.out);
    assert.equal(await held('scratch'), false);
  });

  it('lets a Reporter pull but not push, and a non-member neither', async () => {
    const byReporter = await push(people.reporter, 'reporter-image');
    // Granted a pull only, the push is refused by the registry itself.
    assert.equal(byReporter.ok, false, byReporter.out);
    assert.doesNotMatch(byReporter.out, /Requesting bearer token: invalid status code/);
    assert.equal(await held('reporter-image'), false);
    assert.equal((await inspect(people.stranger, 'app')).ok, false);
    assert.equal((await push(people.stranger, 'stranger-image')).ok, false);
    assert.equal(await held('stranger-image'), false);
  });

  it('lets the Developer push once the rule is deleted', async () => {
    const list = await rules();
    const release = (list.body as { id: number; repository_path_pattern: string }[]).find((r) => r.repository_path_pattern === `${base}/release*`)!;
    expectStatus(await rules(`/${release.id}`, { method: 'DELETE' }), 204);
    const pushed = await push(people.developer, 'release-web', '2');
    assert.ok(pushed.ok, pushed.out);
    assert.ok(await held('release-web', '2'));
  });

  it('lists the project’s repositories with the tags the registry holds (GET …/registry/repositories, …/:repository_id/tags)', async () => {
    const list = await api(`/projects/${projectId}/registry/repositories?tags=true&tags_count=true`, { token: people.maintainer.token });
    expectStatus(list, 200);
    const repos = expectShape(z.array(containerRepository), list.body);
    const byName = Object.fromEntries(repos.map((r) => [r.name, r]));
    // Every path a push was granted to, in the order first pushed; refused pushes made none.
    assert.deepEqual(repos.map((r) => r.name), ['app', 'release-web', 'vault', 'keep', 'scratch']);
    assert.deepEqual([byName.app.path, byName.app.location, byName.app.tags_count], [`${base}/app`, `${registry.host}/${base}/app`, 1]);
    assert.deepEqual(byName['release-web'].tags!.map((t) => t.name), ['1', '2']);
    // Their images deleted, the repositories remain, without tags (as on the platform).
    assert.deepEqual([byName.keep.tags_count, byName.scratch.tags], [0, []]);
    const plain = await api(`/projects/${projectId}/registry/repositories`, { token: people.maintainer.token });
    assert.equal('tags' in plain.body[0] || 'tags_count' in plain.body[0], false);
    const tags = await api(`/projects/${projectId}/registry/repositories/${byName['release-web'].id}/tags`, { token: people.maintainer.token });
    expectStatus(tags, 200);
    assert.deepEqual(expectShape(z.array(containerRepositoryTag), tags.body), [
      { name: '1', path: `${base}/release-web:1`, location: `${registry.host}/${base}/release-web:1` },
      { name: '2', path: `${base}/release-web:2`, location: `${registry.host}/${base}/release-web:2` },
    ]);
    assert.equal(tags.headers.get('x-total'), '2');
    // One tag with its image as the registry holds it: skopeo keeps the image's config (its
    // digest is the revision, its date the build date) and compresses the layer on the way.
    const one = await api(`/projects/${projectId}/registry/repositories/${byName['release-web'].id}/tags/2`, { token: people.maintainer.token });
    expectStatus(one, 200);
    const revision = built.config.slice('sha256:'.length);
    const stored = await manifest('release-web', '2', 'GET');
    const layers = ((await stored.json()) as { layers: { size: number }[] }).layers;
    assert.ok(layers[0]!.size < built.layerSize, 'the layer was compressed on push');
    assert.deepEqual(expectShape(containerRepositoryTagDetails, one.body), {
      name: '2',
      path: `${base}/release-web:2`,
      location: `${registry.host}/${base}/release-web:2`,
      revision,
      short_revision: revision.slice(0, 9),
      digest: stored.headers.get('docker-content-digest'),
      created_at: '2026-11-01T12:00:00.000Z',
      total_size: layers[0]!.size,
    });
    const noTag = await api(`/projects/${projectId}/registry/repositories/${byName['release-web'].id}/tags/9`, { token: people.maintainer.token });
    expectStatus(noTag, 404);
    assert.deepEqual(noTag.body, { message: '404 Tag Not Found' });
    const unknown = await api(`/projects/${projectId}/registry/repositories/987654321/tags`, { token: people.maintainer.token });
    expectStatus(unknown, 404);
    // (The API needs the api or read_api scope: the registry scopes alone do not read it.)
    expectStatus(await api(`/projects/${projectId}/registry/repositories`, { token: people.reporter.token }), 403);
    const stranger = await api(`/projects/${projectId}/registry/repositories`, { token: (await buildUser()).token });
    expectStatus(stranger, 404);
  });

  it('deletes through the API: a tag (200, its image gone), a repository (202, its images and itself), not at a path whose rule keeps deletes for Owners (403)', async () => {
    const repos = `/projects/${projectId}/registry/repositories`;
    const listed = async () => expectShape(z.array(containerRepository), (await api(repos, { token: people.maintainer.token })).body);
    const ids = Object.fromEntries((await listed()).map((r) => [r.name, r.id]));
    assert.ok(await held('app'));
    expectStatus(await api(`${repos}/${ids.app}/tags/1`, { method: 'DELETE', token: people.maintainer.token }), 200);
    assert.equal(await held('app'), false);
    const again = await api(`${repos}/${ids.app}/tags/1`, { method: 'DELETE', token: people.maintainer.token });
    expectStatus(again, 404);
    assert.deepEqual(again.body, { message: '404 Tag Not Found' });
    // The rule at keep holds deletes for Owners: refused before anything is asked of the registry.
    const refused = await api(`${repos}/${ids.keep}`, { method: 'DELETE', token: people.maintainer.token });
    expectStatus(refused, 403);
    assert.deepEqual(refused.body, { message: '403 Forbidden - Deleting from protected repository path forbidden' });
    assert.ok(await held('release-web', '2'));
    const deleted = await api(`${repos}/${ids['release-web']}`, { method: 'DELETE', token: people.owner.token });
    expectStatus(deleted, 202);
    assert.deepEqual(deleted.body, { message: '202 Accepted' });
    assert.equal(await held('release-web', '2'), false);
    assert.deepEqual((await listed()).map((r) => r.name), ['app', 'vault', 'keep', 'scratch']);
  });
});
