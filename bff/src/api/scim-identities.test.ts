import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { scimIdentity, scimTokenWithToken } from '../../../shared/src/scim-identities.ts';
import { buildGroup, expectShape, expectStatus, request as api, startTestServer, userWithRole, type TestServer, scimUserBody } from '../../test/harness.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

/** A group with an Owner and a SCIM token, and a client that calls its SCIM endpoint like an identity provider. */
async function provisioned() {
  const group = await buildGroup();
  const owner = await userWithRole(group.id, 50);
  const made = await api(`/groups/${group.id}/scim/token`, { method: 'POST', token: owner.token });
  expectStatus(made, 201);
  const { token, scim_api_url } = expectShape(scimTokenWithToken, made.body);
  const idp = (path: string, init: { method?: string; body?: unknown; token?: string } = {}) =>
    api(`${scim_api_url}${path}`, { method: init.method ?? 'GET', token: null, headers: { Authorization: `Bearer ${init.token ?? token}` }, json: init.body });
  return { group, owner, token, idp };
}


describe('SCIM provisioning /api/scim/v2/groups/:group_path/Users', () => {
  it('creates a user, gives them the Guest role, and finds them by filter', async () => {
    const { group, owner, idp } = await provisioned();
    const created = await idp('/Users', { method: 'POST', body: scimUserBody('jane') });
    expectStatus(created, 201);
    assert.equal(created.body.id, 'ext-jane');
    assert.equal(created.body.active, true);
    assert.equal(created.body.userName, 'jane');
    const members = await api(`/groups/${group.id}/members`, { token: owner.token });
    const jane = members.body.find((m: { username: string }) => m.username === 'jane');
    assert.equal(jane.access_level, 10);
    const found = await idp(`/Users?filter=${encodeURIComponent('userName eq "jane"')}`);
    expectStatus(found, 200);
    assert.equal(found.body.totalResults, 1);
    assert.equal(found.body.Resources[0].externalId, 'ext-jane');
    const none = await idp(`/Users?filter=${encodeURIComponent('userName eq "nobody"')}`);
    assert.equal(none.body.totalResults, 0);
    expectStatus(await idp('/Users/ext-jane'), 200);
  });
  it('deprovisions with PATCH active=false (membership removed) and provisions again with true', async () => {
    const { group, owner, idp } = await provisioned();
    await idp('/Users', { method: 'POST', body: scimUserBody('max') });
    const off = await idp('/Users/ext-max', { method: 'PATCH', body: { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'Replace', path: 'active', value: 'False' }] } });
    expectStatus(off, 200);
    assert.equal(off.body.active, false);
    const members = async () => (await api(`/groups/${group.id}/members`, { token: owner.token })).body.map((m: { username: string }) => m.username);
    assert.ok(!(await members()).includes('max'));
    const identities = await api(`/groups/${group.id}/scim/identities`, { token: owner.token });
    assert.equal(identities.body.find((i: { extern_uid: string }) => i.extern_uid === 'ext-max').active, false);
    const on = await idp('/Users/ext-max', { method: 'PATCH', body: { Operations: [{ op: 'replace', value: { active: true } }] } });
    expectStatus(on, 200);
    assert.ok((await members()).includes('max'));
  });
  it('deletes a user’s identity and membership', async () => {
    const { group, owner, idp } = await provisioned();
    await idp('/Users', { method: 'POST', body: scimUserBody('del') });
    expectStatus(await idp('/Users/ext-del', { method: 'DELETE' }), 204);
    expectStatus(await idp('/Users/ext-del'), 404);
    expectStatus(await api(`/groups/${group.id}/scim/ext-del`, { token: owner.token }), 404);
  });
  it('answers in SCIM’s error format: 401 bad token, 409 duplicate, 400 bad body or filter, 404 unknown', async () => {
    const { idp } = await provisioned();
    const bad = await idp('/Users', { token: 'gtscim-wrong' });
    expectStatus(bad, 401);
    assert.deepEqual(bad.body.schemas, ['urn:ietf:params:scim:api:messages:2.0:Error']);
    assert.equal(bad.body.status, '401');
    await idp('/Users', { method: 'POST', body: scimUserBody('dup') });
    const dup = await idp('/Users', { method: 'POST', body: scimUserBody('dup') });
    expectStatus(dup, 409);
    assert.equal(dup.body.scimType, 'uniqueness');
    expectStatus(await idp('/Users', { method: 'POST', body: { userName: 'x' } }), 400);
    expectStatus(await idp(`/Users?filter=${encodeURIComponent('name co "x"')}`), 400);
    expectStatus(await idp('/Users/ext-unknown'), 404);
  });
  it('accepts the application/scim+json bodies identity providers send', async () => {
    const { token, group } = await provisioned();
    const res = await fetch(`${server.url}/api/scim/v2/groups/${encodeURIComponent(group.full_path)}/Users`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/scim+json' },
      body: JSON.stringify(scimUserBody('scimjson')),
    });
    assert.equal(res.status, 201);
    assert.match(res.headers.get('content-type') ?? '', /application\/scim\+json/);
  });
  it('refuses another group’s token', async () => {
    const a = await provisioned();
    const b = await provisioned();
    expectStatus(await a.idp('/Users', { token: b.token }), 401);
  });
});

