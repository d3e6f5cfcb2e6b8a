import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { protectedBranch } from '../../../shared/src/protected-branches.ts';
import { branch } from '../../../shared/src/branches.ts';
import { buildGroup, buildProject, buildUser, expectShape, expectStatus, request as api, startTestServer, userWithRole, type TestServer } from '../../test/harness.ts';
import { cloneAs } from '../../test/git-client.ts';
import { commitTo, openMergeRequest } from '../../test/merge-fixtures.ts';

let server: TestServer;
let group: { id: number };
let project: { id: number; path_with_namespace: string };
let developer: Awaited<ReturnType<typeof userWithRole>>;
let maintainer: Awaited<ReturnType<typeof userWithRole>>;

const pb = (suffix = '', opts: Parameters<typeof api>[1] = {}) => api(`/projects/${project.id}/protected_branches${suffix}`, opts);
const enc = encodeURIComponent;

before(async () => {
  server = await startTestServer();
  group = await buildGroup();
  project = await buildProject(group.id);
  developer = await userWithRole(group.id, 30);
  maintainer = await userWithRole(group.id, 40);
  await commitTo(project.id, 'main', { 'README.md': '# p\n' });
});
after(() => server.close());

describe('the default protection of a new project', () => {
  it("protects the default branch its first commit creates, as the group's default_branch_protection_defaults say", async () => {
    const res = await pb();
    expectStatus(res, 200);
    const [main] = expectShape(z.array(protectedBranch), res.body);
    assert.equal(res.body.length, 1);
    assert.equal(main.name, 'main');
    assert.deepEqual(main.push_access_levels.map((l) => [l.access_level, l.access_level_description]), [[40, 'Maintainers']]);
    assert.deepEqual(main.merge_access_levels.map((l) => l.access_level), [40]);
    assert.deepEqual(main.unprotect_access_levels.map((l) => l.access_level), [40]);
    assert.equal(main.allow_force_push, false);
    const shown = expectShape(branch, (await api(`/projects/${project.id}/repository/branches/main`, { token: developer.token })).body);
    assert.deepEqual([shown.protected, shown.developers_can_push, shown.can_push], [true, false, false]);
  });

  it('follows a group that lets Developers push: its defaults become the new default branch’s levels', async () => {
    const g = await buildGroup();
    expectStatus(await api(`/groups/${g.id}`, { method: 'PUT', json: { default_branch_protection_defaults: { allowed_to_push: [{ access_level: 30 }], allowed_to_merge: [{ access_level: 40 }], allow_force_push: false } } }), 200);
    const p = await buildProject(g.id);
    await commitTo(p.id, 'main', { 'a.txt': 'a' });
    const [main] = (await api(`/projects/${p.id}/protected_branches`)).body;
    assert.deepEqual([main.name, main.push_access_levels[0].access_level, main.merge_access_levels[0].access_level], ['main', 30, 40]);
  });
});

describe('POST /projects/:id/protected_branches', () => {
  it('protects a wildcard with the given levels; a second time is the platform’s 409', async () => {
    const res = await pb('', { method: 'POST', json: { name: 'release-*', push_access_level: 30, merge_access_level: 30, unprotect_access_level: 40 } });
    expectStatus(res, 201);
    const created = expectShape(protectedBranch, res.body);
    assert.deepEqual(
      [created.name, created.push_access_levels[0].access_level_description, created.merge_access_levels[0].access_level, created.unprotect_access_levels[0].access_level],
      ['release-*', 'Developers + Maintainers', 30, 40],
    );
    const again = await pb('', { method: 'POST', json: { name: 'release-*' } });
    expectStatus(again, 409);
    assert.deepEqual(again.body, { message: "Protected branch 'release-*' already exists" });
  });

  it('takes allowed_to_push and allowed_to_merge roles; defaults to Maintainers', async () => {
    const res = await pb('', { method: 'POST', json: { name: 'stable/*', allowed_to_push: [{ access_level: 40 }, { access_level: 60 }], allowed_to_merge: [{ access_level: 30 }] } });
    expectStatus(res, 201);
    assert.deepEqual(res.body.push_access_levels.map((l: { access_level: number }) => l.access_level), [40, 60]);
    assert.equal(res.body.push_access_levels[1].access_level_description, 'Instance admins');
    assert.deepEqual(res.body.merge_access_levels.map((l: { access_level: number }) => l.access_level), [30]);
    assert.deepEqual(res.body.unprotect_access_levels.map((l: { access_level: number }) => l.access_level), [40]);
  });

  it('refuses a level the platform does not have, a missing name, and user entries; nothing is written', async () => {
    expectStatus(await pb('', { method: 'POST', json: { name: 'x', push_access_level: 35 } }), 400);
    const missing = await pb('', { method: 'POST', json: {} });
    expectStatus(missing, 400);
    assert.deepEqual(missing.body, { message: 'name is missing' });
    expectStatus(await pb('', { method: 'POST', json: { name: 'y', allowed_to_push: [{ user_id: 1 }] } }), 422);
    const names = (await pb()).body.map((b: { name: string }) => b.name);
    assert.ok(!names.includes('x') && !names.includes('y'));
  });

  it('is for Maintainers: a Developer gets 403', async () => {
    expectStatus(await pb('', { method: 'POST', token: developer.token, json: { name: 'dev-*' } }), 403);
    expectStatus(await pb('', { token: developer.token }), 403);
  });
});

