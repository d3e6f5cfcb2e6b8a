import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { treeEntry } from '../../../shared/src/repository-tree.ts';
import { buildGroup, buildProject, expectShape, expectStatus, request as api, startTestServer, userWithRole, type TestServer } from '../../test/harness.ts';
import { fillRepository } from '../../test/repository-fixture.ts';

let server: TestServer;
let group: { id: number };
let project: { id: number };
let empty: { id: number };

before(async () => {
  server = await startTestServer();
  group = await buildGroup();
  project = await buildProject(group.id);
  empty = await buildProject(group.id);
  await fillRepository(project.id);
});
after(async () => {
  await server.close();
});

const tree = (query = '', token?: string) => api(`/projects/${project.id}/repository/tree${query}`, { token });
const paths = async (query: string) => (await tree(query)).body.map((e: { path: string }) => e.path);

describe('GET /projects/:id/repository/tree', () => {
  it('lists the top folder of the default branch, folders first, with ids and modes', async () => {
    const res = await tree();
    expectStatus(res, 200);
    const list = expectShape(z.array(treeEntry), res.body);
    assert.deepEqual(list.map((e) => [e.name, e.type, e.mode]), [['src', 'tree', '040000'], ['README.md', 'blob', '100644'], ['logo.png', 'blob', '100644']]);
    assert.match(list[0].id, /^[0-9a-f]{40}$/);
    assert.equal(res.headers.get('x-total'), '3');
  });

  it('lists a folder, a ref, every level with recursive, and pages', async () => {
    assert.deepEqual(await paths('?path=src'), ['src/app.js']);
    assert.deepEqual(await paths('?path=src/&ref=feature'), ['src/main.js', 'src/new.js']);
    assert.deepEqual((await paths('?recursive=true&ref=feature')).sort(), ['README.md', 'logo.png', 'src', 'src/main.js', 'src/new.js']);
    assert.deepEqual(await paths('?per_page=1&page=2'), ['README.md']);
  });

  it('answers 404 Tree for a ref that names nothing, a path that is no folder, and an empty repository', async () => {
    for (const q of ['?ref=nope', '?ref=--all', '?path=README.md', '?path=missing', '?path=src/../..']) {
      const res = await tree(q);
      expectStatus(res, 404);
      assert.deepEqual(res.body, { message: '404 Tree Not Found' }, q);
    }
    const none = await api(`/projects/${empty.id}/repository/tree`);
    expectStatus(none, 404);
  });

  it('needs a Reporter of a private project', async () => {
    expectStatus(await tree('', (await userWithRole(group.id, 20)).token), 200);
    expectStatus(await tree('', (await userWithRole(group.id, 10)).token), 403);
  });
});