describe('GET /groups/:id/scim/identities and /groups/:id/scim/:uid', () => {
  it('list and read identities for an Owner, and refuse a Maintainer', async () => {
    const { group, owner, idp } = await provisioned();
    await idp('/Users', { method: 'POST', body: scimUserBody('ann') });
    const list = await api(`/groups/${group.id}/scim/identities`, { token: owner.token });
    expectStatus(list, 200);
    const [identity] = expectShape(z.array(scimIdentity), list.body);
    assert.equal(identity.extern_uid, 'ext-ann');
    assert.equal(identity.active, true);
    expectShape(scimIdentity, (await api(`/groups/${group.id}/scim/ext-ann`, { token: owner.token })).body);
    const maintainer = await userWithRole(group.id, 40);
    expectStatus(await api(`/groups/${group.id}/scim/identities`, { token: maintainer.token }), 403);
    expectStatus(await api(`/groups/${group.id}/scim/nobody`, { token: owner.token }), 404);
  });
});

describe('PATCH /groups/:id/scim/:uid', () => {
  it('changes the external UID; a taken one or a missing one answers 400 and changes nothing', async () => {
    const { group, owner, idp } = await provisioned();
    await idp('/Users', { method: 'POST', body: scimUserBody('bo') });
    await idp('/Users', { method: 'POST', body: scimUserBody('cy') });
    const res = await api(`/groups/${group.id}/scim/ext-bo`, { method: 'PATCH', token: owner.token, form: { extern_uid: 'ext-bo-2' } });
    expectStatus(res, 200);
    assert.equal(res.body.extern_uid, 'ext-bo-2');
    const taken = await api(`/groups/${group.id}/scim/ext-bo-2`, { method: 'PATCH', token: owner.token, json: { extern_uid: 'ext-cy' } });
    expectStatus(taken, 400);
    assert.deepEqual(taken.body.message.extern_uid, ['has already been taken']);
    const missing = await api(`/groups/${group.id}/scim/ext-bo-2`, { method: 'PATCH', token: owner.token, json: {} });
    expectStatus(missing, 400);
    assert.deepEqual(missing.body, { message: 'extern_uid is missing' });
    expectStatus(await api(`/groups/${group.id}/scim/ext-bo-2`, { token: owner.token }), 200);
  });
});

describe('DELETE /groups/:id/scim/:uid', () => {
  it('deletes the identity (204) and answers 404 after', async () => {
    const { group, owner, idp } = await provisioned();
    await idp('/Users', { method: 'POST', body: scimUserBody('dee') });
    expectStatus(await api(`/groups/${group.id}/scim/ext-dee`, { method: 'DELETE', token: owner.token }), 204);
    expectStatus(await api(`/groups/${group.id}/scim/ext-dee`, { method: 'DELETE', token: owner.token }), 404);
  });
});

describe('the group SCIM token', () => {
  it('is shown once, replaced on reset, and managed by Owners only', async () => {
    const { group, owner, token, idp } = await provisioned();
    const info = await api(`/groups/${group.id}/scim/token`, { token: owner.token });
    expectStatus(info, 200);
    assert.ok(!('token' in info.body));
    await api(`/groups/${group.id}/scim/token`, { method: 'POST', token: owner.token });
    expectStatus(await idp('/Users', { token }), 401);
    const dev = await userWithRole(group.id, 30);
    expectStatus(await api(`/groups/${group.id}/scim/token`, { method: 'POST', token: dev.token }), 403);
  });
});
