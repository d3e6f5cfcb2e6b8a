import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { revokedToken } from '../../../shared/src/token-revocation.ts';
import { deployToken, deployTokenWithToken } from '../../../shared/src/deploy-tokens.ts';
import { applicationSettings } from '../../../shared/src/application-settings.ts';
import { addMember, buildGroup, buildProject, buildUser, expectShape, expectStatus, request as api, startTestServer, userWithRole, type TestServer } from '../../test/harness.ts';
import { expectPlatformSchema } from '../../test/platform-schemas.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

async function tree() {
  const top = await buildGroup();
  const sub = await buildGroup({ parent_id: top.id });
  const owner = await userWithRole(top.id, 50);
  return { top, sub, owner };
}
const revoke = (groupId: number, token: string, as: string) => api(`/groups/${groupId}/tokens/revoke`, { method: 'POST', token: as, json: { token } });

describe('POST /groups/:id/tokens/revoke', () => {
  describe('as an Owner of a top-level group', () => {
    it('revokes a member’s personal access token and returns its details, also when already revoked', async () => {
      const { top, sub, owner } = await tree();
      const member = await userWithRole(sub.id, 30);
      const res = await revoke(top.id, member.token, owner.token);
      expectStatus(res, 200);
      const details = expectShape(revokedToken, res.body);
      assert.equal(details.token_type, 'personal_access_token');
      assert.equal(details.id, member.tokenId);
      assert.equal(details.revoked, true);
      assert.equal(details.active, false);
      expectStatus(await api('/user', { token: member.token }), 401);
      const again = await revoke(top.id, member.token, owner.token);
      expectStatus(again, 200);
      assert.equal(again.body.revoked, true);
    });
    it('revokes a token of someone who is only a member of a project in the tree', async () => {
      const { top, sub, owner } = await tree();
      const project = await buildProject(sub.id);
      const dev = await buildUser();
      await addMember('projects', project.id, dev.user.id, 30);
      expectStatus(await revoke(top.id, dev.token, owner.token), 200);
    });
    it('revokes a group access token of a subgroup', async () => {
      const { top, sub, owner } = await tree();
      const gat = await api(`/groups/${sub.id}/access_tokens`, { method: 'POST', token: owner.token, json: { name: 'leaky', scopes: ['api'] } });
      expectStatus(gat, 201);
      const res = await revoke(top.id, gat.body.token, owner.token);
      expectStatus(res, 200);
      assert.equal(res.body.token_type, 'group_access_token');
      expectStatus(await api(`/groups/${sub.id}`, { token: gat.body.token }), 401);
    });
    it('revokes a group deploy token', async () => {
      const { top, sub, owner } = await tree();
      const dt = await api(`/groups/${sub.id}/deploy_tokens`, { method: 'POST', token: owner.token, json: { name: 'ci', scopes: ['read_repository'] } });
      expectStatus(dt, 201);
      const res = await revoke(top.id, dt.body.token, owner.token);
      expectStatus(res, 200);
      assert.equal(res.body.token_type, 'deploy_token');
      assert.equal(res.body.username, dt.body.username);
      assert.equal((await api(`/groups/${sub.id}/deploy_tokens/${dt.body.id}`, { token: owner.token })).body.revoked, true);
    });
    it('revokes a member’s feed token', async () => {
      const { top, owner } = await tree();
      const member = await userWithRole(top.id, 20);
      const feed = await api('/user/feed_token', { method: 'POST', token: member.token });
      expectStatus(feed, 201);
      assert.match(feed.body.token, /^gtft-/);
      const res = await revoke(top.id, feed.body.token, owner.token);
      expectStatus(res, 200);
      assert.equal(res.body.token_type, 'feed_token');
    });
  });

  describe('credentials it must not touch', () => {
    it('answers 404 for a token without access to the tree, and for an unknown one, revoking nothing', async () => {
      const { top, owner } = await tree();
      const outsider = await buildUser();
      expectStatus(await revoke(top.id, outsider.token, owner.token), 404);
      expectStatus(await api('/user', { token: outsider.token }), 200);
      expectStatus(await revoke(top.id, 'gtpat-not-a-real-token', owner.token), 404);
    });
    it('answers 400 on a subgroup, 403 to a Maintainer, 401 without a token, 400 without the token parameter', async () => {
      const { top, sub, owner } = await tree();
      const member = await userWithRole(top.id, 30);
      expectStatus(await revoke(sub.id, member.token, owner.token), 400);
      const maintainer = await userWithRole(top.id, 40);
      expectStatus(await revoke(top.id, member.token, maintainer.token), 403);
      expectStatus(await api(`/groups/${top.id}/tokens/revoke`, { method: 'POST', token: null, json: { token: member.token } }), 401);
      const missing = await api(`/groups/${top.id}/tokens/revoke`, { method: 'POST', token: owner.token, json: {} });
      expectStatus(missing, 400);
      assert.deepEqual(missing.body, { message: 'token is missing' });
      expectStatus(await api('/user', { token: member.token }), 200);
    });
    it('answers 404 while the instance setting (the feature flag) is off', async () => {
      const { top, owner } = await tree();
      const member = await userWithRole(top.id, 30);
      expectStatus(await api('/application/settings', { method: 'PUT', json: { group_token_revocation_enabled: false } }), 200);
      try {
        expectStatus(await revoke(top.id, member.token, owner.token), 404);
        expectStatus(await api('/user', { token: member.token }), 200);
      } finally {
        await api('/application/settings', { method: 'PUT', json: { group_token_revocation_enabled: true } });
      }
    });
  });
});

