import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { variable } from '../../../shared/src/variables.ts';
import { ACCESS_LEVELS as L } from '../../../shared/src/roles.ts';
import { buildGroup, buildProject, expectShape, expectStatus, request as api, startTestServer, userWithRole, type TestServer } from '../../test/harness.ts';

let server: TestServer;
let group: { id: number };
let project: { id: number };
let developer: Awaited<ReturnType<typeof userWithRole>>;
let maintainer: Awaited<ReturnType<typeof userWithRole>>;
let owner: Awaited<ReturnType<typeof userWithRole>>;

before(async () => {
  server = await startTestServer();
  group = await buildGroup();
  project = await buildProject(group.id);
  [developer, maintainer, owner] = await Promise.all([userWithRole(group.id, L.developer), userWithRole(group.id, L.maintainer), userWithRole(group.id, L.owner)]);
});
after(async () => {
  await server.close();
});

for (const scope of ['projects', 'groups'] as const) {
  const base = () => `/${scope}/${scope === 'groups' ? group.id : project.id}/variables`;
  /** The least role that manages them: a project's Maintainer, a group's Owner. */
  const manager = () => (scope === 'groups' ? owner : maintainer);
  const below = () => (scope === 'groups' ? maintainer : developer);

  describe(`POST/GET/PUT/DELETE /${scope}/:id/variables`, () => {
    it(`as ${scope === 'groups' ? 'an Owner' : 'a Maintainer'}: creates, lists, gets, updates and deletes with the platform's shape`, async () => {
      const made = await api(base(), { method: 'POST', token: manager().token, json: { key: 'DEPLOY_TOKEN', value: 'a secret value', description: 'For deploys' } });
      expectStatus(made, 201);
      assert.deepEqual(expectShape(variable, made.body), {
        variable_type: 'env_var',
        key: 'DEPLOY_TOKEN',
        value: 'a secret value',
        hidden: false,
        protected: false,
        masked: false,
        raw: false,
        environment_scope: '*',
        description: 'For deploys',
      });
      const list = await api(base(), { token: manager().token });
      expectStatus(list, 200);
      assert.equal(list.headers.get('x-total'), '1');
      assert.deepEqual(expectShape(z.array(variable), list.body).map((v) => v.key), ['DEPLOY_TOKEN']);
      const got = await api(`${base()}/DEPLOY_TOKEN`, { token: manager().token });
      expectStatus(got, 200);
      assert.equal(got.body.value, 'a secret value');
      // Form fields, booleans spelled as the platform coerces them.
      const changed = await api(`${base()}/DEPLOY_TOKEN`, { method: 'PUT', token: manager().token, form: { value: 'changed-value', protected: 'true', masked: '1', variable_type: 'file', key: 'IGNORED' } });
      expectStatus(changed, 200);
      assert.equal(changed.body.key, 'DEPLOY_TOKEN');
      assert.equal(changed.body.value, 'changed-value');
      assert.equal(changed.body.protected, true);
      assert.equal(changed.body.masked, true);
      assert.equal(changed.body.variable_type, 'file');
      assert.equal(changed.body.description, 'For deploys');
      expectStatus(await api(`${base()}/DEPLOY_TOKEN`, { method: 'DELETE', token: manager().token }), 204);
      const gone = await api(`${base()}/DEPLOY_TOKEN`, { token: manager().token });
      expectStatus(gone, 404);
      assert.deepEqual(gone.body, { message: '404 Variable Not Found' });
    });

    it('keeps the value encrypted in the database', async () => {
      const secret = `plain-${scope}-secret-7f3a`;
      expectStatus(await api(base(), { method: 'POST', json: { key: 'STORED', value: secret } }), 201);
      const row = await server.running.db.selectFrom('ci_variables').selectAll().where('key', '=', 'STORED').where(scope === 'groups' ? 'group_id' : 'project_id', '=', scope === 'groups' ? group.id : project.id).executeTakeFirstOrThrow();
      assert.ok(!row.encrypted_value.includes(secret), 'the value is not stored in clear');
      assert.ok(!JSON.stringify(row).includes(secret));
      assert.match(row.encrypted_value, /^v1:/);
      expectStatus(await api(`${base()}/STORED`, { method: 'DELETE' }), 204);
    });

    it('answers the role below 403, and an anonymous caller 401', async () => {
      expectStatus(await api(base(), { token: below().token }), 403);
      expectStatus(await api(base(), { method: 'POST', token: below().token, json: { key: 'NOPE', value: 'x' } }), 403);
      expectStatus(await api(base(), { token: null }), 401);
    });

    it("refuses a taken key, a bad key and an unmaskable value with the platform's 400s, writing nothing", async () => {
      expectStatus(await api(base(), { method: 'POST', json: { key: 'ONCE', value: 'v' } }), 201);
      const again = await api(base(), { method: 'POST', json: { key: 'ONCE', value: 'w' } });
      expectStatus(again, 400);
      assert.deepEqual(again.body, { message: { key: ['(ONCE) has already been taken'] } });
      const badKey = await api(base(), { method: 'POST', json: { key: 'NOT-A-KEY', value: 'v' } });
      expectStatus(badKey, 400);
      assert.deepEqual(badKey.body, { message: { key: ["can contain only letters, digits and '_'."] } });
      expectStatus(await api(base(), { method: 'POST', json: { key: 'K'.repeat(256), value: 'v' } }), 400);
      const missing = await api(base(), { method: 'POST', json: { key: 'NO_VALUE' } });
      expectStatus(missing, 400);
      for (const value of ['short', 'has spaces in it', 'bad$chars!!']) {
        const res = await api(base(), { method: 'POST', json: { key: 'MASKED', value, masked: true } });
        expectStatus(res, 400);
        assert.deepEqual(res.body, { message: { value: ['is invalid'] } });
      }
      // A raw masked value may hold any character but whitespace.
      expectStatus(await api(base(), { method: 'POST', json: { key: 'MASKED', value: 'bad$chars!!', masked: true, raw: true } }), 201);
      const unmask = await api(`${base()}/ONCE`, { method: 'PUT', json: { masked: true } });
      expectStatus(unmask, 400);
      const list = await api(base());
      assert.deepEqual(list.body.map((v: { key: string }) => v.key).sort(), ['MASKED', 'ONCE']);
      const badScope = await api(base(), { method: 'POST', json: { key: 'SCOPED', value: 'v', environment_scope: 'prod!' } });
      expectStatus(badScope, 400);
      for (const key of ['ONCE', 'MASKED']) expectStatus(await api(`${base()}/${key}`, { method: 'DELETE' }), 204);
    });

    it('holds one key in several environment scopes, picked by filter[environment_scope] (409 without)', async () => {
      expectStatus(await api(base(), { method: 'POST', json: { key: 'SCOPED', value: 'everywhere' } }), 201);
      const prod = await api(base(), { method: 'POST', json: { key: 'SCOPED', value: 'in production', environment_scope: 'production' } });
      expectStatus(prod, 201);
      assert.equal(prod.body.environment_scope, 'production');
      const both = await api(`${base()}/SCOPED`);
      expectStatus(both, 409);
      assert.deepEqual(both.body, { message: "There are multiple variables with provided parameters. Please use 'filter[environment_scope]'" });
      const one = await api(`${base()}/SCOPED?filter[environment_scope]=production`);
      expectStatus(one, 200);
      assert.equal(one.body.value, 'in production');
      const put = await api(`${base()}/SCOPED?filter%5Benvironment_scope%5D=production`, { method: 'PUT', json: { value: 'prod v2' } });
      expectStatus(put, 200);
      assert.equal(put.body.value, 'prod v2');
      const putBody = await api(`${base()}/SCOPED`, { method: 'PUT', json: { value: 'star v2', filter: { environment_scope: '*' } } });
      expectStatus(putBody, 200);
      assert.equal(putBody.body.environment_scope, '*');
      // Moving a variable onto a scope its key already holds is a taken key.
      const clash = await api(`${base()}/SCOPED?filter[environment_scope]=production`, { method: 'PUT', json: { environment_scope: '*' } });
      expectStatus(clash, 400);
      assert.deepEqual(clash.body, { message: { key: ['(SCOPED) has already been taken'] } });
      expectStatus(await api(`${base()}/SCOPED`, { method: 'DELETE' }), 409);
      expectStatus(await api(`${base()}/SCOPED?filter[environment_scope]=production`, { method: 'DELETE' }), 204);
      expectStatus(await api(`${base()}/SCOPED`, { method: 'DELETE' }), 204);
    });

    it('hides a masked_and_hidden value for good', async () => {
      const made = await api(base(), { method: 'POST', json: { key: 'HIDDEN', value: 'hidden-value-123', masked_and_hidden: true } });
      expectStatus(made, 201);
      assert.equal(made.body.value, null);
      assert.equal(made.body.hidden, true);
      assert.equal(made.body.masked, true);
      const got = await api(`${base()}/HIDDEN`);
      assert.equal(got.body.value, null);
      const tooShort = await api(base(), { method: 'POST', json: { key: 'HIDDEN_SHORT', value: 'short', masked_and_hidden: true } });
      expectStatus(tooShort, 400);
      expectStatus(await api(`${base()}/HIDDEN`, { method: 'DELETE' }), 204);
    });

    it('answers 404 for an unknown key or owner', async () => {
      expectStatus(await api(`${base()}/NO_SUCH_KEY`), 404);
      expectStatus(await api(`/${scope}/999999/variables`), 404);
    });
  });
}

describe('project and group variables', () => {
  it('are kept apart: a group variable is not one of its projects', async () => {
    expectStatus(await api(`/groups/${group.id}/variables`, { method: 'POST', json: { key: 'FROM_GROUP', value: 'g' } }), 201);
    expectStatus(await api(`/projects/${project.id}/variables/FROM_GROUP`), 404);
    expectStatus(await api(`/projects/${project.id}/variables`, { method: 'POST', json: { key: 'FROM_GROUP', value: 'p' } }), 201);
    assert.equal((await api(`/groups/${group.id}/variables/FROM_GROUP`)).body.value, 'g');
    assert.equal((await api(`/projects/${project.id}/variables/FROM_GROUP`)).body.value, 'p');
  });
});
