import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { registryProtectionRule } from '../../../shared/src/registry-protection-rules.ts';
import { buildGroup, buildProject, expectShape, expectStatus, request as api, startTestServer, userWithRole, type TestServer } from '../../test/harness.ts';

let server: TestServer;
let project: { id: number; path_with_namespace: string };
let developer: Awaited<ReturnType<typeof userWithRole>>;
let maintainer: Awaited<ReturnType<typeof userWithRole>>;

const rules = (suffix = '', opts: Parameters<typeof api>[1] = {}) => api(`/projects/${project.id}/registry/protection/repository/rules${suffix}`, opts);

before(async () => {
  server = await startTestServer();
  const group = await buildGroup();
  project = await buildProject(group.id);
  developer = await userWithRole(group.id, 30);
  maintainer = await userWithRole(group.id, 40);
});
after(() => server.close());

describe('POST /projects/:id/registry/protection/repository/rules', () => {
  it('creates a rule as a Maintainer (201, the spec’s shape); the same pattern again is 422', async () => {
    const pattern = `${project.path_with_namespace}/app-*`;
    const res = await rules('', { method: 'POST', token: maintainer.token, json: { repository_path_pattern: pattern, minimum_access_level_for_push: 'maintainer' } });
    expectStatus(res, 201);
    assert.deepEqual(expectShape(registryProtectionRule, res.body), {
      id: res.body.id,
      project_id: project.id,
      repository_path_pattern: pattern,
      minimum_access_level_for_push: 'maintainer',
      minimum_access_level_for_delete: null,
    });
    const again = await rules('', { method: 'POST', json: { repository_path_pattern: pattern, minimum_access_level_for_delete: 'owner' } });
    expectStatus(again, 422);
    assert.deepEqual(again.body, { message: { error: ['Repository path pattern has already been taken'] } });
  });

  it('answers 400 without a level or a pattern, or with a level it does not know', async () => {
    const none = await rules('', { method: 'POST', json: { repository_path_pattern: `${project.path_with_namespace}/x` } });
    expectStatus(none, 400);
    assert.deepEqual(none.body, { message: 'minimum_access_level_for_push, minimum_access_level_for_delete are missing, at least one parameter must be provided' });
    const noPattern = await rules('', { method: 'POST', json: { minimum_access_level_for_push: 'owner' } });
    expectStatus(noPattern, 400);
    assert.deepEqual(noPattern.body, { message: 'repository_path_pattern is missing' });
    const badLevel = await rules('', { method: 'POST', json: { repository_path_pattern: `${project.path_with_namespace}/x`, minimum_access_level_for_push: 'developer' } });
    expectStatus(badLevel, 400);
    assert.deepEqual(badLevel.body, { message: { minimum_access_level_for_push: ['does not have a valid value'] } });
  });

  it('answers 422 with the platform’s messages for a pattern outside the project or not a repository path', async () => {
    const outside = await rules('', { method: 'POST', json: { repository_path_pattern: 'other-group/app', minimum_access_level_for_push: 'owner' } });
    expectStatus(outside, 422);
    assert.deepEqual(outside.body, { message: { error: ["Repository path pattern should start with the project's full path"] } });
    const odd = await rules('', { method: 'POST', json: { repository_path_pattern: `${project.path_with_namespace}/bad!name`, minimum_access_level_for_push: 'owner' } });
    expectStatus(odd, 422);
    assert.deepEqual(odd.body, { message: { error: ['Repository path pattern should be a valid container repository path with optional wildcard characters.'] } });
    const blank = await rules('', { method: 'POST', json: { repository_path_pattern: '', minimum_access_level_for_push: 'owner' } });
    expectStatus(blank, 422);
    assert.equal(blank.body.message.error[0], "Repository path pattern can't be blank");
    // The project's path is matched whatever its case.
    const upper = await rules('', { method: 'POST', json: { repository_path_pattern: `${project.path_with_namespace.toUpperCase()}/x`, minimum_access_level_for_push: 'owner' } });
    expectStatus(upper, 422);
    assert.deepEqual(upper.body.message.error, ['Repository path pattern should be a valid container repository path with optional wildcard characters.']);
  });

  it('refuses callers below Maintainer (403), anonymous callers (401) and unknown projects (404)', async () => {
    const json = { repository_path_pattern: `${project.path_with_namespace}/dev`, minimum_access_level_for_push: 'owner' };
    expectStatus(await rules('', { method: 'POST', token: developer.token, json }), 403);
    expectStatus(await rules('', { method: 'POST', token: null, json }), 401);
    const missing = await api('/projects/987654321/registry/protection/repository/rules', { method: 'POST', json });
    expectStatus(missing, 404);
    assert.deepEqual(missing.body, { message: '404 Project Not Found' });
    assert.equal((await rules()).body.length, 1, 'nothing was made by the refused calls');
  });
});

