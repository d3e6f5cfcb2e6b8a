import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { hookEvent, webhook } from '../../../shared/src/hooks.ts';
import { addMember, buildGroup, buildProject, buildUser, expectShape, expectStatus, request as api, startTestServer, userWithRole, type TestServer } from '../../test/harness.ts';
import { expectPlatformSchema } from '../../test/platform-schemas.ts';
import { hookOwner } from '../../test/hook-fixtures.ts';
import { startPlatformReceiver, startReceiver, type PlatformReceiver, type Receiver } from '../../test/receiver.ts';
import { branchMatches } from '../services/webhooks/hook-delivery.ts';

let server: TestServer;
let receiver: Receiver;
/** A receiver written for the platform: it reads only the X-Gitlab-* names and checks this secret. */
const PLATFORM_SECRET = 'jenkins-shared-secret';
let platform: PlatformReceiver;
before(async () => {
  server = await startTestServer({ GATEHOUSE_HOOK_TIMEOUT_SECONDS: '1' });
  receiver = await startReceiver();
  platform = await startPlatformReceiver(PLATFORM_SECRET);
  await allowLocal(true);
});
after(async () => {
  await platform.close();
  await receiver.close();
  await server.close();
});
beforeEach(() => {
  receiver.requests.length = 0;
  receiver.respond(200, { body: '{"ok":true}' });
  platform.deliveries.length = 0;
});

const allowLocal = async (on: boolean) =>
  expectStatus(await api('/application/settings', { method: 'PUT', json: { allow_local_requests_from_web_hooks_and_services: on } }), 200);

