import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { consoleFeature, feature, featureDefinition, FEATURE_DEFINITIONS } from '../../../shared/src/features.ts';
import { buildGroup, buildProject, buildUser, expectShape, expectStatus, request as api, startTestServer, userWithRole, type TestServer } from '../../test/harness.ts';
import { startReceiver, type Receiver } from '../../test/receiver.ts';

let server: TestServer;
let receiver: Receiver;
before(async () => {
  server = await startTestServer();
  receiver = await startReceiver();
});
after(async () => {
  await receiver.close();
  await server.close();
});
// Each test starts from flags at their defaults (the Features API's own DELETE resets them).
beforeEach(async () => {
  for (const f of (await api('/features')).body as { name: string }[]) expectStatus(await api(`/features/${f.name}`, { method: 'DELETE' }), 204);
});

const PDF = 'vulnerabilities_pdf_export';
const set = (name: string, body: Record<string, unknown>, token?: string) => api(`/features/${name}`, { method: 'POST', json: body, token });
const listed = async () => expectShape(z.array(feature), (await api('/features')).body);
const definitionOf = (name: string) => FEATURE_DEFINITIONS.find((d) => d.name === name);

describe('GET /features/definitions', () => {
  it('lists every flag Gatehouse reads with the platform’s definition fields and the default that applies', async () => {
    const res = await api('/features/definitions');
    expectStatus(res, 200);
    const list = expectShape(z.array(featureDefinition), res.body);
    assert.deepEqual(
      list.map((d) => d.name),
      ['group_agnostic_token_revocation', 'importer_user_mapping_reassignment_csv', PDF, 'web_hook_event_resend_api_endpoint_rate_limit'],
    );
    assert.deepEqual(list.find((d) => d.name === 'web_hook_event_resend_api_endpoint_rate_limit'), {
      name: 'web_hook_event_resend_api_endpoint_rate_limit',
      feature_issue_url: 'https://gitlab.com/gitlab-org/gitlab/-/issues/372826',
      introduced_by_url: 'https://gitlab.com/gitlab-org/gitlab/-/merge_requests/151130',
      rollout_issue_url: null,
      milestone: '17.4',
      log_state_changes: null,
      type: 'ops',
      group: 'group::import',
      default_enabled: true,
    });
    assert.equal(list.find((d) => d.name === PDF)!.default_enabled, false, 'GATEHOUSE_VULNERABILITIES_PDF_EXPORT is not set here');
  });
  it('is for administrators only', async () => {
    const user = await buildUser();
    expectStatus(await api('/features/definitions', { token: user.token }), 403);
    expectStatus(await api('/features/definitions', { token: null }), 401);
  });
});

