import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { label } from '../../../shared/src/labels.ts';
import { ACCESS_LEVELS as L } from '../../../shared/src/roles.ts';
import { buildGroup, buildProject, expectShape, expectStatus, request as api, startTestServer, userWithRole, type TestServer } from '../../test/harness.ts';

let server: TestServer;
let group: { id: number };
let project: { id: number };
let guest: Awaited<ReturnType<typeof userWithRole>>;
let reporter: Awaited<ReturnType<typeof userWithRole>>;

before(async () => {
  server = await startTestServer();
  group = await buildGroup();
  project = await buildProject(group.id);
  [guest, reporter] = await Promise.all([userWithRole(group.id, L.guest), userWithRole(group.id, L.reporter)]);
});
after(async () => {
  await server.close();
});

for (const scope of ['groups', 'projects'] as const) {
  const base = () => `/${scope}/${scope === 'groups' ? group.id : project.id}/labels`;
  describe(`${scope} labels`, () => {
    it('as a Reporter: creates, gets by id and by name, renames and deletes', async () => {
      const made = await api(base(), { method: 'POST', token: reporter.token, json: { name: `${scope}-bug`, color: '#FF0000', description: 'Broken' } });
      expectStatus(made, 201);
      const l = expectShape(label, made.body);
      assert.equal(l.is_project_label, scope === 'projects');
      assert.equal(l.text_color, '#FFFFFF');
      expectStatus(await api(`${base()}/${l.id}`), 200);
      expectStatus(await api(`${base()}/${encodeURIComponent(`${scope}-bug`)}`), 200);
      const renamed = await api(`${base()}/${l.id}`, { method: 'PUT', token: reporter.token, json: { new_name: `${scope}-defect`, color: '#eee' } });
      expectStatus(renamed, 200);
      assert.equal(renamed.body.name, `${scope}-defect`);
      assert.equal(renamed.body.text_color, '#1F1E24');
      expectStatus(await api(`${base()}/${l.id}`, { method: 'DELETE', token: reporter.token }), 204);
      expectStatus(await api(`${base()}/${l.id}`), 404);
    });

    it('deletes a label named by `name` in the query or the body (the older form); 400 without, 404 for an unknown one', async () => {
      for (const [n, how] of [[1, 'query'], [2, 'body']] as const) {
        const name = `${scope}-old-form-${n}`;
        expectStatus(await api(base(), { method: 'POST', token: reporter.token, json: { name, color: '#0000FF' } }), 201);
        const gone = how === 'query' ? await api(`${base()}?name=${encodeURIComponent(name)}`, { method: 'DELETE', token: reporter.token }) : await api(base(), { method: 'DELETE', token: reporter.token, json: { name } });
        expectStatus(gone, 204);
        expectStatus(await api(`${base()}/${encodeURIComponent(name)}`), 404);
      }
      expectStatus(await api(base(), { method: 'DELETE', token: reporter.token }), 400);
      expectStatus(await api(`${base()}?name=no-such-label`, { method: 'DELETE', token: reporter.token }), 404);
      expectStatus(await api(`${base()}?name=no-such-label`, { method: 'DELETE', token: guest.token }), 403);
    });

    it('refuses a taken name (409), a bad colour (400) and a Guest (403)', async () => {
      expectStatus(await api(base(), { method: 'POST', json: { name: `${scope}-once`, color: '#00ff00' } }), 201);
      expectStatus(await api(base(), { method: 'POST', json: { name: `${scope}-once`, color: '#00ff00' } }), 409);
      expectStatus(await api(base(), { method: 'POST', json: { name: `${scope}-color`, color: 'not a colour' } }), 400);
      expectStatus(await api(base(), { method: 'POST', token: guest.token, json: { name: `${scope}-guest`, color: '#000' } }), 403);
    });
  });
}

describe('GET /projects/:id/labels', () => {
  it('includes the group’s labels, with counts of the issues and merge requests that use them', async () => {
    expectStatus(await api(`/groups/${group.id}/labels`, { method: 'POST', json: { name: 'shared', color: '#123456' } }), 201);
    expectStatus(await api(`/projects/${project.id}/issues`, { method: 'POST', json: { title: 'Labelled', labels: 'shared' } }), 201);
    const res = await api(`/projects/${project.id}/labels?with_counts=true`);
    expectStatus(res, 200);
    const labels = expectShape(z.array(label), res.body);
    const shared = labels.find((l) => l.name === 'shared')!;
    assert.equal(shared.is_project_label, false);
    assert.equal(shared.open_issues_count, 1);
    assert.ok(labels.some((l) => l.name === 'projects-once'));
    // The issue used the group's label rather than making a project one.
    assert.equal(labels.filter((l) => l.name === 'shared').length, 1);
  });
});
