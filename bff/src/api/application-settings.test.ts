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
      user_default_external: false,
      can_create_group: true,
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
  it('sets what a new account may do where the request does not say (external, top-level groups)', async () => {
    const res = await put({ user_default_external: true, can_create_group: 'false' });
    expectStatus(res, 200);
    assert.deepEqual([res.body.user_default_external, res.body.can_create_group], [true, false]);
    const make = (extra: Record<string, unknown> = {}) => {
      const username = `acct${process.pid}${Math.random().toString(36).slice(2, 8)}`;
      return api('/users', { method: 'POST', json: { username, name: username, email: `${username}@example.com`, password: 'a-long-password-1', ...extra } });
    };
    try {
      const made = await make();
      expectStatus(made, 201);
      assert.deepEqual([made.body.external, made.body.can_create_group], [true, false]);
      // What the request says wins over the defaults.
      const chosen = await make({ external: false, can_create_group: true });
      assert.deepEqual([chosen.body.external, chosen.body.can_create_group], [false, true]);
      // And the defaults change behaviour: the new user cannot create a top-level group.
      const token = await api(`/users/${made.body.id}/personal_access_tokens`, { method: 'POST', json: { name: 't', scopes: ['api'] } });
      expectStatus(token, 201);
      expectStatus(await api('/groups', { method: 'POST', token: token.body.token, json: { name: 'Nope', path: `nope-${Date.now()}` } }), 403);
    } finally {
      const reset = await put({ user_default_external: false, can_create_group: true });
      assert.deepEqual([reset.body.user_default_external, reset.body.can_create_group], [false, true]);
    }
    const plain = await make();
    assert.deepEqual([plain.body.external, plain.body.can_create_group], [false, true]);
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