describe('POST /features/:name', () => {
  describe('as an administrator, for everyone', () => {
    it('turns a flag on (201, state on, the boolean gate) and off, from JSON or form values', async () => {
      const on = await set(PDF, { value: true });
      expectStatus(on, 201);
      const shown = expectShape(feature, on.body);
      assert.equal(shown.state, 'on');
      assert.deepEqual(shown.gates, [{ key: 'boolean', value: true }]);
      assert.equal(shown.definition?.name, PDF);
      assert.equal(shown.definition?.default_enabled, false);
      const off = await api(`/features/${PDF}`, { method: 'POST', form: { value: 'false' } });
      expectStatus(off, 201);
      assert.deepEqual([off.body.state, off.body.gates], ['off', [{ key: 'boolean', value: false }]]);
      // 100 and 0 are on and off too.
      assert.equal((await set(PDF, { value: 100 })).body.state, 'on');
      assert.equal((await set(PDF, { value: '0' })).body.state, 'off');
    });
    it('sets a percentage of time (a number), or of actors with key=percentage_of_actors; on for everyone clears them', async () => {
      const time = await set(PDF, { value: 30 });
      expectStatus(time, 201);
      assert.deepEqual([time.body.state, time.body.gates], ['conditional', [{ key: 'boolean', value: false }, { key: 'percentage_of_time', value: 30 }]]);
      const actors = await set(PDF, { value: '42.5', key: 'percentage_of_actors' });
      assert.deepEqual(actors.body.gates, [
        { key: 'boolean', value: false },
        { key: 'percentage_of_actors', value: 42.5 },
        { key: 'percentage_of_time', value: 30 },
      ]);
      assert.deepEqual((await set(PDF, { value: 'true' })).body.gates, [{ key: 'boolean', value: true }]);
      const refused = await set(PDF, { value: 50 });
      expectStatus(refused, 400);
      assert.deepEqual(refused.body, { message: '400 Bad request - Cannot enable percentage of time for a fully-enabled flag' });
    });
  });

  it('is reached at /features//:name, as python-gitlab calls it: repeated slashes count as one, as behind the platform’s nginx', async () => {
    const res = await api(`/features//${PDF}`, { method: 'POST', json: { value: true } });
    expectStatus(res, 201);
    assert.equal(res.body.state, 'on');
    expectStatus(await api(`//features///${PDF}`, { method: 'DELETE' }), 204);
    assert.deepEqual(await listed(), []);
  });

  describe('as an administrator, for users, groups and projects', () => {
    it('adds and removes actor gates by username and full path, several at once, without touching the boolean gate', async () => {
      const group = await buildGroup();
      const project = await buildProject(group.id);
      const alice = await buildUser();
      const bob = await buildUser();
      const projectPath = (await api(`/projects/${project.id}`)).body.path_with_namespace;
      const res = await set(PDF, { value: 'true', user: `${alice.user.username},${bob.user.username}`, group: group.full_path, project: projectPath });
      expectStatus(res, 201);
      const shown = expectShape(feature, res.body);
      assert.equal(shown.state, 'conditional');
      assert.deepEqual(shown.gates[0], { key: 'boolean', value: false });
      assert.deepEqual(new Set((shown.gates[1] as { value: string[] }).value), new Set([`User:${alice.user.id}`, `User:${bob.user.id}`, `Project:${project.id}`, `Group:${group.id}`]));
      // A namespace is a group here; naming the same actor twice adds it once.
      assert.equal((await set(PDF, { value: true, namespace: group.full_path.toUpperCase() })).body.gates[1].value.length, 4);
      const less = await set(PDF, { value: false, user: bob.user.username, project: projectPath });
      assert.deepEqual(less.body.gates, [
        { key: 'boolean', value: false },
        { key: 'actors', value: [`User:${alice.user.id}`, `Group:${group.id}`] },
      ]);
      // Off for everyone clears every gate, as Flipper does.
      assert.deepEqual((await set(PDF, { value: false })).body.gates, [{ key: 'boolean', value: false }]);
    });
    it('keeps an opt-out, refuses to enable an opted-out actor, and removes an opt-out only where there is one', async () => {
      const group = await buildGroup();
      await set(PDF, { value: true });
      const out = await set(PDF, { value: 'opt_out', group: group.full_path });
      expectStatus(out, 201);
      assert.deepEqual([out.body.state, out.body.gates], ['on', [{ key: 'boolean', value: true }, { key: 'actors', value: [`Group:${group.id}:opt_out`] }]]);
      const enable = await set(PDF, { value: true, group: group.full_path });
      expectStatus(enable, 400);
      assert.deepEqual(enable.body, { message: `400 Bad request - Opt-out exists for @${group.full_path} - remove opt-out before enabling` });
      expectStatus(await set(PDF, { value: 'remove_opt_out', group: group.full_path }), 201);
      const again = await set(PDF, { value: 'remove_opt_out', group: group.full_path });
      expectStatus(again, 400);
      assert.deepEqual(again.body, { message: `400 Bad request - No opt-out exists for Group:${group.id}` });
    });
  });

  describe('with invalid parameters', () => {
    it('answers 400 with the platform’s message and changes nothing', async () => {
      const user = await buildUser();
      const cases: [Record<string, unknown>, string | Record<string, string[]>][] = [
        [{}, 'value is missing'],
        [{ value: 'maybe' }, `400 Bad request - Cannot set '${PDF}' to "maybe"`],
        [{ value: 'maybe', key: 'percentage_of_time' }, '400 Bad request - Not a percentage'],
        [{ value: '30', key: 'everything' }, `400 Bad request - Cannot set '${PDF}' ("everything") to "30"`],
        [{ value: 150 }, '400 Bad request - value must be a positive number less than or equal to 100, but was 150'],
        [{ value: -5 }, `400 Bad request - Cannot set '${PDF}' to "-5"`],
        [{ value: 30, user: user.user.username }, `400 Bad request - Cannot set '${PDF}' to "30" for @${user.user.username}`],
        [{ value: true, user: `${user.user.username},nobody-at-all` }, '400 Bad request - nobody-at-all is not found!'],
        [{ value: true, project: 'no/such-project' }, '400 Bad request - no/such-project is not found!'],
        [{ value: true, group: 'no-such-group' }, '400 Bad request - no-such-group is not found!'],
        [{ value: 10, key: 'percentage_of_actors', user: user.user.username }, 'key, user are mutually exclusive'],
        [{ value: true, feature_group: 'perf_team' }, '400 Bad request - feature groups are not supported: no feature group is registered on this instance'],
        [{ value: true, repository: 'acme/web.git' }, '400 Bad request - repository gates are not supported: Gatehouse reads its flags per user, group or project'],
        [{ value: '' }, { value: ["can't be blank"] }],
        [{ value: ['true'] }, { value: ['is invalid'] }],
      ];
      for (const [body, message] of cases) {
        const res = await set(PDF, body);
        expectStatus(res, 400);
        assert.deepEqual(res.body, { message }, JSON.stringify(body));
      }
      assert.deepEqual(await listed(), [], 'no refused request set the flag');
      // Actor parameters that name nobody change nothing (the flag keeps its default).
      expectStatus(await set(PDF, { value: true, user: ' , ' }), 201);
      assert.deepEqual(await listed(), []);
    });
    it('refuses a name Gatehouse does not define unless force is sent, and a malformed name', async () => {
      const unknown = await set('no_such_flag', { value: true });
      expectStatus(unknown, 400);
      assert.match(unknown.body.message, /^400 Bad request - the feature flag 'no_such_flag' has no definition: .*send force=true/);
      assert.deepEqual(await listed(), []);
      const forced = await set('no_such_flag', { value: true, force: true });
      expectStatus(forced, 201);
      assert.deepEqual(forced.body, { name: 'no_such_flag', state: 'on', gates: [{ key: 'boolean', value: true }], definition: null });
      const malformed = await set('bad%20name', { value: true });
      expectStatus(malformed, 400);
      assert.deepEqual(malformed.body, { message: { name: ['may contain only letters, digits, _ - . and :'] } });
    });
  });

  describe('without the role', () => {
    it('answers 403 to a user who is not an administrator and 401 anonymously, and sets nothing', async () => {
      const owner = await userWithRole((await buildGroup()).id, 50);
      expectStatus(await set(PDF, { value: true }, owner.token), 403);
      expectStatus(await api(`/features/${PDF}`, { method: 'POST', json: { value: true }, token: null }), 401);
      expectStatus(await api('/features', { token: owner.token }), 403);
      expectStatus(await api(`/features/${PDF}`, { method: 'DELETE', token: owner.token }), 403);
      assert.deepEqual(await listed(), []);
    });
  });
});

