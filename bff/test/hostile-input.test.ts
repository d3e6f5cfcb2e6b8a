import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildGroup, buildUser, expectStatus, request as api, startTestServer, type TestServer } from './harness.ts';
import { startReceiver } from './receiver.ts';

/**
 * What an outsider or a careless client sends: malformed bodies, NUL bytes, identical writes at
 * once. Each answers a clear 4xx with the platform's body, never a 5xx, and changes nothing.
 */
let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

const raw = (p: string, init: RequestInit & { token?: string } = {}) =>
  fetch(`${server.url}${p}`, { ...init, headers: { ...(init.token ? { 'PRIVATE-TOKEN': init.token } : {}), ...(init.headers as Record<string, string>) } });

async function expectJsonError(res: Response, status: number, message?: RegExp) {
  const text = await res.text();
  assert.equal(res.status, status, `expected ${status}, got ${res.status}: ${text.slice(0, 300)}`);
  assert.equal(res.headers.get('content-type'), 'application/json');
  const body = JSON.parse(text) as { message?: unknown; error?: unknown };
  if (message) assert.match(String(body.message ?? body.error), message);
  return body;
}

const MALFORMED_MULTIPART: Record<string, { type: string; body: string }> = {
  'a missing boundary': { type: 'multipart/form-data', body: '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nv\r\n--x--\r\n' },
  'an unexpected end of form': { type: 'multipart/form-data; boundary=x', body: '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nvalue' },
  'a NUL in a part header': { type: 'multipart/form-data; boundary=x', body: '--x\r\nContent-Disposition: form-data; name="na\u0000me"\r\n\r\nv\r\n--x--\r\n' },
  'a part without headers': { type: 'multipart/form-data; boundary=x', body: '--x\r\n\r\n\r\n--x--\r\n' },
};

describe('malformed and unsupported bodies', () => {
  for (const [what, { type, body }] of Object.entries(MALFORMED_MULTIPART)) {
    describe(`multipart with ${what}`, () => {
      it('answers 401 without a token (nothing is parsed before authentication), 404 on an unknown path', async () => {
        await expectJsonError(await raw('/api/v4/groups/1', { method: 'PUT', headers: { 'Content-Type': type }, body }), 401);
        await expectJsonError(await raw('/api/v4/no/such/route', { method: 'POST', headers: { 'Content-Type': type }, body }), 404);
      });
      it('answers 400 on the upload route and changes nothing', async () => {
        const group = await buildGroup();
        const res = await raw(`/api/v4/groups/${group.id}`, { method: 'PUT', token: server.rootToken, headers: { 'Content-Type': type }, body });
        await expectJsonError(res, 400, /multipart/);
        const after = await api(`/groups/${group.id}`);
        assert.equal(after.body.name, group.name);
      });
      it('answers 415 on a route that takes no upload', async () => {
        const res = await raw('/api/v4/groups', { method: 'POST', token: server.rootToken, headers: { 'Content-Type': type }, body });
        await expectJsonError(res, 415, /^415 Unsupported Media Type/);
      });
    });
  }

  it('refuses a well-formed multipart body where no file is uploaded (415), and creates nothing', async () => {
    const form = new FormData();
    form.set('name', 'Multipart group');
    form.set('path', 'multipart-group');
    const res = await api('/groups', { method: 'POST', multipart: form });
    expectStatus(res, 415);
    expectStatus(await api('/groups/multipart-group'), 404);
  });

  for (const type of ['application/xml', 'text/csv', 'application/octet-stream', 'image/png']) {
    it(`answers 415 to a ${type} body`, async () => {
      const res = await raw('/api/v4/groups', { method: 'POST', token: server.rootToken, headers: { 'Content-Type': type }, body: '<group><path>x</path></group>' });
      await expectJsonError(res, 415, /not supported; send JSON/);
    });
  }

  it('answers 400 to malformed JSON and to a JSON body that is not an object', async () => {
    await expectJsonError(await raw('/api/v4/groups', { method: 'POST', token: server.rootToken, headers: { 'Content-Type': 'application/json' }, body: '{"name":' }), 400, /not valid JSON/);
    const res = await raw('/api/v4/groups', { method: 'POST', token: server.rootToken, headers: { 'Content-Type': 'application/json' }, body: '"just a string"' });
    assert.ok(res.status >= 400 && res.status < 500, `got ${res.status}`);
  });
});

