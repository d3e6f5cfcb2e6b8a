// Runs on SQLite only: what a request logs is the HTTP layer's; the engine changes nothing of it
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { buildUser, expectStatus, request as api, startTestServer, type TestServer } from './harness.ts';

const lines: string[] = [];
const sink = new Writable({
  write(chunk, _enc, done) {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    done();
  },
});

let server: TestServer;
before(async () => {
  server = await startTestServer({}, { logger: pino({ level: 'info' }, sink) });
});
after(() => server.close());

describe('request logs', () => {
  it('are JSON lines with a request ID, method, URL and status, and never contain a credential', async () => {
    const u = await buildUser();
    expectStatus(await api('/groups', { token: u.token }), 200);
    expectStatus(await api(`/groups?private_token=${encodeURIComponent(u.token)}`, { token: null }), 200);
    expectStatus(await api('/user', { token: null, headers: { Authorization: `Bearer ${u.token}` } }), 200);
    const signIn = await api('/api/console/session', { method: 'POST', token: null, json: { username: u.user.username, password: u.password } });
    expectStatus(signIn, 201);
    const cookie = signIn.headers.get('set-cookie')!.split(';')[0].split('=')[1];
    expectStatus(await api('/user', { token: null, headers: { cookie: `gatehouse_session=${cookie}` } }), 200);
    const created = await api(`/users/${u.user.id}/personal_access_tokens`, { method: 'POST', json: { name: 'x', scopes: ['api'] } });
    expectStatus(created, 201);
    // Other spellings of the credential parameters: percent-encoded names authenticate too.
    const other = await buildUser();
    expectStatus(await api(`/groups?private%5Ftoken=${other.token}`, { token: null }), 200);
    expectStatus(await api(`/groups?%61ccess_token=${created.body.token}&per_page=2`, { token: null }), 200);
    expectStatus(await api(`/groups?ACCESS_TOKEN=${other.password}&private_token%5B%5D=${other.password}`, { token: null }), 200);
    const failedSignIn = await api('/api/console/session', { method: 'POST', token: null, json: { username: other.user.username, password: `${other.password}-wrong` } });
    expectStatus(failedSignIn, 401);

    const records = lines.map((l) => JSON.parse(l) as { req?: { id: string; method: string; url: string }; res?: { statusCode: number } });
    const requests = records.filter((r) => r.req && r.res);
    assert.ok(requests.length >= 6, `expected request logs, got ${lines.length} lines`);
    for (const r of requests) {
      assert.match(r.req!.id, /^[0-9a-f-]{36}$/);
      assert.ok(r.req!.method && r.req!.url && r.res!.statusCode);
    }
    assert.ok(requests.some((r) => r.req!.url.includes('private_token=[REDACTED]')));
    const text = lines.join('\n');
    for (const secret of [u.token, u.password, cookie, server.rootToken, created.body.token, signIn.body.csrf_token, other.token, other.password]) {
      assert.ok(!text.includes(secret), `a credential reached the log: ${secret.slice(0, 6)}…`);
    }
    assert.ok(requests.some((r) => r.req!.url.includes('private%5Ftoken=[REDACTED]')));
  });
});