describe('GET /projects/:id/protected_branches/:name', () => {
  it('finds a wildcard by its URL-encoded name, searches the list, and answers 404 for an unknown name', async () => {
    const one = await pb(`/${enc('stable/*')}`);
    expectStatus(one, 200);
    assert.equal(one.body.name, 'stable/*');
    assert.deepEqual((await pb('?search=release')).body.map((b: { name: string }) => b.name), ['release-*']);
    const missing = await pb('/nope');
    expectStatus(missing, 404);
    assert.deepEqual(missing.body, { message: '404 Not found' });
  });

  it('makes the branches it matches protected in the branches API', async () => {
    await commitTo(project.id, 'release-1', { 'r.txt': '1' });
    await commitTo(project.id, 'topic', { 't.txt': '1' });
    const list = (await api(`/projects/${project.id}/repository/branches`, { token: developer.token })).body as { name: string; protected: boolean; developers_can_push: boolean }[];
    const byName = new Map(list.map((b) => [b.name, b]));
    assert.deepEqual([byName.get('release-1')?.protected, byName.get('release-1')?.developers_can_push], [true, true]);
    assert.equal(byName.get('topic')?.protected, false);
  });
});

describe('enforcement', () => {
  it('refuses a Developer’s git push to a protected branch, and accepts it once unprotected', async () => {
    const client = await cloneAs(server.url, project.path_with_namespace, developer.user, developer.token);
    try {
      const refused = await client.pushCommit('main', { 'dev.txt': 'd' });
      assert.equal(refused.ok, false);
      assert.match(refused.out, /You are not allowed to push code to protected branches on this project\./);
      // A commit through the API meets the same protection.
      const commit = await api(`/projects/${project.id}/repository/commits`, { method: 'POST', token: developer.token, json: { branch: 'main', commit_message: 'm', actions: [{ action: 'create', file_path: 'api.txt', content: 'a' }] } });
      expectStatus(commit, 403);
      expectStatus(await pb('/main', { method: 'DELETE' }), 204);
      expectStatus(await pb('/main'), 404);
      const pushed = await client.pushCommit('main', { 'dev.txt': 'd2' });
      assert.ok(pushed.ok, pushed.out);
      const shown = (await api(`/projects/${project.id}/repository/branches/main`, { token: developer.token })).body;
      assert.deepEqual([shown.protected, shown.commit.id], [false, pushed.sha]);
    } finally {
      client.remove();
    }
  });

  it('refuses a force push unless allow_force_push, set with PATCH', async () => {
    expectStatus(await pb('', { method: 'POST', json: { name: 'main' } }), 201);
    const client = await cloneAs(server.url, project.path_with_namespace, maintainer.user, maintainer.token);
    try {
      const first = await client.pushCommit('main', { 'm.txt': '1' });
      assert.ok(first.ok, first.out);
      await client.git(['reset', '-q', '--hard', 'HEAD~1']);
      await client.git(['commit', '-q', '--allow-empty', '-m', 'rewrite']);
      const forced = await client.git(['push', '--force', 'origin', 'main']);
      assert.equal(forced.ok, false);
      assert.match(forced.out, /You are not allowed to force push code to a protected branch on this project\./);
      const patched = await pb('/main', { method: 'PATCH', json: { allow_force_push: true, code_owner_approval_required: true } });
      expectStatus(patched, 200);
      assert.deepEqual([patched.body.allow_force_push, patched.body.code_owner_approval_required], [true, true]);
      const again = await client.git(['push', '--force', 'origin', 'main']);
      assert.ok(again.ok, again.out);
      // Deleting a protected branch by push stays refused.
      const deleted = await client.git(['push', 'origin', ':main']);
      assert.match(deleted.out, /You can only delete protected branches using the web interface\./);
    } finally {
      client.remove();
    }
  });

  it('lets a Developer merge only when merge_access_level admits Developers', async () => {
    await commitTo(project.id, 'feature-merge', { 'f.txt': 'f' }, { token: developer.token });
    const mr = await openMergeRequest(project.id, 'feature-merge', 'Merge me', developer.token);
    const refused = await api(`/projects/${project.id}/merge_requests/${mr.iid}/merge`, { method: 'PUT', token: developer.token, json: {} });
    expectStatus(refused, 401);
    const current = (await pb('/main')).body;
    const patched = await pb('/main', { method: 'PATCH', json: { allowed_to_merge: [{ access_level: 30 }] } });
    expectStatus(patched, 200);
    assert.deepEqual(patched.body.merge_access_levels.map((l: { access_level: number }) => l.access_level), [40, 30]);
    const merged = await api(`/projects/${project.id}/merge_requests/${mr.iid}/merge`, { method: 'PUT', token: developer.token, json: {} });
    expectStatus(merged, 200);
    assert.equal(merged.body.state, 'merged');
    // The Maintainers entry removed by its id: only Developers + Maintainers is left.
    const removed = await pb('/main', { method: 'PATCH', json: { allowed_to_merge: [{ id: current.merge_access_levels[0].id, _destroy: true }] } });
    assert.deepEqual(removed.body.merge_access_levels.map((l: { access_level: number }) => l.access_level), [30]);
  });

  it('lets only administrators unprotect a branch whose unprotect level is 60', async () => {
    expectStatus(await pb('', { method: 'POST', json: { name: 'locked', unprotect_access_level: 60 } }), 201);
    expectStatus(await pb('/locked', { method: 'DELETE', token: maintainer.token }), 403);
    expectStatus(await pb('/locked'), 200);
    const admin = await buildUser({ admin: true });
    expectStatus(await pb('/locked', { method: 'DELETE', token: admin.token }), 204);
  });
});
