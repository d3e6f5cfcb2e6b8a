import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { note } from '../../../shared/src/notes.ts';
import { ACCESS_LEVELS as L } from '../../../shared/src/roles.ts';
import { buildGroup, buildProject, expectShape, expectStatus, request as api, startTestServer, userWithRole, type TestServer } from '../../test/harness.ts';
import { fillRepository } from '../../test/repository-fixture.ts';

let server: TestServer;
let project: { id: number };
let guest: Awaited<ReturnType<typeof userWithRole>>;
let reporter: Awaited<ReturnType<typeof userWithRole>>;
const noteables: Record<'issues' | 'merge_requests', string> = { issues: '', merge_requests: '' };

before(async () => {
  server = await startTestServer();
  const group = await buildGroup();
  project = await buildProject(group.id);
  await fillRepository(project.id);
  [guest, reporter] = await Promise.all([userWithRole(group.id, L.guest), userWithRole(group.id, L.reporter)]);
  const issue = await api(`/projects/${project.id}/issues`, { method: 'POST', json: { title: 'Talk' } });
  const mr = await api(`/projects/${project.id}/merge_requests`, { method: 'POST', json: { title: 'Talk', source_branch: 'feature', target_branch: 'main' } });
  noteables.issues = `/projects/${project.id}/issues/${issue.body.iid}/notes`;
  noteables.merge_requests = `/projects/${project.id}/merge_requests/${mr.body.iid}/notes`;
});
after(async () => {
  await server.close();
});

for (const kind of ['issues', 'merge_requests'] as const) {
  describe(`notes on ${kind}`, () => {
    it('creates, lists (newest first), gets, edits and deletes a comment, and counts it on the noteable', async () => {
      const made = await api(noteables[kind], { method: 'POST', token: reporter.token, json: { body: 'First!' } });
      expectStatus(made, 201);
      const n = expectShape(note, made.body);
      assert.equal(n.body, 'First!');
      assert.equal(n.author.id, reporter.user.id);
      assert.equal(n.noteable_type, kind === 'issues' ? 'Issue' : 'MergeRequest');
      assert.equal(n.system, false);
      await api(noteables[kind], { method: 'POST', json: { body: 'Second' } });
      const list = await api(noteables[kind]);
      expectStatus(list, 200);
      assert.deepEqual(expectShape(z.array(note), list.body).map((x) => x.body), ['Second', 'First!']);
      const noteable = await api(noteables[kind].replace(/\/notes$/, ''));
      assert.equal(noteable.body.user_notes_count, 2);
      const edited = await api(`${noteables[kind]}/${n.id}`, { method: 'PUT', token: reporter.token, json: { body: 'First, edited' } });
      expectStatus(edited, 200);
      assert.equal(edited.body.body, 'First, edited');
      expectStatus(await api(`${noteables[kind]}/${n.id}`, { method: 'DELETE', token: reporter.token }), 204);
      expectStatus(await api(`${noteables[kind]}/${n.id}`), 404);
    });

    it('refuses an empty body (400), an edit by someone else (403) and an unknown note (404)', async () => {
      expectStatus(await api(noteables[kind], { method: 'POST', json: { body: '' } }), 400);
      const theirs = await api(noteables[kind], { method: 'POST', json: { body: 'Root’s' } });
      expectStatus(await api(`${noteables[kind]}/${theirs.body.id}`, { method: 'PUT', token: reporter.token, json: { body: 'Mine now' } }), 403);
      expectStatus(await api(`${noteables[kind]}/987654`), 404);
    });
  });
}

describe('internal notes', () => {
  it('are seen by Reporters and up only, and a Guest cannot write one', async () => {
    const internal = await api(noteables.issues, { method: 'POST', token: reporter.token, json: { body: 'Between us', internal: true } });
    expectStatus(internal, 201);
    assert.equal(internal.body.internal, true);
    const seen = (await api(noteables.issues, { token: guest.token })).body.map((x: { id: number }) => x.id);
    assert.ok(!seen.includes(internal.body.id));
    expectStatus(await api(`${noteables.issues}/${internal.body.id}`, { token: guest.token }), 404);
    expectStatus(await api(noteables.issues, { method: 'POST', token: guest.token, json: { body: 'x', internal: true } }), 403);
    expectStatus(await api(noteables.issues, { method: 'POST', token: guest.token, json: { body: 'A guest comment' } }), 201);
  });

  it('closing an issue writes a system note', async () => {
    const issue = noteables.issues.replace(/\/notes$/, '');
    expectStatus(await api(issue, { method: 'PUT', json: { state_event: 'close' } }), 200);
    const activity = await api(`${noteables.issues}?activity_filter=only_activity`);
    assert.deepEqual(activity.body.map((x: { body: string; system: boolean }) => [x.body, x.system]), [['closed', true]]);
  });
});
