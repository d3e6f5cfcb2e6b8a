import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applicationSettings } from '../../../shared/src/application-settings.ts';
import { buildGroup, buildUser, expectShape, expectStatus, request as api, startTestServer, type TestServer } from '../../test/harness.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

const put = (json: Record<string, unknown>, token?: string) => api('/application/settings', { method: 'PUT', json, token });

describe('GET /application/settings', () => {
  it('answers every setting, each former name beside its current one', async () => {
    const res = await api('/application/settings');
    expectStatus(res, 200);
    assert.deepEqual(expectShape(applicationSettings, res.body), {
      allow_local_requests_from_web_hooks_and_services: false,
      allow_local_requests_from_hooks_and_services: false,
      default_branch_name: null,
      default_project_visibility: 'private',
      default_group_visibility: 'private',
      group_token_revocation_enabled: true,
      web_hook_event_resend_api_endpoint_rate_limit: true,
    });
  });
  it('answers 403 to a user who is not an administrator and 401 without authentication', async () => {
    const user = await buildUser();
    expectStatus(await api('/application/settings', { token: user.token }), 403);
    expectStatus(await api('/application/settings', { token: null }), 401);
  });
});

describe('PUT /application/settings', () => {
  it('accepts a setting under its former name, and answers it under both', async () => {
    const res = await put({ allow_local_requests_from_hooks_and_services: true });
    expectStatus(res, 200);
    assert.equal(res.body.allow_local_requests_from_web_hooks_and_services, true);
    assert.equal(res.body.allow_local_requests_from_hooks_and_services, true);
    const current = await put({ allow_local_requests_from_web_hooks_and_services: 'false' });
    assert.deepEqual([current.body.allow_local_requests_from_web_hooks_and_services, current.body.allow_local_requests_from_hooks_and_services], [false, false]);
    // Both given: the former name wins, as on the platform.
    const both = await put({ allow_local_requests_from_web_hooks_and_services: false, allow_local_requests_from_hooks_and_services: true });
    assert.equal(both.body.allow_local_requests_from_web_hooks_and_services, true);
    expectStatus(await put({ allow_local_requests_from_web_hooks_and_services: false }), 200);
  });
  it('sets the defaults new groups and projects take', async () => {
    const res = await put({ default_group_visibility: 'internal', default_project_visibility: 'public', default_branch_name: 'trunk' });
    expectStatus(res, 200);
    assert.deepEqual([res.body.default_group_visibility, res.body.default_project_visibility, res.body.default_branch_name], ['internal', 'public', 'trunk']);
    try {
      const group = await api('/groups', { method: 'POST', json: { name: 'Defaulted', path: `defaulted-${Date.now()}` } });
      expectStatus(group, 201);
      assert.equal(group.body.visibility, 'internal');
      // A project takes the default, at most its group's visibility.
      const project = await api('/projects', { method: 'POST', json: { name: 'defaulted', namespace_id: group.body.id } });
      expectStatus(project, 201);
      assert.equal(project.body.visibility, 'internal');
      const pub = await buildGroup({ visibility: 'public' });
      const inPublic = await api('/projects', { method: 'POST', json: { name: 'defaulted', namespace_id: pub.id } });
      assert.equal(inPublic.body.visibility, 'public');
    } finally {
      const reset = await put({ default_group_visibility: 'private', default_project_visibility: 'private', default_branch_name: '' });
      assert.equal(reset.body.default_branch_name, null, 'an empty branch name is none');
    }
  });
  it('answers 400 for a bad value or no setting, changing nothing', async () => {
    for (const json of [{ default_project_visibility: 'secret' }, { default_branch_name: 'a b' }, { allow_local_requests_from_hooks_and_services: 'maybe' }, {}]) {
      expectStatus(await put(json), 400);
    }
    assert.equal((await api('/application/settings')).body.default_project_visibility, 'private');
  });
  it('answers 403 to a user who is not an administrator', async () => {
    const user = await buildUser();
    expectStatus(await put({ allow_local_requests_from_hooks_and_services: true }, user.token), 403);
    assert.equal((await api('/application/settings')).body.allow_local_requests_from_hooks_and_services, false);
  });
});