describe('GET /projects/:id/registry/protection/repository/rules', () => {
  it('lists the rules for Maintainers; 403 below, 401 with a bad token, 404 for an unknown project', async () => {
    const list = await rules('', { token: maintainer.token });
    expectStatus(list, 200);
    assert.deepEqual(expectShape(z.array(registryProtectionRule), list.body).map((r) => r.repository_path_pattern), [`${project.path_with_namespace}/app-*`]);
    expectStatus(await rules('', { token: developer.token }), 403);
    expectStatus(await rules('', { token: 'not-a-token' }), 401);
    expectStatus(await api('/projects/987654321/registry/protection/repository/rules'), 404);
  });
});

describe('PATCH /projects/:id/registry/protection/repository/rules/:protection_rule_id', () => {
  it('changes what is given, unsets a level with an empty string, and refuses to unset both (422)', async () => {
    const made = await rules('', { method: 'POST', json: { repository_path_pattern: `${project.path_with_namespace}/patch-me`, minimum_access_level_for_push: 'maintainer' } });
    const id = made.body.id;
    const both = await rules(`/${id}`, { method: 'PATCH', token: maintainer.token, json: { minimum_access_level_for_delete: 'admin', repository_path_pattern: `${project.path_with_namespace}/patched/*` } });
    expectStatus(both, 200);
    assert.deepEqual(
      [both.body.repository_path_pattern, both.body.minimum_access_level_for_push, both.body.minimum_access_level_for_delete],
      [`${project.path_with_namespace}/patched/*`, 'maintainer', 'admin'],
    );
    const unset = await rules(`/${id}`, { method: 'PATCH', json: { minimum_access_level_for_push: '' } });
    expectStatus(unset, 200);
    assert.equal(expectShape(registryProtectionRule, unset.body).minimum_access_level_for_push, null);
    const neither = await rules(`/${id}`, { method: 'PATCH', json: { minimum_access_level_for_delete: '' } });
    expectStatus(neither, 422);
    assert.deepEqual(neither.body, { message: { error: ['A rule must have at least a minimum access role for push or delete.'] } });
    const taken = await rules(`/${id}`, { method: 'PATCH', json: { repository_path_pattern: `${project.path_with_namespace}/app-*` } });
    expectStatus(taken, 422);
    assert.deepEqual(taken.body, { message: { error: ['Repository path pattern has already been taken'] } });
    expectStatus(await rules(`/${id}`, { method: 'PATCH', json: { minimum_access_level_for_push: 'guest' } }), 400);
    expectStatus(await rules(`/${id}`, { method: 'PATCH', token: developer.token, json: { minimum_access_level_for_push: 'owner' } }), 403);
    expectStatus(await rules(`/${id}`, { method: 'PATCH', token: null, json: { minimum_access_level_for_push: 'owner' } }), 401);
    const unchanged = await rules(`/${id}`, { method: 'PATCH', json: {} });
    expectStatus(unchanged, 200);
    assert.deepEqual([unchanged.body.minimum_access_level_for_push, unchanged.body.minimum_access_level_for_delete], [null, 'admin']);
    const unknown = await rules('/987654321', { method: 'PATCH', json: { minimum_access_level_for_push: 'owner' } });
    expectStatus(unknown, 404);
    assert.deepEqual(unknown.body, { message: '404 Not found' });
  });
});

describe('DELETE /projects/:id/registry/protection/repository/rules/:protection_rule_id', () => {
  it('deletes a rule (204) as a Maintainer; 403 below, 404 once gone or for a rule id that is not one', async () => {
    const made = await rules('', { method: 'POST', json: { repository_path_pattern: `${project.path_with_namespace}/gone`, minimum_access_level_for_delete: 'owner' } });
    expectStatus(await rules(`/${made.body.id}`, { method: 'DELETE', token: developer.token }), 403);
    expectStatus(await rules(`/${made.body.id}`, { method: 'DELETE', token: null }), 401);
    expectStatus(await rules(`/${made.body.id}`, { method: 'DELETE', token: maintainer.token }), 204);
    expectStatus(await rules(`/${made.body.id}`, { method: 'DELETE' }), 404);
    expectStatus(await rules('/not-an-id', { method: 'DELETE' }), 404);
    // A rule of another project is not found through this one.
    const other = await buildProject((await buildGroup()).id);
    const theirs = await api(`/projects/${other.id}/registry/protection/repository/rules`, { method: 'POST', json: { repository_path_pattern: `${other.path_with_namespace}/x`, minimum_access_level_for_push: 'owner' } });
    expectStatus(theirs, 201);
    expectStatus(await rules(`/${theirs.body.id}`, { method: 'DELETE' }), 404);
  });
});
