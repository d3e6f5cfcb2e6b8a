import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { protectedTag } from '../../../shared/src/protected-tags.ts';
import { buildGroup, buildProject, expectShape, expectStatus, request as api, startTestServer, userWithRole, type TestServer } from '../../test/harness.ts';
import { cloneAs } from '../../test/git-client.ts';
import { commitTo } from '../../test/merge-fixtures.ts';

let server: TestServer;
let project: { id: number; path_with_namespace: string };
let developer: Awaited<ReturnType<typeof userWithRole>>;
let maintainer: Awaited<ReturnType<typeof userWithRole>>;

const pt = (suffix = '', opts: Parameters<typeof api>[1] = {}) => api(`/projects/${project.id}/protected_tags${suffix}`, opts);
const tags = (suffix = '', opts: Parameters<typeof api>[1] = {}) => api(`/projects/${project.id}/repository/tags${suffix}`, opts);

before(async () => {
  server = await startTestServer();
  const group = await buildGroup();
  project = await buildProject(group.id);
  developer = await userWithRole(group.id, 30);
  maintainer = await userWithRole(group.id, 40);
  await commitTo(project.id, 'main', { 'README.md': '# p\n' });
});
after(() => server.close());

describe('POST /projects/:id/protected_tags', () => {
  it('protects a wildcard (Maintainers create by default); the same name again is the platform’s 422', async () => {
    const res = await pt('', { method: 'POST', json: { name: 'v*' } });
    expectStatus(res, 201);
    const created = expectShape(protectedTag, res.body);
    assert.deepEqual([created.name, created.create_access_levels.map((l) => [l.access_level, l.access_level_description])], ['v*', [[40, 'Maintainers']]]);
    const again = await pt('', { method: 'POST', json: { name: 'v*' } });
    expectStatus(again, 422);
    assert.deepEqual(again.body, { message: 'Name has already been taken' });
    const dev = await pt('', { method: 'POST', json: { name: 'dev-*', create_access_level: 30 } });
    expectStatus(dev, 201);
    assert.equal(dev.body.create_access_levels[0].access_level_description, 'Developers + Maintainers');
  });

  it('refuses bad input and callers below Maintainer', async () => {
    expectStatus(await pt('', { method: 'POST', json: { name: 'x', create_access_level: 20 } }), 400);
    expectStatus(await pt('', { method: 'POST', json: {} }), 400);
    expectStatus(await pt('', { method: 'POST', token: developer.token, json: { name: 'y' } }), 403);
    expectStatus(await pt('', { token: developer.token }), 403);
  });
});

describe('GET /projects/:id/protected_tags[/:name]', () => {
  it('lists them, finds one by its encoded name, answers 404 for an unknown one', async () => {
    const list = await pt();
    expectStatus(list, 200);
    assert.deepEqual(expectShape(z.array(protectedTag), list.body).map((t) => t.name), ['v*', 'dev-*']);
    assert.equal((await pt(`/${encodeURIComponent('v*')}`)).body.name, 'v*');
    const missing = await pt('/nope');
    expectStatus(missing, 404);
    assert.deepEqual(missing.body, { message: '404 Not found' });
  });
});

describe('enforcement', () => {
  it('lets only the allowed roles create a protected tag through the API, and shows it protected', async () => {
    const refused = await tags('', { method: 'POST', token: developer.token, json: { tag_name: 'v1.0', ref: 'main' } });
    expectStatus(refused, 400);
    assert.match(refused.body.message, /You are not allowed to create this tag as it is protected\./);
    const created = await tags('', { method: 'POST', token: maintainer.token, json: { tag_name: 'v1.0', ref: 'main' } });
    expectStatus(created, 201);
    assert.equal(created.body.protected, true);
    expectStatus(await tags('', { method: 'POST', token: developer.token, json: { tag_name: 'dev-1', ref: 'main' } }), 201);
    assert.equal((await tags('/other-1', {})).status, 404);
    expectStatus(await tags('', { method: 'POST', token: developer.token, json: { tag_name: 'other-1', ref: 'main' } }), 201);
    assert.equal((await tags('/other-1')).body.protected, false);
  });

  it('refuses a protected tag’s push by a Developer and its deletion by push; a Maintainer deletes it through the API', async () => {
    const client = await cloneAs(server.url, project.path_with_namespace, developer.user, developer.token);
    try {
      await client.git(['tag', 'v2.0']);
      const pushed = await client.git(['push', 'origin', 'v2.0']);
      assert.equal(pushed.ok, false);
      assert.match(pushed.out, /You are not allowed to create this tag as it is protected\./);
      const deleted = await client.git(['push', 'origin', ':refs/tags/v1.0']);
      assert.equal(deleted.ok, false);
      assert.match(deleted.out, /You can only delete protected tags using the web interface\./);
    } finally {
      client.remove();
    }
    const byDeveloper = await tags('/v1.0', { method: 'DELETE', token: developer.token });
    expectStatus(byDeveloper, 400);
    assert.match(byDeveloper.body.message, /not allowed to delete protected tags/);
    expectStatus(await tags('/v1.0', { method: 'DELETE', token: maintainer.token }), 204);
  });

  it('stops protecting once DELETEd', async () => {
    expectStatus(await pt(`/${encodeURIComponent('v*')}`, { method: 'DELETE' }), 204);
    expectStatus(await pt(`/${encodeURIComponent('v*')}`), 404);
    expectStatus(await tags('', { method: 'POST', token: developer.token, json: { tag_name: 'v3.0', ref: 'main' } }), 201);
  });
});
