import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { tag } from '../../../shared/src/tags.ts';
import { buildGroup, buildProject, expectShape, expectStatus, request as api, startTestServer, userWithRole, type TestServer } from '../../test/harness.ts';
import { fillRepository } from '../../test/repository-fixture.ts';

let server: TestServer;
let group: { id: number };
let project: { id: number; path_with_namespace: string };
let main: string[];

before(async () => {
  server = await startTestServer();
  group = await buildGroup();
  project = await buildProject(group.id);
  ({ main } = await fillRepository(project.id));
});
after(async () => {
  await server.close();
});

const tags = (query = '', token?: string) => api(`/projects/${project.id}/repository/tags${query}`, { token });
const create = (json: object, token?: string) => api(`/projects/${project.id}/repository/tags`, { method: 'POST', json, token });
const names = async (query: string) => (await tags(query)).body.map((t: { name: string }) => t.name);

describe('POST /projects/:id/repository/tags', () => {
  it('creates a lightweight tag, and an annotated one when there is a message (Developer)', async () => {
    const developer = await userWithRole(group.id, 30);
    const light = await create({ tag_name: 'v1.2', ref: main[0] }, developer.token);
    expectStatus(light, 201);
    const l = expectShape(tag, light.body);
    assert.equal(l.target, main[0]);
    assert.equal(l.commit.id, main[0]);
    assert.equal(l.message, null);
    assert.equal(l.created_at, null);
    assert.equal(l.protected, false);
    assert.equal(l.release, null);

    const annotated = await create({ tag_name: 'v1.10', ref: 'main', message: '  Release 1.10\n' });
    expectStatus(annotated, 201);
    const a = expectShape(tag, annotated.body);
    assert.equal(a.commit.id, main[2]);
    assert.notEqual(a.target, main[2], 'an annotated tag’s target is its tag object');
    assert.equal(a.message, 'Release 1.10');
    assert.ok(a.created_at && !Number.isNaN(Date.parse(a.created_at)));
    expectStatus(await create({ tag_name: 'release/v1.9', ref: main[1] }), 201);
  });

  it('answers the platform’s 400s and changes nothing; a Reporter is refused', async () => {
    const cases: [object, string][] = [
      [{ tag_name: 'v1.2', ref: 'main' }, 'Tag v1.2 already exists'],
      [{ tag_name: 'v9', ref: 'no-such-ref' }, 'Target no-such-ref is invalid'],
      [{ tag_name: 'v9', ref: '--all' }, 'Target --all is invalid'],
      [{ tag_name: 'bad..name', ref: 'main' }, 'Tag name invalid'],
      [{ tag_name: '-f', ref: 'main' }, 'Tag name invalid'],
    ];
    for (const [body, message] of cases) {
      const res = await create(body);
      expectStatus(res, 400);
      assert.deepEqual(res.body, { message });
    }
    expectStatus(await create({ ref: 'main' }), 400);
    expectStatus(await create({ tag_name: 'v9', ref: 'main' }, (await userWithRole(group.id, 20)).token), 403);
    assert.deepEqual((await names('?order_by=name&sort=asc')).sort(), ['release/v1.9', 'v1.10', 'v1.2']);
    assert.equal((await tags('/v1.2')).body.commit.id, main[0]);
  });
});

describe('GET /projects/:id/repository/tags', () => {
  it('lists newest commit first by default, orders by name or version, searches, pages', async () => {
    const res = await tags();
    expectStatus(res, 200);
    const list = expectShape(z.array(tag), res.body);
    // Commits made within one second share a date: those tie, and ties go by name.
    const byDate = (sign: number) => [...list].sort((a, b) => sign * (Date.parse(a.commit.committed_date) - Date.parse(b.commit.committed_date)) || a.name.localeCompare(b.name)).map((t) => t.name);
    assert.deepEqual(list.map((t) => t.name), byDate(-1));
    assert.deepEqual(list.map((t) => t.commit.id).sort(), [...main].sort());
    assert.equal(res.headers.get('x-total'), '3');
    assert.deepEqual(await names('?order_by=updated&sort=asc'), byDate(1));
    assert.deepEqual(await names('?order_by=name&sort=asc'), ['release/v1.9', 'v1.10', 'v1.2']);
    assert.deepEqual(await names('?order_by=version&sort=desc'), ['v1.10', 'v1.2', 'release/v1.9']);
    assert.deepEqual((await names('?search=^v1')).sort(), ['v1.10', 'v1.2']);
    assert.deepEqual(await names('?search=.9$'), ['release/v1.9']);
    assert.deepEqual(await names('?search=V1.1'), ['v1.10']);
    assert.deepEqual(await names('?per_page=1&page=3'), [byDate(-1)[2]]);
    expectStatus(await tags('?order_by=size'), 400);
  });

  it('needs a Reporter of a private project; an outsider is told it does not exist', async () => {
    expectStatus(await tags('', (await userWithRole(group.id, 20)).token), 200);
    expectStatus(await tags('', (await userWithRole(group.id, 10)).token), 403);
    expectStatus(await tags('', (await userWithRole(group.id, 0)).token), 404);
  });
});

describe('GET and DELETE /projects/:id/repository/tags/:tag_name', () => {
  it('gets a tag by name (slashes encoded); 404 Tag for one that does not exist', async () => {
    const res = await tags('/release%2Fv1.9');
    expectStatus(res, 200);
    assert.equal(expectShape(tag, res.body).commit.id, main[1]);
    for (const name of ['nope', 'v1', '-x', 'a..b', 'main']) {
      const missing = await tags(`/${encodeURIComponent(name)}`);
      expectStatus(missing, 404);
      assert.deepEqual(missing.body, { message: '404 Tag Not Found' });
    }
  });

  it('deletes a tag (Developer); a Reporter is refused; a missing tag is 404', async () => {
    const reporter = await userWithRole(group.id, 20);
    expectStatus(await api(`/projects/${project.id}/repository/tags/v1.10`, { method: 'DELETE', token: reporter.token }), 403);
    const developer = await userWithRole(group.id, 30);
    expectStatus(await api(`/projects/${project.id}/repository/tags/v1.10`, { method: 'DELETE', token: developer.token }), 204);
    expectStatus(await tags('/v1.10'), 404);
    const again = await api(`/projects/${project.id}/repository/tags/v1.10`, { method: 'DELETE' });
    expectStatus(again, 404);
    assert.deepEqual(again.body, { message: '404 Tag Not Found' });
  });
});
