import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { contextCommit, createdContextCommit } from '../../../shared/src/context-commits.ts';
import { buildGroup, buildProject, expectShape, expectStatus, request as api, startTestServer, userWithRole, type TestServer } from '../../test/harness.ts';
import { commitTo, openMergeRequest } from '../../test/merge-fixtures.ts';

let server: TestServer;
let project: { id: number };
let mr: { iid: number };
let older: string;
let other: string;
let reporter: Awaited<ReturnType<typeof userWithRole>>;
const path = () => `/projects/${project.id}/merge_requests/${mr.iid}/context_commits`;

before(async () => {
  server = await startTestServer();
  const group = await buildGroup();
  project = await buildProject(group.id);
  reporter = await userWithRole(group.id, 20);
  older = await commitTo(project.id, 'main', { 'README.md': '# Context\n' }, { message: 'Initial commit\n\nSigned-off-by: Ada <ada@example.com>' });
  other = await commitTo(project.id, 'side', { 'side.txt': 'side\n' }, { message: 'Side work' });
  await commitTo(project.id, 'feature', { 'f.txt': 'f\n' });
  mr = await openMergeRequest(project.id, 'feature', 'Feature');
});
after(async () => server.close());

describe('POST /projects/:id/merge_requests/:merge_request_iid/context_commits', () => {
  it('adds commits of the repository, answered with every field, trailers and web_url', async () => {
    const res = await api(path(), { method: 'POST', json: { commits: [older, other.slice(0, 12)] } });
    expectStatus(res, 201);
    const created = expectShape(z.array(createdContextCommit), res.body);
    assert.deepEqual(created.map((c) => c.id), [older, other]);
    assert.equal(created[0].title, 'Initial commit');
    assert.deepEqual(created[0].trailers, { 'Signed-off-by': 'Ada <ada@example.com>' });
    assert.match(created[1].web_url, new RegExp(`/-/commit/${other}$`));
    assert.equal(created[0].short_id, older.slice(0, 8));
  });

  it('refuses unknown SHAs by name, and ones already added', async () => {
    const unknown = await api(path(), { method: 'POST', json: { commits: ['deadbeef'.repeat(5)] } });
    expectStatus(unknown, 400);
    assert.match(unknown.body.message, /deadbeef.*not valid SHAs/);
    expectStatus(await api(path(), { method: 'POST', json: { commits: [older] } }), 400);
    expectStatus(await api(path(), { method: 'POST', json: {} }), 400);
  });

  it('without the role: a Reporter may read but not add', async () => {
    expectStatus(await api(path(), { method: 'POST', token: reporter.token, json: { commits: [older] } }), 403);
    expectStatus(await api(path(), { token: reporter.token }), 200);
  });
});

describe('GET and DELETE /projects/:id/merge_requests/:merge_request_iid/context_commits', () => {
  it('lists them in the order added, removes the named ones', async () => {
    const list = expectShape(z.array(contextCommit), (await api(path())).body);
    assert.deepEqual(list.map((c) => c.id), [older, other]);
    assert.deepEqual(list[1].parent_ids, [older]);
    expectStatus(await api(path(), { method: 'DELETE', json: { commits: [older] } }), 204);
    assert.deepEqual((await api(path())).body.map((c: { id: string }) => c.id), [other]);
    expectStatus(await api(path(), { method: 'DELETE', json: { commits: [older] } }), 400);
  });

  it('answers 404 for an unknown merge request', async () => {
    expectStatus(await api(`/projects/${project.id}/merge_requests/99999/context_commits`), 404);
  });
});
