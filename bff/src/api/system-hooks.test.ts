import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { hookEvent, hookHealth, webhook } from '../../../shared/src/hooks.ts';
import { buildGroup, buildProject, buildUser, expectShape, expectStatus, request as api, startTestServer, type TestServer } from '../../test/harness.ts';
import { startReceiver, type Received, type Receiver } from '../../test/receiver.ts';

let server: TestServer;
let receiver: Receiver;
before(async () => {
  server = await startTestServer({ GATEHOUSE_HOOK_TIMEOUT_SECONDS: '1' });
  receiver = await startReceiver();
  expectStatus(await api('/application/settings', { method: 'PUT', json: { allow_local_requests_from_web_hooks_and_services: true } }), 200);
});
after(async () => {
  await receiver.close();
  await server.close();
});

/** The deliveries that `match`, waited for (deliveries are queued): a short poll on the receiver, no sleep. */
async function delivered(match: (r: Received) => boolean, what: string): Promise<Received[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const got = receiver.requests.filter(match);
    if (got.length) return got;
    if (Date.now() > deadline) assert.fail(`no ${what} delivered (got ${receiver.requests.map((r) => r.json?.event_name ?? r.json?.object_kind).join(', ')})`);
    await receiver.waitFor(receiver.requests.length + 1, 1_000).catch(() => undefined);
  }
}
const eventNamed = (name: string, extra: (r: Received) => boolean = () => true) => delivered((r) => r.json?.event_name === name && extra(r), name);

describe('system hooks', () => {
  it('are administered by administrators only, with the platform’s flags', async () => {
    const user = await buildUser();
    expectStatus(await api('/hooks', { token: user.token }), 403);
    expectStatus(await api('/hooks', { method: 'POST', token: user.token, json: { url: `${receiver.url}/x` } }), 403);
    const created = await api('/hooks', { method: 'POST', json: { url: `${receiver.url}/crud`, token: 's3cret', merge_requests_events: true, issues_events: true } });
    expectStatus(created, 201);
    const hook = expectShape(webhook, created.body);
    assert.equal(hook.merge_requests_events, true);
    assert.equal(hook.push_events, true, 'push events by default, as the platform');
    assert.equal('issues_events' in hook, false, 'a system hook has no issue events');
    assert.equal('token' in created.body, false);
    const changed = await api(`/hooks/${hook.id}`, { method: 'PUT', json: { tag_push_events: true } });
    expectStatus(changed, 200);
    assert.equal(changed.body.tag_push_events, true);
    expectStatus(await api(`/hooks/${hook.id}`, { method: 'PUT', json: {} }), 400);
    assert.ok((await api('/hooks')).body.some((h: { id: number }) => h.id === hook.id));
    expectStatus(await api(`/hooks/${hook.id}`, { method: 'DELETE' }), 204);
    expectStatus(await api(`/hooks/${hook.id}`), 404);
    // A group's hook is not a system hook.
    const group = await buildGroup();
    const groupHook = await api(`/groups/${group.id}/hooks`, { method: 'POST', json: { url: `${receiver.url}/group` } });
    expectStatus(groupHook, 201);
    expectStatus(await api(`/hooks/${groupHook.body.id}`), 404);
  });

  it('hear projects, groups and users come and go, and a transfer, with the System Hook header; the log and health show them', async () => {
    const created = await api('/hooks', { method: 'POST', json: { url: `${receiver.url}/system`, token: 'tok', push_events: false } });
    expectStatus(created, 201);
    const hookId = created.body.id;

    const group = await buildGroup();
    const [groupCreate] = await eventNamed('group_create', (r) => r.json.group_id === group.id);
    assert.equal(groupCreate.headers['x-gitlab-event'], 'System Hook');
    assert.equal(groupCreate.headers['x-gitlab-token'], 'tok');
    assert.equal(groupCreate.json.full_path, group.full_path);

    const project = await buildProject(group.id);
    const [projectCreate] = await eventNamed('project_create', (r) => r.json.project_id === project.id);
    assert.equal(projectCreate.json.path_with_namespace, project.path_with_namespace);

    const other = await buildGroup();
    expectStatus(await api(`/projects/${project.id}/transfer`, { method: 'PUT', json: { namespace: other.id } }), 200);
    const [transfer] = await eventNamed('project_transfer', (r) => r.json.project_id === project.id);
    assert.equal(transfer.json.old_path_with_namespace, project.path_with_namespace);
    assert.ok(transfer.json.path_with_namespace.startsWith(`${other.full_path}/`));

    const user = await api('/users', { method: 'POST', json: { username: `sys-${hookId}`, name: 'Sys Hook', email: `sys-${hookId}@example.com`, password: 'a-long-password-1' } });
    expectStatus(user, 201);
    const [userCreate] = await eventNamed('user_create', (r) => r.json.user_id === user.body.id);
    assert.equal(userCreate.json.username, `sys-${hookId}`);

    expectStatus(await api(`/projects/${project.id}`, { method: 'DELETE' }), 202);
    await eventNamed('project_destroy', (r) => r.json.project_id === project.id);
    expectStatus(await api(`/groups/${group.id}`, { method: 'DELETE' }), 202);
    await eventNamed('group_destroy', (r) => r.json.group_id === group.id);

    const events = await api(`/api/console/admin/hooks/${hookId}/events?trigger=system_hooks`);
    expectStatus(events, 200);
    const log = expectShape(z.array(hookEvent), events.body);
    assert.ok(log.length >= 6, `the log shows the deliveries (${log.length})`);
    assert.equal(log[0].request_headers['X-Gitlab-Token'], '[REDACTED]');
    const health = expectShape(z.array(hookHealth), (await api('/api/console/admin/hooks/health')).body).find((h) => h.hook_id === hookId);
    assert.ok(health && health.total !== null && health.total >= 6 && health.failed === 0, JSON.stringify(health));
    expectStatus(await api(`/api/console/admin/hooks/${hookId}/events/${log[0].id}/resend`, { method: 'POST' }), 201);
    expectStatus(await api(`/hooks/${hookId}`, { method: 'DELETE' }), 204);
  });

  it('hear pushes when they subscribe; the test sends the platform’s sample and answers it whatever the receiver says', async () => {
    const created = await api('/hooks', { method: 'POST', json: { url: `${receiver.url}/push`, push_events: true } });
    expectStatus(created, 201);
    const hookId = created.body.id;
    const project = await buildProject((await buildGroup()).id);
    expectStatus(await api(`/projects/${project.id}/repository/files/a.txt`, { method: 'POST', json: { branch: 'main', content: 'a', commit_message: 'a' } }), 201);
    const [push] = await delivered((r) => r.url === '/push' && r.json?.object_kind === 'push' && r.json.project_id === project.id, 'push');
    assert.equal(push.headers['x-gitlab-event'], 'System Hook');

    receiver.respond(500);
    const test = await api(`/hooks/${hookId}`, { method: 'POST' });
    receiver.respond(200);
    expectStatus(test, 201);
    assert.equal(test.body.event_name, 'project_create');
    const log = (await api(`/api/console/admin/hooks/${hookId}/events?status=server_failure`)).body;
    assert.equal(log.length, 1, 'the failed test is logged');
    expectStatus(await api(`/hooks/${hookId}`, { method: 'POST', token: (await buildUser()).token }), 403);
    expectStatus(await api(`/hooks/${hookId}`, { method: 'DELETE' }), 204);
  });
});