describe('GET /features', () => {
  it('lists the flags that were set, by name, with gates and definitions (null without one)', async () => {
    assert.deepEqual(await listed(), []);
    await set('web_hook_event_resend_api_endpoint_rate_limit', { value: false });
    await set('an_undefined_flag', { value: 25, force: true });
    const list = await listed();
    assert.deepEqual(
      list.map((f) => [f.name, f.state, f.definition?.name ?? null]),
      [
        ['an_undefined_flag', 'conditional', null],
        ['web_hook_event_resend_api_endpoint_rate_limit', 'off', 'web_hook_event_resend_api_endpoint_rate_limit'],
      ],
    );
    // Not paginated, as on the platform.
    assert.equal((await api('/features')).headers.get('x-total'), null);
  });
});

describe('DELETE /features/:name', () => {
  it('answers 204, set or not, and the flag has its default again', async () => {
    await set(PDF, { value: true });
    expectStatus(await api(`/features/${PDF}`, { method: 'DELETE' }), 204);
    assert.deepEqual(await listed(), []);
    expectStatus(await api('/features/never_set_flag', { method: 'DELETE' }), 204);
    const project = await buildProject((await buildGroup()).id);
    expectStatus(await api(`/security/projects/${project.id}/vulnerability_exports`, { method: 'POST', json: { export_format: 'pdf' } }), 400);
  });
});

