import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sessionInfo } from '../../../shared/src/session.ts';
import { buildGroup, buildUser, expectShape, expectStatus, request as api, startTestServer, userWithRole, type TestServer } from '../../test/harness.ts';

let server: TestServer;
/** Without trusted proxies. Started first: the harness's requests go to the last one started. */
let untrusted: TestServer;
before(async () => {
  untrusted = await startTestServer({ GATEHOUSE_SIGNIN_MAX_FAILURES: '3' });
  // Requests come from 127.0.0.1, as from a proxy on the machine (GATEHOUSE_TRUSTED_PROXIES).
  server = await startTestServer({ GATEHOUSE_SIGNIN_MAX_FAILURES: '3', GATEHOUSE_TRUSTED_PROXIES: '127.0.0.1/32' });
});
after(() => Promise.all([server.close(), untrusted.close()]));

async function signIn(username: string, password: string, opts: { forwardedFor?: string; on?: TestServer } = {}) {
  const headers = opts.forwardedFor ? { 'X-Forwarded-For': opts.forwardedFor } : undefined;
  const res = await api(`${(opts.on ?? server).url}/api/console/session`, { method: 'POST', token: null, headers, json: { username, password } });
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0];
  return { res, cookie, csrf: res.body?.csrf_token as string };
}

describe('POST /api/console/session', () => {
  it('signs in with username and password and sets an httpOnly session cookie', async () => {
    const { res } = await signIn('root', server.rootPassword);
    expectStatus(res, 201);
    const info = expectShape(sessionInfo, res.body);
    assert.equal(info.user.username, 'root');
    assert.equal(info.user.is_admin, true);
    const setCookie = res.headers.get('set-cookie')!;
    assert.match(setCookie, /^gatehouse_session=[^;]{20,};/);
    assert.match(setCookie, /HttpOnly/i);
    assert.match(setCookie, /SameSite=Lax/i);
    assert.ok(!res.text.includes(setCookie.split(';')[0].split('=')[1]), 'the session id is only in the cookie');
  });
  it('answers 401 for a wrong password or an unknown user, with the same message', async () => {
    const u = await buildUser();
    const wrong = await signIn(u.user.username, 'wrong-password');
    const unknown = await signIn('nobody-at-all', 'wrong-password');
    expectStatus(wrong.res, 401);
    expectStatus(unknown.res, 401);
    assert.deepEqual(wrong.res.body, unknown.res.body);
    assert.equal(wrong.res.headers.get('set-cookie'), null);
  });
  it('answers 400 for a missing password and 415 for a form post', async () => {
    const missing = await api('/api/console/session', { method: 'POST', token: null, json: { username: 'root' } });
    expectStatus(missing, 400);
    assert.deepEqual(missing.body, { message: 'password is missing' });
    const form = await api('/api/console/session', { method: 'POST', token: null, form: { username: 'root', password: server.rootPassword } });
    expectStatus(form, 415);
  });
  it('rate-limits repeated failures for a username with 429, even with the right password', async () => {
    const u = await buildUser();
    for (let i = 0; i < 3; i++) expectStatus((await signIn(u.user.username, 'nope')).res, 401);
    const blocked = await signIn(u.user.username, u.password);
    expectStatus(blocked.res, 429);
    assert.ok(Number(blocked.res.headers.get('retry-after')) > 0);
    // Other users are not affected.
    const other = await buildUser();
    expectStatus((await signIn(other.user.username, other.password)).res, 201);
  });
});

describe('sign-in failures per client address', () => {
  // 3 failures per username (GATEHOUSE_SIGNIN_MAX_FAILURES), 15 per address (5 times that).
  const failFrom = async (on: TestServer, forwardedFor: string) => {
    for (let i = 0; i < 15; i++) expectStatus((await signIn(`nobody-${forwardedFor}-${i % 5}`, 'wrong', { on, forwardedFor })).res, 401);
  };
  it('behind a trusted proxy, count per address named by X-Forwarded-For: one client locked out, another not', async () => {
    const u = await buildUser();
    await failFrom(server, '198.51.100.7');
    expectStatus((await signIn(u.user.username, u.password, { forwardedFor: '198.51.100.7' })).res, 429);
    expectStatus((await signIn(u.user.username, u.password, { forwardedFor: '198.51.100.8' })).res, 201);
  });
  it('from anyone else, ignore X-Forwarded-For: a client cannot name another address to escape the limit', async () => {
    const u = await api(`${untrusted.url}/api/v4/users`, { method: 'POST', token: untrusted.rootToken, json: { username: 'proxied', name: 'Proxied', email: 'proxied@example.com', password: 'a-long-password-1' } });
    expectStatus(u, 201);
    await failFrom(untrusted, '198.51.100.9');
    expectStatus((await signIn('proxied', 'a-long-password-1', { on: untrusted, forwardedFor: '198.51.100.10' })).res, 429);
  });
});

