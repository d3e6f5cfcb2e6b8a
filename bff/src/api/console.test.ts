import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { abilities } from '../../../shared/src/session.ts';
import { addMember, buildGroup, buildProject, buildUser, expectShape, expectStatus, request as api, startTestServer, userWithRole, type TestServer } from '../../test/harness.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

const ask = async (path: string, token: string | null) => api(`/api/console${path}`, { token });

describe('GET /api/console/groups/:id/abilities', () => {
  it('says what each role may do, as the permission rules decide', async () => {
    const group = await buildGroup();
    const cases: [number, Record<string, boolean>][] = [
      [50, { read_group: true, admin_group: true, admin_hooks: true, admin_members: true, revoke_group_tokens: true }],
      [40, { read_group: true, admin_group: false, admin_hooks: false, admin_members: true, revoke_group_tokens: false }],
      [30, { read_group: true, admin_group: false, admin_hooks: false, admin_members: false }],
      [10, { read_group: true, read_members: true, admin_members: false }],
    ];
    for (const [level, expected] of cases) {
      const u = await userWithRole(group.id, level);
      const res = await ask(`/groups/${group.id}/abilities`, u.token);
      expectStatus(res, 200);
      const body = expectShape(abilities, res.body);
      assert.equal(body.access_level, level);
      for (const [action, can] of Object.entries(expected)) assert.equal(body.abilities[action], can, `${action} at ${level}`);
    }
    const admin = await ask(`/groups/${encodeURIComponent(group.full_path)}/abilities`, server.rootToken);
    assert.ok(Object.values(admin.body.abilities).every(Boolean), 'an administrator may do everything');
  });
  it('answers 404 for a group the caller cannot read, or that does not exist, and 401 anonymously', async () => {
    const group = await buildGroup();
    const outsider = await buildUser();
    expectStatus(await ask(`/groups/${group.id}/abilities`, outsider.token), 404);
    expectStatus(await ask('/groups/999999/abilities', server.rootToken), 404);
    expectStatus(await ask(`/groups/${group.id}/abilities`, null), 401);
  });
});

describe('GET /api/console/projects/:id/abilities', () => {
  it('lets a project Maintainer manage its hooks, not a Developer', async () => {
    const group = await buildGroup();
    const project = await buildProject(group.id);
    const maintainer = await buildUser();
    const developer = await buildUser();
    await addMember('projects', project.id, maintainer.user.id, 40);
    await addMember('projects', project.id, developer.user.id, 30);
    assert.equal((await ask(`/projects/${project.id}/abilities`, maintainer.token)).body.abilities.admin_hooks, true);
    assert.equal((await ask(`/projects/${project.id}/abilities`, developer.token)).body.abilities.admin_hooks, false);
    expectStatus(await ask(`/projects/${project.id}/abilities`, (await buildUser()).token), 404);
  });
});

describe('GET /api/console/projects/:id/registry', () => {
  it('says no registry is connected (null host and prefix) when GATEHOUSE_REGISTRY_URL is unset; 404 for a non-member', async () => {
    const project = await buildProject((await buildGroup()).id);
    const res = await ask(`/projects/${project.id}/registry`, server.rootToken);
    expectStatus(res, 200);
    assert.deepEqual(res.body, { host: null, image_prefix: null });
    expectStatus(await ask(`/projects/${project.id}/registry`, (await buildUser()).token), 404);
  });
});