for (const scope of ['groups', 'projects'] as const) {
  describe(`/${scope}/:id/hooks`, () => {
    describe('POST, GET, PUT and DELETE', () => {
      it('creates a hook with every field, keeping secrets write-only', async () => {
        const { base, admin, id } = await hookOwner(scope);
        const res = await api(base, {
          method: 'POST',
          token: admin.token,
          json: {
            url: `${receiver.url}/hook/{path_secret}`,
            name: 'CI notifier',
            description: 'Tells CI about changes',
            token: 'hook-secret',
            push_events: true,
            issues_events: true,
            push_events_branch_filter: 'main, release/*',
            branch_filter_strategy: 'wildcard',
            enable_ssl_verification: false,
            custom_headers: [{ key: 'X-Team', value: 'platform' }],
            url_variables: [{ key: 'path_secret', value: 'abc123' }],
            custom_webhook_template: '{"kind":"{{object_kind}}"}',
            ...(scope === 'groups' ? { member_events: true } : {}),
          },
        });
        expectStatus(res, 201);
        const hook = expectShape(webhook, res.body);
        if (scope === 'projects') {
          // The reference schema predates milestone_events, which the spec lists for both scopes.
          const { milestone_events: _m, ...asOlderClientsSee } = res.body;
          expectPlatformSchema('public_api/v4/project_hook.json', asOlderClientsSee);
        }
        assert.equal(hook.url, `${receiver.url}/hook/{path_secret}`);
        assert.deepEqual(hook.custom_headers, [{ key: 'X-Team' }]);
        assert.equal(hook.push_events_branch_filter, 'main, release/*');
        assert.deepEqual(hook.url_variables, [{ key: 'path_secret' }]);
        assert.equal(hook.alert_status, 'executable');
        assert.equal(hook.disabled_until, null);
        assert.equal(scope === 'groups' ? hook.group_id : hook.project_id, id);
        assert.ok(!res.text.includes('hook-secret') && !res.text.includes('abc123') && !res.text.includes('platform'));
        const list = await api(base, { token: admin.token });
        expectStatus(list, 200);
        assert.deepEqual(list.body.map((h: { id: number }) => h.id), [hook.id]);
        expectShape(webhook, (await api(`${base}/${hook.id}`, { token: admin.token })).body);
      });
      it('updates given fields, refuses an update without parameters (400), deletes (204)', async () => {
        const { base, admin } = await hookOwner(scope);
        const hook = (await api(base, { method: 'POST', token: admin.token, json: { url: `${receiver.url}/a` } })).body;
        const updated = await api(`${base}/${hook.id}`, { method: 'PUT', token: admin.token, form: { name: 'renamed', tag_push_events: 'true' } });
        expectStatus(updated, 200);
        assert.equal(updated.body.name, 'renamed');
        assert.equal(updated.body.tag_push_events, true);
        assert.equal(updated.body.url, `${receiver.url}/a`);
        const empty = await api(`${base}/${hook.id}`, { method: 'PUT', token: admin.token, json: {} });
        expectStatus(empty, 400);
        assert.deepEqual(empty.body, { message: 'at least one parameter must be provided' });
        expectStatus(await api(`${base}/${hook.id}`, { method: 'DELETE', token: admin.token }), 204);
        expectStatus(await api(`${base}/${hook.id}`, { token: admin.token }), 404);
      });
      it('lists hooks a page at a time, oldest first, with the pagination headers', async () => {
        const { base, admin } = await hookOwner(scope);
        const ids: number[] = [];
        for (const n of [1, 2, 3]) ids.push((await api(base, { method: 'POST', token: admin.token, json: { url: `${receiver.url}/${n}` } })).body.id);
        const first = await api(`${base}?per_page=2`, { token: admin.token });
        expectStatus(first, 200);
        assert.deepEqual(first.body.map((h: { id: number }) => h.id), ids.slice(0, 2));
        assert.equal(first.headers.get('x-total'), '3');
        assert.equal(first.headers.get('x-next-page'), '2');
        const second = await api(`${base}?per_page=2&page=2`, { token: admin.token });
        assert.deepEqual(second.body.map((h: { id: number }) => h.id), ids.slice(2));
        assert.equal(second.headers.get('x-next-page'), '');
      });
      it('answers 400 without a url, 404 for an unknown hook', async () => {
        const { base, admin } = await hookOwner(scope);
        const missing = await api(base, { method: 'POST', token: admin.token, json: { name: 'x' } });
        expectStatus(missing, 400);
        assert.deepEqual(missing.body, { message: 'url is missing' });
        expectStatus(await api(`${base}/999999`, { token: admin.token }), 404);
        expectStatus(await api(`${base}/abc`, { token: admin.token }), 404);
      });
    });

    describe('with invalid parameters', () => {
      const cases: [string, Record<string, unknown>, string][] = [
        ['a URL that is not one', { url: 'not a url' }, 'url'],
        ['a non-http URL', { url: 'ftp://example.com/x' }, 'url'],
        ['a variable the URL uses but nobody defined', { url: 'http://127.0.0.1/{missing}' }, 'url'],
        ['a regex branch filter that does not compile', { url: 'http://127.0.0.1/x', push_events_branch_filter: '(', branch_filter_strategy: 'regex' }, 'push_events_branch_filter'],
        ['a wildcard filter with spaces', { url: 'http://127.0.0.1/x', push_events_branch_filter: 'main branch' }, 'push_events_branch_filter'],
        ['a header Gatehouse sets itself', { url: 'http://127.0.0.1/x', custom_headers: [{ key: 'X-Service-Token', value: 'x' }] }, 'custom_headers'],
        ['a header name that is not one', { url: 'http://127.0.0.1/x', custom_headers: [{ key: 'Bad Header', value: 'x' }] }, 'custom_headers'],
        ['a header value with a line break', { url: 'http://127.0.0.1/x', custom_headers: [{ key: 'X-Ok', value: 'a\r\nInjected: yes' }] }, 'custom_headers'],
        ['a template that is not JSON', { url: 'http://127.0.0.1/x', custom_webhook_template: '{"a": {{object_kind}' }, 'custom_webhook_template'],
      ];
      for (const [what, body, field] of cases) {
        it(`answers 422 naming ${field} for ${what}, creating nothing`, async () => {
          const { base, admin } = await hookOwner(scope);
          const res = await api(base, { method: 'POST', token: admin.token, json: body });
          expectStatus(res, 422);
          assert.ok(res.body.message[field], JSON.stringify(res.body));
          assert.deepEqual((await api(base, { token: admin.token })).body, []);
        });
      }
      it('checks a regex branch filter with RE2: (?i) accepted, a lookahead refused (422) saying why, on POST and PUT', async () => {
        const { base, admin } = await hookOwner(scope);
        const created = await api(base, {
          method: 'POST',
          token: admin.token,
          json: { url: `${receiver.url}/re2`, push_events_branch_filter: '(?i)^(feat|fix)/.+', branch_filter_strategy: 'regex' },
        });
        expectStatus(created, 201);
        const hook = expectShape(webhook, created.body);
        assert.equal(hook.push_events_branch_filter, '(?i)^(feat|fix)/.+');
        assert.ok(branchMatches(hook, 'refs/heads/FIX/login'), 'delivery matches with RE2 too');
        assert.ok(!branchMatches(hook, 'refs/heads/main'));

        const refused = await api(base, {
          method: 'POST',
          token: admin.token,
          json: { url: `${receiver.url}/re2`, push_events_branch_filter: '^(?!WIP).+', branch_filter_strategy: 'regex' },
        });
        expectStatus(refused, 422);
        assert.deepEqual(refused.body.message.push_events_branch_filter, ['uses a lookahead (?!…), which RE2 does not support']);
        const put = await api(`${base}/${hook.id}`, { method: 'PUT', token: admin.token, json: { push_events_branch_filter: '^(?!WIP).+' } });
        expectStatus(put, 422);
        assert.deepEqual(put.body.message.push_events_branch_filter, ['uses a lookahead (?!…), which RE2 does not support']);
        assert.equal((await api(`${base}/${hook.id}`, { token: admin.token })).body.push_events_branch_filter, '(?i)^(feat|fix)/.+');
        assert.deepEqual((await api(base, { token: admin.token })).body.map((h: { id: number }) => h.id), [hook.id]);
      });
      it('accepts a regex branch filter that stalls a backtracking engine, and matches it in linear time', async () => {
        const { base, admin } = await hookOwner(scope);
        const res = await api(base, {
          method: 'POST',
          token: admin.token,
          json: { url: `${receiver.url}/re2`, push_events_branch_filter: '(a+)+$', branch_filter_strategy: 'regex' },
        });
        expectStatus(res, 201);
        const hook = expectShape(webhook, res.body);
        // JavaScript's RegExp takes about 12 s here, and doubles with each further "a".
        const start = performance.now();
        assert.equal(branchMatches(hook, `refs/heads/${'a'.repeat(30)}!`), false);
        const ms = performance.now() - start;
        assert.ok(ms < 1_000, `${ms.toFixed(0)} ms`);
      });
      it('refuses an internal address unless local requests are allowed', async () => {
        const { base, admin } = await hookOwner(scope);
        await allowLocal(false);
        try {
          for (const url of ['http://127.0.0.1:9/x', 'http://localhost/x', 'http://169.254.169.254/latest/meta-data', 'http://10.1.2.3/', 'http://[::1]/x', 'http://[::ffff:127.0.0.1]/x']) {
            const res = await api(base, { method: 'POST', token: admin.token, json: { url } });
            expectStatus(res, 422);
            assert.match(res.body.message.url[0], /is blocked/);
          }
        } finally {
          await allowLocal(true);
        }
      });
    });

    describe('without the role', () => {
      it(`answers 403 to a ${scope === 'groups' ? 'Maintainer' : 'Developer'} and 401 without a token`, async () => {
        const { base, group, id } = await hookOwner(scope);
        const weaker = await buildUser();
        if (scope === 'groups') await addMember('groups', group.id, weaker.user.id, 40);
        else await addMember('projects', id, weaker.user.id, 30);
        expectStatus(await api(base, { token: weaker.token }), 403);
        expectStatus(await api(base, { method: 'POST', token: weaker.token, json: { url: `${receiver.url}/x` } }), 403);
        expectStatus(await api(base, { token: null }), 401);
      });
    });

    describe('POST …/hooks/:hook_id/test/:trigger', () => {
      it('sends a realistic push event with the spec’s headers and answers with the outcome', async () => {
        const { base, admin } = await hookOwner(scope);
        const hook = (
          await api(base, {
            method: 'POST',
            token: admin.token,
            json: { url: `${receiver.url}/p/{v}`, token: 's3cret', custom_headers: [{ key: 'X-Team', value: 'blue' }], url_variables: [{ key: 'v', value: 'a b' }] },
          })
        ).body;
        const res = await api(`${base}/${hook.id}/test/push_events`, { method: 'POST', token: admin.token });
        expectStatus(res, 201);
        assert.deepEqual(res.body, { message: '201 Created' });
        const [got] = await receiver.waitFor(1);
        assert.equal(got.url, '/p/a%20b');
        assert.equal(got.headers['content-type'], 'application/json');
        assert.equal(got.headers['x-service-event'], 'Push Hook');
        assert.equal(got.headers['x-service-token'], 's3cret');
        assert.equal(got.headers['x-team'], 'blue');
        assert.match(String(got.headers['idempotency-key']), /^[0-9a-f-]{36}$/);
        assert.match(String(got.headers['x-service-event-uuid']), /^[0-9a-f-]{36}$/);
        assert.match(String(got.headers['x-service-webhook-uuid']), /^[0-9a-f-]{36}$/);
        assert.equal(got.headers['x-service-instance'], server.url);
        assert.match(String(got.headers['user-agent']), /Gatehouse/);
        for (const field of ['object_kind', 'event_name', 'before', 'after', 'ref', 'ref_protected', 'checkout_sha', 'message', 'user_id', 'user_name', 'user_username', 'user_email', 'user_avatar', 'project_id', 'project', 'commits', 'total_commits_count', 'push_options', 'repository']) {
          assert.ok(field in got.json, `push payload lacks ${field}`);
        }
        for (const field of ['id', 'name', 'description', 'web_url', 'avatar_url', 'git_ssh_url', 'git_http_url', 'namespace', 'visibility_level', 'path_with_namespace', 'default_branch', 'ci_config_path', 'homepage', 'url', 'ssh_url', 'http_url']) {
          assert.ok(field in got.json.project, `push project lacks ${field}`);
        }
        for (const field of ['id', 'message', 'title', 'timestamp', 'url', 'author', 'added', 'modified', 'removed']) assert.ok(field in got.json.commits[0]);
        for (const field of ['name', 'url', 'description', 'homepage', 'git_http_url', 'git_ssh_url', 'visibility_level']) assert.ok(field in got.json.repository);
      });
      it('answers 400 for a trigger the scope does not have', async () => {
        const { base, admin } = await hookOwner(scope);
        const hook = (await api(base, { method: 'POST', token: admin.token, json: { url: `${receiver.url}/x` } })).body;
        expectStatus(await api(`${base}/${hook.id}/test/nonsense_events`, { method: 'POST', token: admin.token }), 400);
        if (scope === 'projects') expectStatus(await api(`${base}/${hook.id}/test/member_events`, { method: 'POST', token: admin.token }), 400);
        assert.equal(receiver.requests.length, 0);
      });
      it('applies the custom template', async () => {
        const { base, admin } = await hookOwner(scope);
        const hook = (await api(base, { method: 'POST', token: admin.token, json: { url: `${receiver.url}/t`, custom_webhook_template: '{"kind":"{{object_kind}}","who":"{{user_username}}","n":{{total_commits_count}}}' } })).body;
        await api(`${base}/${hook.id}/test/push_events`, { method: 'POST', token: admin.token });
        const [got] = await receiver.waitFor(1);
        assert.deepEqual(got.json, { kind: 'push', who: admin.user.username, n: 1 });
      });
    });

    describe('GET …/hooks/:hook_id/events and resend', () => {
      it('lists deliveries with the token redacted, filtered by status, and resends with the same Idempotency-Key', async () => {
        const { base, admin } = await hookOwner(scope);
        const hook = (await api(base, { method: 'POST', token: admin.token, json: { url: `${receiver.url}/e`, token: 'never-shown', custom_headers: [{ key: 'X-Api-Key', value: 'hidden-value' }] } })).body;
        await api(`${base}/${hook.id}/test/push_events`, { method: 'POST', token: admin.token });
        receiver.respond(404, { body: 'no such thing' });
        await api(`${base}/${hook.id}/test/issues_events`, { method: 'POST', token: admin.token });
        receiver.respond(503);
        await api(`${base}/${hook.id}/test/tag_push_events`, { method: 'POST', token: admin.token });
        const all = await api(`${base}/${hook.id}/events`, { token: admin.token });
        expectStatus(all, 200);
        const events = expectShape(z.array(hookEvent), all.body);
        assert.equal(all.headers.get('x-total'), '3');
        assert.deepEqual(events.map((e) => e.response_status), ['503', '404', '200']);
        assert.ok(!all.text.includes('never-shown') && !all.text.includes('hidden-value'));
        assert.equal(events[2].request_headers['X-Service-Token'], '[REDACTED]');
        assert.equal(events[1].response_body, 'no such thing');
        assert.equal(events[1].response_headers['x-receiver'], 'test');
        assert.equal(events[2].trigger, 'push_hooks');
        assert.ok(events[2].execution_duration >= 0);
        const ids = async (q: string) => (await api(`${base}/${hook.id}/events?${q}`, { token: admin.token })).body.map((e: { response_status: string }) => e.response_status);
        assert.deepEqual(await ids('status=successful'), ['200']);
        assert.deepEqual(await ids('status=client_failure'), ['404']);
        assert.deepEqual(await ids('status=server_failure'), ['503']);
        assert.deepEqual(await ids('status=404'), ['404']);
        assert.deepEqual(await ids('trigger=tag_push_hooks'), ['503']);
        expectStatus(await api(`${base}/${hook.id}/events?status=sometimes`, { token: admin.token }), 400);

        receiver.requests.length = 0;
        receiver.respond(200);
        const resent = await api(`${base}/${hook.id}/events/${events[1].id}/resend`, { method: 'POST', token: admin.token });
        expectStatus(resent, 201);
        assert.deepEqual(resent.body, { response_status: 200 });
        const [again] = await receiver.waitFor(1);
        assert.equal(again.headers['idempotency-key'], events[1].request_headers['Idempotency-Key']);
        assert.equal(again.headers['x-api-key'], 'hidden-value');
        assert.deepEqual(again.json, events[1].request_data);
      });
      it('limits resends to 5 a minute per hook and user (429), unless the instance lifts the limit', async () => {
        const { base, admin } = await hookOwner(scope);
        const hook = (await api(base, { method: 'POST', token: admin.token, json: { url: `${receiver.url}/r` } })).body;
        await api(`${base}/${hook.id}/test/push_events`, { method: 'POST', token: admin.token });
        const [event] = (await api(`${base}/${hook.id}/events`, { token: admin.token })).body;
        for (let i = 0; i < 5; i++) expectStatus(await api(`${base}/${hook.id}/events/${event.id}/resend`, { method: 'POST', token: admin.token }), 201);
        const limited = await api(`${base}/${hook.id}/events/${event.id}/resend`, { method: 'POST', token: admin.token });
        expectStatus(limited, 429);
        assert.ok(Number(limited.headers.get('retry-after')) > 0);
        expectStatus(await api(`${base}/${hook.id}/events/${event.id}/resend`, { method: 'POST' }), 201);
        await api('/application/settings', { method: 'PUT', json: { web_hook_event_resend_api_endpoint_rate_limit: false } });
        try {
          expectStatus(await api(`${base}/${hook.id}/events/${event.id}/resend`, { method: 'POST', token: admin.token }), 201);
        } finally {
          await api('/application/settings', { method: 'PUT', json: { web_hook_event_resend_api_endpoint_rate_limit: true } });
        }
        expectStatus(await api(`${base}/${hook.id}/events/999999/resend`, { method: 'POST', token: admin.token }), 404);
      });
    });

    describe('receivers written for the platform', () => {
      it('accept the test delivery and its resend by the platform\'s header names alone, and refuse a wrong token', async () => {
        const { base, admin } = await hookOwner(scope);
        const hook = (await api(base, { method: 'POST', token: admin.token, json: { url: `${platform.url}/project/ci`, token: PLATFORM_SECRET } })).body;
        expectStatus(await api(`${base}/${hook.id}/test/push_events`, { method: 'POST', token: admin.token }), 201);
        const [first] = await platform.waitFor(1);
        assert.equal(first.accepted, true, first.reason);
        assert.equal(first.headers['x-gitlab-event'], 'Push Hook');
        assert.equal(first.headers['x-gitlab-token'], PLATFORM_SECRET);
        assert.equal(first.headers['x-gitlab-instance'], server.url);
        assert.match(String(first.headers['x-gitlab-event-uuid']), /^[0-9a-f-]{36}$/);
        assert.match(String(first.headers['x-gitlab-webhook-uuid']), /^[0-9a-f-]{36}$/);
        assert.equal(first.json.object_kind, 'push');

        // The log shows both names of each header, the token under both redacted.
        const [logged] = expectShape(z.array(hookEvent), (await api(`${base}/${hook.id}/events`, { token: admin.token })).body);
        const sent = logged.request_headers;
        assert.equal(sent['X-Gitlab-Token'], '[REDACTED]');
        assert.equal(sent['X-Service-Token'], '[REDACTED]');
        assert.equal(sent['X-Gitlab-Event'], sent['X-Service-Event']);
        assert.equal(sent['X-Gitlab-Event-UUID'], first.headers['x-gitlab-event-uuid']);
        assert.equal(sent['X-Gitlab-Event-UUID'], sent['X-Service-Event-UUID']);
        assert.equal(sent['X-Gitlab-Webhook-UUID'], sent['X-Service-Webhook-UUID']);
        assert.equal(sent['X-Gitlab-Instance'], sent['X-Service-Instance']);
        assert.equal(sent['Idempotency-Key'], first.headers['idempotency-key']);
        const stored = await server.running.db.selectFrom('web_hook_logs').select('request_headers').where('id', '=', logged.id).executeTakeFirstOrThrow();
        assert.ok(!stored.request_headers.includes(PLATFORM_SECRET), 'the token is not stored in clear in the log');

        // A resend: the same event, which the receiver recognises by its identifiers.
        expectStatus(await api(`${base}/${hook.id}/events/${logged.id}/resend`, { method: 'POST', token: admin.token }), 201);
        const [, again] = await platform.waitFor(2);
        assert.equal(again.accepted, true, again.reason);
        assert.equal(again.duplicate, true);
        assert.equal(again.headers['x-gitlab-token'], PLATFORM_SECRET);
        assert.equal(again.headers['x-gitlab-event'], 'Push Hook');
        assert.equal(again.headers['x-gitlab-webhook-uuid'], first.headers['x-gitlab-webhook-uuid']);

        // A hook whose token the receiver does not know: refused (401), which the test reports.
        const stranger = (await api(base, { method: 'POST', token: admin.token, json: { url: `${platform.url}/project/ci`, token: 'not-the-secret' } })).body;
        const refused = await api(`${base}/${stranger.id}/test/push_events`, { method: 'POST', token: admin.token });
        expectStatus(refused, 422);
        assert.match(refused.body.message, /returned HTTP 401/);
        const [, , third] = await platform.waitFor(3);
        assert.deepEqual([third.accepted, third.reason], [false, 'invalid X-Gitlab-Token']);
      });
    });

    describe('auto-disabling', () => {
      it('rests a hook after 4 failures, backs off, stops after 40, and comes back on a success', async () => {
        const { base, admin } = await hookOwner(scope);
        const hook = (await api(base, { method: 'POST', token: admin.token, json: { url: `${receiver.url}/fail` } })).body;
        receiver.respond(500, { body: 'receiver is down' });
        for (let i = 0; i < 3; i++) {
          const failed = await api(`${base}/${hook.id}/test/push_events`, { method: 'POST', token: admin.token });
          expectStatus(failed, 422);
          assert.deepEqual(failed.body, { message: 'Hook executed successfully but returned HTTP 500 receiver is down' });
        }
        assert.equal((await api(`${base}/${hook.id}`, { token: admin.token })).body.alert_status, 'executable');
        await api(`${base}/${hook.id}/test/push_events`, { method: 'POST', token: admin.token });
        const resting = (await api(`${base}/${hook.id}`, { token: admin.token })).body;
        assert.equal(resting.alert_status, 'temporarily_disabled');
        const wait = Date.parse(resting.disabled_until) - Date.now();
        assert.ok(wait > 50_000 && wait <= 60_000, `first back-off is a minute, got ${wait} ms`);
        await api(`${base}/${hook.id}/test/push_events`, { method: 'POST', token: admin.token });
        const longer = Date.parse((await api(`${base}/${hook.id}`, { token: admin.token })).body.disabled_until) - Date.now();
        assert.ok(longer > 110_000, `the back-off doubles, got ${longer} ms`);
        await server.running.db.updateTable('web_hooks').set({ recent_failures: 39 }).where('id', '=', hook.id).execute();
        await api(`${base}/${hook.id}/test/push_events`, { method: 'POST', token: admin.token });
        const stopped = (await api(`${base}/${hook.id}`, { token: admin.token })).body;
        assert.equal(stopped.alert_status, 'disabled');
        assert.equal(stopped.disabled_until, null);
        receiver.respond(200);
        expectStatus(await api(`${base}/${hook.id}/test/push_events`, { method: 'POST', token: admin.token }), 201);
        assert.equal((await api(`${base}/${hook.id}`, { token: admin.token })).body.alert_status, 'executable');
      });
    });

    describe('outbound guard', () => {
      it('refuses at delivery time what became internal, logging why', async () => {
        const { base, admin } = await hookOwner(scope);
        const hook = (await api(base, { method: 'POST', token: admin.token, json: { url: `${receiver.url}/late` } })).body;
        await allowLocal(false);
        let res;
        try {
          res = await api(`${base}/${hook.id}/test/push_events`, { method: 'POST', token: admin.token });
        } finally {
          await allowLocal(true);
        }
        expectStatus(res, 422);
        assert.match(res.body.message, /^Hook execution failed: .*not allowed/);
        assert.equal(receiver.requests.length, 0);
        const [log] = (await api(`${base}/${hook.id}/events`, { token: admin.token })).body;
        assert.equal(log.response_status, 'internal error');
      });
      it('times out a slow receiver', async () => {
        const { base, admin } = await hookOwner(scope);
        const hook = (await api(base, { method: 'POST', token: admin.token, json: { url: `${receiver.url}/slow` } })).body;
        receiver.respond(200, { delayMs: 1500 });
        const res = await api(`${base}/${hook.id}/test/push_events`, { method: 'POST', token: admin.token });
        expectStatus(res, 422);
        assert.match(res.body.message, /^Hook execution failed: .*timed out after 1 s/);
      });
    });
  });
}