describe('the session cookie on /api/v4', () => {
  it('authenticates reads, and writes only with the CSRF token', async () => {
    const u = await buildUser();
    const group = await buildGroup();
    await userWithRole(group.id, 0);
    const { cookie, csrf } = await signIn(u.user.username, u.password);
    const me = await api('/user', { token: null, headers: { cookie } });
    expectStatus(me, 200);
    assert.equal(me.body.username, u.user.username);

    const body = { name: 'Made in the console', path: `console-${u.user.id}` };
    const noCsrf = await api('/groups', { method: 'POST', token: null, headers: { cookie }, json: body });
    expectStatus(noCsrf, 403);
    assert.match(noCsrf.body.message, /CSRF/);
    const badCsrf = await api('/groups', { method: 'POST', token: null, headers: { cookie, 'X-CSRF-Token': 'x'.repeat(csrf.length) }, json: body });
    expectStatus(badCsrf, 403);
    assert.equal((await api(`/groups/${encodeURIComponent(body.path)}`)).status, 404, 'nothing was created');
    const ok = await api('/groups', { method: 'POST', token: null, headers: { cookie, 'X-CSRF-Token': csrf }, json: body });
    expectStatus(ok, 201);
  });
  it('GET /api/console/session returns the user and CSRF token; 401 without a session', async () => {
    const u = await buildUser();
    const { cookie, csrf } = await signIn(u.user.username, u.password);
    const res = await api('/api/console/session', { token: null, headers: { cookie } });
    expectStatus(res, 200);
    assert.equal(res.body.csrf_token, csrf);
    expectStatus(await api('/api/console/session', { token: null }), 401);
  });
  it('stops working after sign-out', async () => {
    const u = await buildUser();
    const { cookie, csrf } = await signIn(u.user.username, u.password);
    expectStatus(await api('/api/console/session', { method: 'DELETE', token: null, headers: { cookie } }), 403);
    const out = await api('/api/console/session', { method: 'DELETE', token: null, headers: { cookie, 'X-CSRF-Token': csrf } });
    expectStatus(out, 204);
    expectStatus(await api('/user', { token: null, headers: { cookie } }), 401);
  });
  it('expires', async () => {
    const u = await buildUser();
    const { cookie } = await signIn(u.user.username, u.password);
    await server.running.db.updateTable('sessions').set({ expires_at: '2000-01-01T00:00:00.000Z' }).where('user_id', '=', u.user.id).execute();
    expectStatus(await api('/user', { token: null, headers: { cookie } }), 401);
    expectStatus(await api('/api/console/session', { token: null, headers: { cookie } }), 401);
    // Even where anonymous reads are allowed, an ended session is reported and its cookie cleared.
    const publicRead = await api('/groups', { token: null, headers: { cookie } });
    expectStatus(publicRead, 401);
    assert.match(publicRead.headers.get('set-cookie') ?? '', /^gatehouse_session=;.*Expires=Thu, 01 Jan 1970/);
    expectStatus(await api('/api/console/session', { method: 'DELETE', token: null, headers: { cookie } }), 204);
  });
  it('is not accepted for a blocked user', async () => {
    const u = await buildUser();
    const { cookie } = await signIn(u.user.username, u.password);
    await server.running.db.updateTable('users').set({ state: 'blocked' }).where('id', '=', u.user.id).execute();
    expectStatus(await api('/user', { token: null, headers: { cookie } }), 401);
  });
});

describe('request logs', () => {
  it('carry a request ID back to the caller', async () => {
    const res = await api('/groups', { headers: { 'X-Request-Id': 'trace-me-123' } });
    assert.equal(res.headers.get('x-request-id'), 'trace-me-123');
    const generated = await api('/groups');
    assert.match(generated.headers.get('x-request-id')!, /^[0-9a-f-]{36}$/);
  });
});