describe('long URLs', () => {
  it('answer 414 past 3,500 characters, and a list just under it keeps its Link header readable', async () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => 100_000 + i).join(',');
    const group = await buildGroup();
    const tooLong = await raw(`/api/v4/groups/${group.id}/members?user_ids=${ids(600)}`, { token: server.rootToken });
    await expectJsonError(tooLong, 414, /URI Too Long/);
    const longest = `/groups/${group.id}/members?per_page=1&user_ids=${ids(480)}`;
    assert.ok(longest.length > 3_300 && longest.length < 3_450);
    const res = await api(longest);
    expectStatus(res, 200);
    assert.match(res.headers.get('link') ?? '', /rel="first"/);
  });
});

describe('NUL bytes', () => {
  it('are refused with 400 in the path, query and body of every router', async () => {
    const group = await buildGroup();
    const owner = await buildUser();
    expectStatus(await api(`/groups/${group.id}/members`, { method: 'POST', json: { user_id: owner.user.id, access_level: 50 } }), 201);
    const scim = await api(`/groups/${group.id}/scim/token`, { method: 'POST' });
    expectStatus(scim, 201);
    const cases: [string, RequestInit & { token?: string }][] = [
      ['/api/v4/groups/%00', { token: server.rootToken }],
      [`/api/v4/groups/${group.id}/hooks/%00`, { token: server.rootToken }],
      ['/api/v4/groups?search=%00', { token: server.rootToken }],
      ['/api/v4/no/%00/route', {}],
      [`/api/scim/v2/groups/${encodeURIComponent(group.full_path)}/Users/%00`, { headers: { Authorization: `Bearer ${scim.body.token}` } }],
      [`/api/scim/v2/groups/%00/Users`, { headers: { Authorization: `Bearer ${scim.body.token}` } }],
      ['/api/console/session%00', {}],
      [`/api/v4/groups/${group.id}`, { method: 'PUT', token: server.rootToken, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'a\u0000b' }) }],
      [`/api/v4/groups/${group.id}`, { method: 'PUT', token: server.rootToken, headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'name=a%00b' }],
      [`/api/scim/v2/groups/${encodeURIComponent(group.full_path)}/Users`, { method: 'POST', headers: { Authorization: `Bearer ${scim.body.token}`, 'Content-Type': 'application/scim+json' }, body: JSON.stringify({ userName: 'a\u0000', externalId: 'x' }) }],
    ];
    for (const [p, init] of cases) {
      const res = await raw(p, init);
      const text = await res.text();
      assert.equal(res.status, 400, `${init.method ?? 'GET'} ${p}: ${res.status} ${text.slice(0, 200)}`);
      assert.match(text, /NUL/);
    }
    assert.equal((await api(`/groups/${group.id}`)).body.name, group.name);
  });
});

describe('identical writes at once', () => {
  const burst = <T>(n: number, fn: () => Promise<T>) => Promise.all(Array.from({ length: n }, fn));
  const statuses = (list: { status: number }[]) => list.map((r) => r.status).sort();

  async function expectOneWinner(list: { status: number; body: unknown }[], loser: number, body: unknown) {
    assert.deepEqual(statuses(list), [list.find((r) => r.status < 300)!.status, ...Array(list.length - 1).fill(loser)], JSON.stringify(list.map((r) => [r.status, r.body])));
    for (const r of list.filter((x) => x.status === loser)) assert.deepEqual(r.body, body);
  }

  it('POST /groups ten times with one path: one group, nine 400 "has already been taken"', async () => {
    const results = await burst(10, () => api('/groups', { method: 'POST', json: { name: 'Same', path: 'same-path-at-once' } }));
    await expectOneWinner(results, 400, { message: { path: ['has already been taken'] } });
    const list = await api('/groups?search=same-path-at-once');
    assert.equal(list.body.length, 1);
  });

  it('POST /groups for a subgroup ten times at once: one subgroup', async () => {
    const parent = await buildGroup();
    const results = await burst(10, () => api('/groups', { method: 'POST', json: { name: 'Sub', path: 'sub-at-once', parent_id: parent.id } }));
    await expectOneWinner(results, 400, { message: { path: ['has already been taken'] } });
    assert.equal((await api(`/groups/${parent.id}/subgroups`)).body.length, 1);
  });

  it('POST /projects ten times with one path: one project', async () => {
    const group = await buildGroup();
    const results = await burst(10, () => api('/projects', { method: 'POST', json: { name: 'p-at-once', path: 'p-at-once', namespace_id: group.id } }));
    assert.equal(results.filter((r) => r.status === 201).length, 1, JSON.stringify(results.map((r) => [r.status, r.body])));
    for (const r of results.filter((x) => x.status !== 201)) {
      assert.equal(r.status, 400);
      assert.ok(Object.keys(r.body.message).every((k) => ['path', 'name'].includes(k)), JSON.stringify(r.body));
    }
    const rows = await server.running.db.selectFrom('projects').select('id').where('namespace_id', '=', group.id).execute();
    assert.equal(rows.length, 1);
  });

  it('POST /users ten times with one username: one user, nine 409', async () => {
    const results = await burst(10, () => api('/users', { method: 'POST', json: { username: 'same-user-at-once', name: 'Same', email: 'same-at-once@example.com', password: 'password-123' } }));
    assert.equal(results.filter((r) => r.status === 201).length, 1);
    for (const r of results.filter((x) => x.status !== 201)) {
      assert.equal(r.status, 409);
      assert.match(r.body.message, /has already been taken/);
    }
  });

  it('POST /groups/:id/members ten times for one user: one membership, nine 409 "Member already exists"', async () => {
    const group = await buildGroup();
    const u = await buildUser();
    const results = await burst(10, () => api(`/groups/${group.id}/members`, { method: 'POST', json: { user_id: u.user.id, access_level: 30 } }));
    await expectOneWinner(results, 409, { message: 'Member already exists' });
  });

  it('POST /groups/:id/scim/token ten times: each replaces the token in place, the last one works', async () => {
    const group = await buildGroup();
    const results = await burst(10, () => api(`/groups/${group.id}/scim/token`, { method: 'POST' }));
    assert.deepEqual(statuses(results), Array(10).fill(201), JSON.stringify(results.map((r) => [r.status, r.body])));
    const rows = await server.running.db.selectFrom('scim_tokens').select('token_digest').where('group_id', '=', group.id).execute();
    assert.equal(rows.length, 1);
    const working = [];
    for (const r of results) {
      const res = await raw(`/api/scim/v2/groups/${encodeURIComponent(group.full_path)}/Users`, { headers: { Authorization: `Bearer ${r.body.token}` } });
      if (res.status === 200) working.push(r.body.token);
    }
    assert.equal(working.length, 1, 'exactly one of the reset tokens works');
  });
});

