import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { projectPushRule } from '../../../shared/src/project-push-rules.ts';
import { groupPushRule } from '../../../shared/src/group-push-rules.ts';
import { buildGroup, buildProject, expectShape, expectStatus, request as api, startTestServer, userWithRole, type TestServer } from '../../test/harness.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

async function setup() {
  const group = await buildGroup();
  const project = await buildProject(group.id);
  const maintainer = await userWithRole(group.id, 40);
  return { group, project, maintainer, path: `/projects/${project.id}/push_rule` };
}

/** The project variant's answer when there is no rule: 200 with the literal null (the group variant's is 404). */
async function expectNoRule(path: string, token: string) {
  const res = await api(path, { token });
  expectStatus(res, 200);
  assert.equal(res.text, 'null');
  assert.equal(res.headers.get('content-type'), 'application/json');
}

describe('GET /projects/:id/push_rule', () => {
  it('answers 200 with the literal null when the project has none (unlike the group variant’s 404)', async () => {
    const { group, path, maintainer } = await setup();
    await expectNoRule(path, maintainer.token);
    expectStatus(await api(`/groups/${group.id}/push_rule`), 404);
  });
  it('still answers 403 to a Developer and 404 for an unknown project', async () => {
    const { group, path } = await setup();
    const developer = await userWithRole(group.id, 30);
    expectStatus(await api(path, { token: developer.token }), 403);
    const missing = await api('/projects/987654321/push_rule');
    expectStatus(missing, 404);
    assert.deepEqual(missing.body, { message: '404 Project Not Found' });
  });
});

describe('POST, PUT and DELETE /projects/:id/push_rule', () => {
  it('a Maintainer creates, changes and removes the project’s rule; a second POST is 422', async () => {
    const { path, project, maintainer } = await setup();
    const created = await api(path, { method: 'POST', token: maintainer.token, json: { commit_message_regex: '^feat: ', reject_non_dco_commits: true, max_file_size: 3 } });
    expectStatus(created, 201);
    const rule = expectShape(projectPushRule, created.body);
    assert.equal(rule.project_id, project.id);
    assert.equal(rule.commit_message_regex, '^feat: ');
    assert.equal(rule.reject_non_dco_commits, true);
    assert.equal(rule.reject_unsigned_commits, null);
    assert.equal(rule.max_file_size, 3);
    const again = await api(path, { method: 'POST', token: maintainer.token, json: { member_check: true } });
    expectStatus(again, 422);
    assert.deepEqual(again.body, { message: 'Project push rule exists' });
    const changed = await api(path, { method: 'PUT', token: maintainer.token, form: { member_check: 'true', commit_message_regex: '' } });
    expectStatus(changed, 200);
    assert.equal(changed.body.member_check, true);
    assert.equal(changed.body.commit_message_regex, '');
    assert.equal(changed.body.max_file_size, 3, 'fields not sent are kept');
    expectStatus(await api(path, { method: 'DELETE', token: maintainer.token }), 204);
    await expectNoRule(path, maintainer.token);
    expectStatus(await api(path, { method: 'DELETE', token: maintainer.token }), 404);
    expectStatus(await api(path, { method: 'PUT', token: maintainer.token, json: { member_check: true } }), 404);
  });

  it('refuses a Developer (403), a pattern RE2 refuses (400), and changes nothing', async () => {
    const { group, path, maintainer } = await setup();
    const developer = await userWithRole(group.id, 30);
    expectStatus(await api(path, { method: 'POST', token: developer.token, json: { member_check: true } }), 403);
    expectStatus(await api(path, { token: developer.token }), 403);
    const bad = await api(path, { method: 'POST', token: maintainer.token, json: { branch_name_regex: '(?!main)' } });
    expectStatus(bad, 400);
    assert.ok(bad.body.message.branch_name_regex, JSON.stringify(bad.body));
    await expectNoRule(path, maintainer.token);
  });
});

describe('a new project and its group’s push rule', () => {
  it('starts with a copy of the nearest group’s rule; later changes stay apart', async () => {
    const parent = await buildGroup();
    const child = await buildGroup({ parent_id: parent.id });
    expectStatus(await api(`/groups/${parent.id}/push_rule`, { method: 'POST', json: { commit_message_regex: '^parent', deny_delete_tag: true } }), 201);
    const project = await buildProject(child.id);
    const copied = expectShape(projectPushRule, (await api(`/projects/${project.id}/push_rule`)).body);
    assert.equal(copied.commit_message_regex, '^parent');
    assert.equal(copied.deny_delete_tag, true);
    assert.equal(copied.project_id, project.id);
    expectStatus(await api(`/groups/${child.id}/push_rule`, { method: 'POST', json: { commit_message_regex: '^child' } }), 201);
    assert.equal((await api(`/projects/${(await buildProject(child.id)).id}/push_rule`)).body.commit_message_regex, '^child', 'the nearest group wins');
    expectStatus(await api(`/projects/${project.id}/push_rule`, { method: 'PUT', json: { commit_message_regex: '^mine' } }), 200);
    const parentRule = expectShape(groupPushRule, (await api(`/groups/${parent.id}/push_rule`)).body);
    assert.equal(parentRule.commit_message_regex, '^parent');
    // A project created before the group had a rule keeps none.
    const bare = await buildGroup();
    const early = await buildProject(bare.id);
    expectStatus(await api(`/groups/${bare.id}/push_rule`, { method: 'POST', json: { member_check: true } }), 201);
    await expectNoRule(`/projects/${early.id}/push_rule`, server.rootToken);
  });
});