describe('the flags take effect where they are read, for the actor they are read for', () => {
  it('vulnerabilities_pdf_export: a PDF export of the project, the group or the dashboard enabled for it is taken, another refused', async () => {
    const group = await buildGroup();
    const project = await buildProject(group.id);
    const other = await buildProject(group.id);
    const dev = await userWithRole(group.id, 30);
    const pdf = (path: string) => api(path, { method: 'POST', token: dev.token, json: { export_format: 'pdf' } });
    const refused = await pdf(`/security/projects/${project.id}/vulnerability_exports`);
    expectStatus(refused, 400);
    assert.match(refused.body.message, /vulnerabilities_pdf_export/);
    const projectPath = (await api(`/projects/${project.id}`)).body.path_with_namespace;
    expectStatus(await set(PDF, { value: true, project: projectPath }), 201);
    expectStatus(await pdf(`/security/projects/${project.id}/vulnerability_exports`), 201);
    expectStatus(await pdf(`/security/projects/${other.id}/vulnerability_exports`), 400);
    expectStatus(await pdf(`/security/groups/${group.id}/vulnerability_exports`), 400);
    expectStatus(await pdf('/security/vulnerability_exports'), 400);
    await set(PDF, { value: true, group: group.full_path, user: dev.user.username });
    expectStatus(await pdf(`/security/groups/${group.id}/vulnerability_exports`), 201);
    expectStatus(await pdf('/security/vulnerability_exports'), 201);
    // The console's Exports screen is told the same, per scope.
    const offered = async (query: string) => (await api(`/api/console/exports/settings${query}`, { token: dev.token })).body.pdf_export_enabled;
    assert.deepEqual([await offered(`?project_id=${project.id}`), await offered(`?project_id=${other.id}`), await offered(`?group_id=${group.id}`), await offered('')], [true, false, true, true]);
  });

  it('group_agnostic_token_revocation: on by default; opted out for one group, that group’s revocation answers 404 while another’s works', async () => {
    const [first, second] = [await buildGroup(), await buildGroup()];
    const owner = await buildUser();
    for (const g of [first, second]) await api(`/groups/${g.id}/members`, { method: 'POST', json: { user_id: owner.user.id, access_level: 50 } });
    const leaked = [await userWithRole(first.id, 30), await userWithRole(second.id, 30)];
    // As on the platform, an opt-out takes a flag that is on for everyone: a flag set only with
    // gates for some actors is off for all others (its default no longer applies once it is set).
    await set('group_agnostic_token_revocation', { value: true });
    await set('group_agnostic_token_revocation', { value: 'opt_out', group: first.full_path });
    const revoke = (g: { id: number }, token: string) => api(`/groups/${g.id}/tokens/revoke`, { method: 'POST', token: owner.token, json: { token } });
    expectStatus(await revoke(first, leaked[0].token), 404);
    expectStatus(await api('/user', { token: leaked[0].token }), 200);
    expectStatus(await revoke(second, leaked[1].token), 200);
    expectStatus(await api('/user', { token: leaked[1].token }), 401);
  });

  it('web_hook_event_resend_api_endpoint_rate_limit: off through the Features API, resends are no longer limited', async () => {
    await api('/application/settings', { method: 'PUT', json: { allow_local_requests_from_web_hooks_and_services: true } });
    const group = await buildGroup();
    const hook = (await api(`/groups/${group.id}/hooks`, { method: 'POST', json: { url: `${receiver.url}/features` } })).body;
    await api(`/groups/${group.id}/hooks/${hook.id}/test/push_events`, { method: 'POST' });
    const [event] = (await api(`/groups/${group.id}/hooks/${hook.id}/events`)).body;
    const resend = () => api(`/groups/${group.id}/hooks/${hook.id}/events/${event.id}/resend`, { method: 'POST' });
    for (let i = 0; i < 5; i++) expectStatus(await resend(), 201);
    expectStatus(await resend(), 429);
    await set('web_hook_event_resend_api_endpoint_rate_limit', { value: false });
    expectStatus(await resend(), 201);
  });

  it('the instance settings that stood in for two flags read and write those flags', async () => {
    expectStatus(await api('/application/settings', { method: 'PUT', json: { group_token_revocation_enabled: false } }), 200);
    assert.deepEqual((await listed()).map((f) => [f.name, f.state]), [['group_agnostic_token_revocation', 'off']]);
    await set('web_hook_event_resend_api_endpoint_rate_limit', { value: false });
    const settings = (await api('/application/settings')).body;
    assert.deepEqual([settings.group_token_revocation_enabled, settings.web_hook_event_resend_api_endpoint_rate_limit], [false, false]);
  });
});

describe('GET /api/console/feature_flags', () => {
  it('shows every defined flag, set or not, with its default and its actors named; for administrators only', async () => {
    const group = await buildGroup();
    const user = await buildUser();
    await set(PDF, { value: true, group: group.full_path, user: user.user.username });
    await set(PDF, { value: 'opt_out', user: user.user.username });
    const res = await api('/api/console/feature_flags');
    expectStatus(res, 200);
    const list = expectShape(z.array(consoleFeature), res.body);
    assert.deepEqual(
      list.map((f) => f.name),
      FEATURE_DEFINITIONS.map((d) => d.name).sort(),
    );
    const pdf = list.find((f) => f.name === PDF)!;
    assert.equal(pdf.description, definitionOf(PDF)!.description);
    assert.deepEqual([pdf.persisted, pdf.state, pdf.on_for_everyone, pdf.default_from], [true, 'conditional', false, 'GATEHOUSE_VULNERABILITIES_PDF_EXPORT']);
    assert.deepEqual(pdf.actors, [
      { flipper_id: `User:${user.user.id}`, kind: 'user', label: `@${user.user.username}`, opt_out: false },
      { flipper_id: `Group:${group.id}`, kind: 'group', label: group.full_path, opt_out: false },
      { flipper_id: `User:${user.user.id}:opt_out`, kind: 'user', label: `@${user.user.username}`, opt_out: true },
    ]);
    const hooks = list.find((f) => f.name === 'web_hook_event_resend_api_endpoint_rate_limit')!;
    assert.deepEqual([hooks.persisted, hooks.state, hooks.on_for_everyone, hooks.read_for, hooks.default_from], [false, 'on', true, [], 'definition']);
    expectStatus(await api('/api/console/feature_flags', { token: user.token }), 403);
  });
});