describe('/groups/:id/deploy_tokens', () => {
  it('creates (plaintext once), lists, reads and revokes deploy tokens for a Maintainer', async () => {
    const group = await buildGroup();
    const maintainer = await userWithRole(group.id, 40);
    const created = await api(`/groups/${group.id}/deploy_tokens`, {
      method: 'POST',
      token: maintainer.token,
      json: { name: 'registry', scopes: ['read_registry', 'write_registry'], expires_at: '2099-01-01', username: 'robot' },
    });
    expectStatus(created, 201);
    const t = expectShape(deployTokenWithToken, created.body);
    expectPlatformSchema('public_api/v4/deploy_token.json', created.body);
    assert.equal(t.username, 'robot');
    assert.match(t.token, /^gtdt-/);
    const list = await api(`/groups/${group.id}/deploy_tokens`, { token: maintainer.token });
    expectStatus(list, 200);
    assert.deepEqual(list.body.map((x: { id: number }) => x.id), [t.id]);
    expectShape(deployToken, list.body[0]);
    assert.ok(!('token' in list.body[0]));
    const def = await api(`/groups/${group.id}/deploy_tokens`, { method: 'POST', token: maintainer.token, json: { name: 'default', scopes: ['read_repository'] } });
    assert.equal(def.body.username, `gatehouse+deploy-token-${def.body.id}`);
    expectStatus(await api(`/groups/${group.id}/deploy_tokens/${t.id}`, { method: 'DELETE', token: maintainer.token }), 204);
    assert.deepEqual((await api(`/groups/${group.id}/deploy_tokens?active=true`, { token: maintainer.token })).body.map((x: { id: number }) => x.id), [def.body.id]);
  });
  it('refuses bad input (400), a Developer (403) and unknown tokens (404)', async () => {
    const group = await buildGroup();
    const dev = await userWithRole(group.id, 30);
    for (const body of [{ name: 'x', scopes: ['api'] }, { scopes: ['read_repository'] }, { name: 'x', scopes: [] }, { name: 'x', scopes: ['read_repository'], expires_at: '2001-01-01' }]) {
      expectStatus(await api(`/groups/${group.id}/deploy_tokens`, { method: 'POST', json: body }), 400);
    }
    assert.deepEqual((await api(`/groups/${group.id}/deploy_tokens`)).body, []);
    expectStatus(await api(`/groups/${group.id}/deploy_tokens`, { token: dev.token }), 403);
    expectStatus(await api(`/groups/${group.id}/deploy_tokens/4242`), 404);
  });
});

describe('/application/settings', () => {
  it('is read and changed by an administrator only', async () => {
    const res = await api('/application/settings');
    expectStatus(res, 200);
    const settings = expectShape(applicationSettings, res.body);
    assert.equal(settings.allow_local_requests_from_web_hooks_and_services, false);
    const changed = await api('/application/settings', { method: 'PUT', form: { allow_local_requests_from_web_hooks_and_services: 'true' } });
    expectStatus(changed, 200);
    assert.equal(changed.body.allow_local_requests_from_web_hooks_and_services, true);
    assert.equal((await api('/application/settings')).body.allow_local_requests_from_web_hooks_and_services, true);
    const u = await buildUser();
    expectStatus(await api('/application/settings', { token: u.token }), 403);
    expectStatus(await api('/application/settings', { method: 'PUT', token: u.token, json: { group_token_revocation_enabled: false } }), 403);
    expectStatus(await api('/application/settings', { method: 'PUT', json: { group_token_revocation_enabled: 'perhaps' } }), 400);
    expectStatus(await api('/application/settings', { method: 'PUT', json: {} }), 400);
    assert.equal((await api('/application/settings')).body.group_token_revocation_enabled, true);
  });
});