describe('credentials written into a webhook URL', () => {
  it('are masked wherever the URL is shown, kept when the masked URL is sent back, and delivered as Basic authentication', async () => {
    const receiver = await startReceiver();
    try {
      expectStatus(await api('/application/settings', { method: 'PUT', json: { allow_local_requests_from_web_hooks_and_services: true } }), 200);
      const group = await buildGroup();
      const password = 'p@ss:w0rd-secret';
      const withCredentials = receiver.url.replace('http://', `http://deploy-bot:${encodeURIComponent(password)}@`) + '/hook?x=1';
      const created = await api(`/groups/${group.id}/hooks`, { method: 'POST', json: { url: withCredentials, push_events: true } });
      expectStatus(created, 201);
      const masked = receiver.url.replace('http://', 'http://*****:*****@') + '/hook?x=1';
      assert.equal(created.body.url, masked);
      assert.equal((await api(`/groups/${group.id}/hooks/${created.body.id}`)).body.url, masked);
      assert.equal((await api(`/groups/${group.id}/hooks`)).body[0].url, masked);

      // The console's edit form sends the URL back as shown: the credentials stay.
      const edited = await api(`/groups/${group.id}/hooks/${created.body.id}`, { method: 'PUT', json: { url: masked, name: 'renamed' } });
      expectStatus(edited, 200);
      assert.equal(edited.body.url, masked);

      expectStatus(await api(`/groups/${group.id}/hooks/${created.body.id}/test/push_events`, { method: 'POST' }), 201);
      const [got] = await receiver.waitFor(1);
      assert.equal(got.url, '/hook?x=1');
      assert.equal(got.headers.authorization, `Basic ${Buffer.from(`deploy-bot:${password}`).toString('base64')}`);

      let log: { body: { url: string }[] } = { body: [] };
      for (let i = 0; i < 40 && !log.body.length; i++) {
        log = await api(`/groups/${group.id}/hooks/${created.body.id}/events`);
        if (!log.body.length) await new Promise((r) => setTimeout(r, 50));
      }
      assert.equal(log.body[0].url, masked);
      assert.ok(!JSON.stringify(log.body).includes(encodeURIComponent(password)) && !JSON.stringify(log.body).includes(password));

      // A URL with other credentials replaces them; one without drops them.
      const replaced = await api(`/groups/${group.id}/hooks/${created.body.id}`, { method: 'PUT', json: { url: `${receiver.url.replace('http://', 'http://other:secret2@')}/hook` } });
      assert.equal(replaced.body.url, `${receiver.url.replace('http://', 'http://*****:*****@')}/hook`);
      const row = await server.running.db.selectFrom('web_hooks').select('url').where('id', '=', created.body.id).executeTakeFirstOrThrow();
      assert.match(row.url, /other:secret2@/);
    } finally {
      await receiver.close();
    }
  });
});