describe('events from the sources that exist today', () => {
  it('delivers member, subgroup, project and access token events to group hooks, once each, through durable jobs', async () => {
    const group = await buildGroup();
    const owner = await userWithRole(group.id, 50);
    const hook = (
      await api(`/groups/${group.id}/hooks`, {
        method: 'POST',
        token: owner.token,
        json: { url: `${receiver.url}/events`, push_events: false, member_events: true, subgroup_events: true, project_events: true, resource_access_token_events: true },
      })
    ).body;
    const newcomer = await buildUser();
    await addMember('groups', group.id, newcomer.user.id, 30);
    const sub = await buildGroup({ parent_id: group.id });
    await buildProject(sub.id);
    await api(`/groups/${group.id}/access_tokens`, { method: 'POST', token: owner.token, json: { name: 'bot', scopes: ['read_api'] } });
    const got = await receiver.waitFor(4);
    const byEvent = Object.fromEntries(got.map((r) => [r.headers['x-service-event'], r.json]));
    assert.equal(byEvent['Member Hook'].event_name, 'user_add_to_group');
    assert.equal(byEvent['Member Hook'].user_username, newcomer.user.username);
    assert.equal(byEvent['Member Hook'].group_access, 'Developer');
    assert.equal(byEvent['Subgroup Hook'].event_name, 'subgroup_create');
    assert.equal(byEvent['Subgroup Hook'].parent_group_id, group.id);
    assert.equal(byEvent['Project Hook'].event_name, 'project_create');
    assert.equal(byEvent['Resource Access Token Hook'].object_kind, 'access_token');
    const keys = got.map((r) => r.headers['idempotency-key']);
    assert.equal(new Set(keys).size, keys.length);
    // Nothing more arrives: one delivery per event.
    await new Promise((r) => setTimeout(r, 600));
    assert.deepEqual(receiver.requests.map((r) => r.headers['x-service-event']).sort(), ['Member Hook', 'Project Hook', 'Resource Access Token Hook', 'Subgroup Hook']);
    const log = await api(`/groups/${group.id}/hooks/${hook.id}/events`, { token: owner.token });
    assert.equal(log.body.length, 4);
  });
  it('delivers a queued event that a receiver written for the platform accepts by its header names alone', async () => {
    const group = await buildGroup();
    const owner = await userWithRole(group.id, 50);
    const hook = (await api(`/groups/${group.id}/hooks`, { method: 'POST', token: owner.token, json: { url: `${platform.url}/bot`, token: PLATFORM_SECRET, push_events: false, subgroup_events: true } })).body;
    const sub = await buildGroup({ parent_id: group.id });
    const [got] = await platform.waitFor(1);
    assert.equal(got.accepted, true, got.reason);
    assert.equal(got.headers['x-gitlab-event'], 'Subgroup Hook');
    assert.equal(got.json.group_id, sub.id);
    // The log row is written with the job's completion, just after the answer.
    let log = await api(`/groups/${group.id}/hooks/${hook.id}/events`, { token: owner.token });
    for (let i = 0; i < 100 && log.body.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
      log = await api(`/groups/${group.id}/hooks/${hook.id}/events`, { token: owner.token });
    }
    assert.equal(log.body[0].response_status, '200');
    assert.equal(log.body[0].request_headers['X-Gitlab-Token'], '[REDACTED]');
    assert.equal(log.body[0].request_headers['X-Gitlab-Event-UUID'], got.headers['x-gitlab-event-uuid']);
  });
  it('does not deliver to a resting hook', async () => {
    const group = await buildGroup();
    const owner = await userWithRole(group.id, 50);
    const hook = (await api(`/groups/${group.id}/hooks`, { method: 'POST', token: owner.token, json: { url: `${receiver.url}/rest`, subgroup_events: true } })).body;
    await server.running.db.updateTable('web_hooks').set({ disabled_until: new Date(Date.now() + 60_000).toISOString(), recent_failures: 4 }).where('id', '=', hook.id).execute();
    await buildGroup({ parent_id: group.id });
    await new Promise((r) => setTimeout(r, 800));
    assert.equal(receiver.requests.length, 0);
  });
});
