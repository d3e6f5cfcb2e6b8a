import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { comparison } from '../../../shared/src/compare.ts';
import { buildGroup, buildProject, expectShape, expectStatus, request as api, startTestServer, userWithRole, type TestServer } from '../../test/harness.ts';
import { fillRepository } from '../../test/repository-fixture.ts';

let server: TestServer;
let group: { id: number };
let project: { id: number; path_with_namespace: string };
let commits: { main: string[]; feature: string };
let mainMoved = '';

before(async () => {
  server = await startTestServer();
  group = await buildGroup();
  project = await buildProject(group.id);
  commits = await fillRepository(project.id);
  // main moves on after feature branched off: a straight comparison sees that change undone.
  const res = await api(`/projects/${project.id}/repository/commits`, { method: 'POST', json: { branch: 'main', commit_message: 'Later on main', actions: [{ action: 'create', file_path: 'LATER.md', content: 'later\n' }] } });
  mainMoved = res.body.id;
});
after(async () => {
  await server.close();
});

const compare = (query: string, token?: string) => api(`/projects/${project.id}/repository/compare${query}`, { token });

describe('GET /projects/:id/repository/compare', () => {
  it('answers the commits of to since from, oldest first, and the diffs from their merge base', async () => {
    const res = await compare('?from=main&to=feature');
    expectStatus(res, 200);
    const c = expectShape(comparison, res.body);
    assert.deepEqual(c.commits.map((x) => x.id), [commits.feature]);
    assert.equal(c.commit?.id, commits.feature);
    assert.equal(c.compare_same_ref, false);
    assert.equal(c.compare_timeout, false);
    assert.equal(c.web_url, `${server.url}/${project.path_with_namespace}/-/compare/main...feature`);
    const byPath = Object.fromEntries(c.diffs.map((d) => [d.new_path, d]));
    assert.deepEqual(Object.keys(byPath).sort(), ['README.md', 'src/main.js', 'src/new.js']);
    assert.equal(byPath['README.md'].diff, '@@ -1 +1,3 @@\n # Demo\n+\n+More.\n');
    assert.equal(byPath['src/main.js'].renamed_file, true);
    assert.equal(byPath['src/main.js'].old_path, 'src/app.js');
    assert.equal(byPath['src/new.js'].new_file, true);
    assert.equal(byPath['src/new.js'].a_mode, '0');
    assert.equal(byPath['src/new.js'].b_mode, '100644');
  });

  it('compares the two refs themselves when straight', async () => {
    const c = expectShape(comparison, (await compare('?from=main&to=feature&straight=true')).body);
    const removed = c.diffs.find((d) => d.old_path === 'LATER.md');
    assert.ok(removed?.deleted_file, JSON.stringify(c.diffs.map((d) => d.old_path)));
    const back = expectShape(comparison, (await compare(`?from=feature&to=${mainMoved}`)).body);
    assert.deepEqual(back.commits.map((x) => x.title), ['Later on main']);
    const same = expectShape(comparison, (await compare('?from=main&to=main')).body);
    assert.equal(same.compare_same_ref, true);
    assert.deepEqual(same.commits, []);
    assert.equal(same.commit, null);
  });

  it('answers 404 Ref for a ref that names nothing, 400 without from or to; needs a Reporter', async () => {
    for (const q of ['?from=nope&to=main', '?from=main&to=--output=x']) {
      const res = await compare(q);
      expectStatus(res, 404);
      assert.deepEqual(res.body, { message: '404 Ref Not Found' });
    }
    expectStatus(await compare('?from=main'), 400);
    expectStatus(await compare('?from=main&to=feature', (await userWithRole(group.id, 10)).token), 403);
    expectStatus(await compare('?from=main&to=feature', (await userWithRole(group.id, 20)).token), 200);
  });
});
