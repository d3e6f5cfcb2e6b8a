import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { customAttribute } from '../../../shared/src/custom-attributes.ts';
import { buildGroup, buildProject, buildUser, expectShape, expectStatus, request as api, startTestServer, userWithRole, type TestServer } from '../../test/harness.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

const makers = {
  users: async () => (await buildUser()).user.id,
  groups: async () => (await buildGroup({ visibility: 'public' })).id,
  projects: async () => (await buildProject((await buildGroup({ visibility: 'public' })).id, { visibility: 'public' })).id,
};
const NOT_FOUND = { users: '404 User Not Found', groups: '404 Group Not Found', projects: '404 Project Not Found' };

for (const resource of ['users', 'groups', 'projects'] as const) {
  describe(`/${resource}/:id/custom_attributes`, () => {
    describe('as an administrator', () => {
      it('creates, updates, reads, lists and deletes attributes', async () => {
        const id = await makers[resource]();
        const base = `/${resource}/${id}/custom_attributes`;
        expectShape(customAttribute, (await api(`${base}/team`, { method: 'PUT', json: { value: 'red' } })).body);
        const updated = await api(`${base}/team`, { method: 'PUT', form: { value: 'blue' } });
        expectStatus(updated, 200);
        assert.deepEqual(updated.body, { key: 'team', value: 'blue' });
        await api(`${base}/cost%20center`, { method: 'PUT', json: { value: '42' } });
        const list = await api(base);
        expectStatus(list, 200);
        assert.deepEqual(expectShape(z.array(customAttribute), list.body), [
          { key: 'cost center', value: '42' },
          { key: 'team', value: 'blue' },
        ]);
        assert.deepEqual((await api(`${base}/team`)).body, { key: 'team', value: 'blue' });
        const del = await api(`${base}/team`, { method: 'DELETE' });
        expectStatus(del, 204);
        expectStatus(await api(`${base}/team`), 404);
        expectStatus(await api(`${base}/team`, { method: 'DELETE' }), 404);
      });
      it('answers 400 without a value, or with one over 255 characters, changing nothing', async () => {
        const id = await makers[resource]();
        const base = `/${resource}/${id}/custom_attributes`;
        const missing = await api(`${base}/k`, { method: 'PUT', json: {} });
        expectStatus(missing, 400);
        assert.deepEqual(missing.body, { message: 'value is missing' });
        expectStatus(await api(`${base}/k`, { method: 'PUT', json: { value: 'v'.repeat(256) } }), 400);
        assert.deepEqual((await api(base)).body, []);
      });
      it(`answers ${NOT_FOUND[resource]} for an unknown ${resource.slice(0, -1)}`, async () => {
        const res = await api(`/${resource}/987654/custom_attributes`);
        expectStatus(res, 404);
        assert.deepEqual(res.body, { message: NOT_FOUND[resource] });
      });
    });
    describe('without the role', () => {
      it('answers 403 to a non-administrator (even an Owner) and 401 without a token', async () => {
        const id = await makers[resource]();
        const u = resource === 'groups' ? await userWithRole(id, 50) : await buildUser();
        expectStatus(await api(`/${resource}/${id}/custom_attributes`, { token: u.token }), 403);
        expectStatus(await api(`/${resource}/${id}/custom_attributes/k`, { method: 'PUT', token: u.token, json: { value: 'x' } }), 403);
        expectStatus(await api(`/${resource}/${id}/custom_attributes`, { token: null }), 401);
        assert.deepEqual((await api(`/${resource}/${id}/custom_attributes`)).body, []);
      });
    });
  });
}

describe('with_custom_attributes and the custom_attributes filter', () => {
  it('add attributes to users for administrators', async () => {
    const u = await buildUser();
    await api(`/users/${u.user.id}/custom_attributes/dept`, { method: 'PUT', json: { value: 'ops' } });
    const one = await api(`/users/${u.user.id}?with_custom_attributes=true`);
    assert.deepEqual(one.body.custom_attributes, [{ key: 'dept', value: 'ops' }]);
    const asUser = await api(`/users/${u.user.id}?with_custom_attributes=true`, { token: u.token });
    assert.ok(!('custom_attributes' in asUser.body));
  });
  it('filter groups by attribute for administrators', async () => {
    const g = await buildGroup({ visibility: 'public' });
    await api(`/groups/${g.id}/custom_attributes/tier`, { method: 'PUT', json: { value: 'gold' } });
    const res = await api('/groups?custom_attributes[tier]=gold&with_custom_attributes=true');
    assert.deepEqual(res.body.map((x: { id: number }) => x.id), [g.id]);
  });
});
