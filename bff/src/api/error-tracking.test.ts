import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { z } from 'zod';
import { errorTrackingClientKey, errorTrackingSetting, trackedError, trackedErrorDetails, trackedErrorEvent } from '../../../shared/src/error-tracking.ts';
import { ACCESS_LEVELS as L } from '../../../shared/src/roles.ts';
import { purgeOldErrors } from '../services/error-tracking/errors.ts';
import { addMember, buildGroup, buildProject, buildUser, expectShape, expectStatus, request as api, startTestServer, type TestServer } from '../../test/harness.ts';

/** Envelopes a key may send per minute in this file's server: low, so that 429 is reached in a few requests. */
const RATE = 40;

let server: TestServer;
let project: { id: number; path_with_namespace: string };
let other: { id: number };
let reporter: Awaited<ReturnType<typeof buildUser>>;
let developer: Awaited<ReturnType<typeof buildUser>>;
let maintainer: Awaited<ReturnType<typeof buildUser>>;
let guest: Awaited<ReturnType<typeof buildUser>>;
let stranger: Awaited<ReturnType<typeof buildUser>>;
let key: z.output<typeof errorTrackingClientKey>;
let otherKey: z.output<typeof errorTrackingClientKey>;

const base = () => `/projects/${project.id}/error_tracking`;

before(async () => {
  server = await startTestServer({ GATEHOUSE_ERROR_TRACKING_EVENTS_PER_MINUTE: String(RATE) });
  const group = await buildGroup();
  project = await buildProject(group.id);
  other = await buildProject((await buildGroup()).id);
  [guest, reporter, developer, maintainer, stranger] = await Promise.all([buildUser(), buildUser(), buildUser(), buildUser(), buildUser()]);
  await Promise.all([
    addMember('groups', group.id, guest.user.id, L.guest),
    addMember('groups', group.id, reporter.user.id, L.reporter),
    addMember('groups', group.id, developer.user.id, L.developer),
    addMember('groups', group.id, maintainer.user.id, L.maintainer),
  ]);
  // Tracking on in both projects, a key each (the root token: an administrator).
  for (const id of [project.id, other.id]) expectStatus(await api(`/projects/${id}/error_tracking/settings`, { method: 'PUT', json: { active: true, integrated: true } }), 200);
  key = (await api(`${base()}/client_keys`, { method: 'POST' })).body;
  otherKey = (await api(`/projects/${other.id}/error_tracking/client_keys`, { method: 'POST' })).body;
});
after(async () => {
  await server.close();
});

/** A Sentry envelope of these items, as SDKs write it (some items with `length`, some without). */
function envelope(items: { type: string; payload: unknown }[]): string {
  const lines = [JSON.stringify({ event_id: 'a'.repeat(32), sent_at: new Date().toISOString() })];
  items.forEach((item, i) => {
    const payload = JSON.stringify(item.payload);
    lines.push(JSON.stringify(i % 2 ? { type: item.type } : { type: item.type, length: Buffer.byteLength(payload) }), payload);
  });
  return lines.join('\n') + '\n';
}

function exceptionEvent(type: string, value: string, user?: Record<string, string>, fn = 'handler') {
  return {
    event_id: Math.random().toString(16).slice(2).padEnd(32, '0'),
    timestamp: Date.now() / 1000,
    platform: 'node',
    level: 'error',
    user,
    exception: {
      values: [
        {
          type,
          value,
          stacktrace: {
            frames: [
              { filename: 'node:internal/main', function: 'run', lineno: 1, colno: 2, in_app: false },
              { filename: '/app/server.js', function: fn, lineno: 42, colno: 7, in_app: true, pre_context: ['a', 'b'], context_line: 'throw e', post_context: ['c'] },
            ],
          },
        },
      ],
    },
  };
}

/** Posts to the collector as an SDK does: no API credential, the key in the query (or a header). */
async function send(kind: 'envelope' | 'store', body: string | Buffer, opts: { projectId?: number; publicKey?: string | null; header?: boolean; gzip?: boolean; type?: string } = {}) {
  const publicKey = opts.publicKey === undefined ? key.public_key : opts.publicKey;
  const query = publicKey && !opts.header ? `?sentry_key=${publicKey}&sentry_version=7` : '';
  const headers: Record<string, string> = { 'Content-Type': opts.type ?? (kind === 'envelope' ? 'application/x-sentry-envelope' : 'application/json') };
  if (publicKey && opts.header) headers['X-Sentry-Auth'] = `Sentry sentry_version=7, sentry_client=test/1.0, sentry_key=${publicKey}`;
  let payload: string | Buffer = body;
  if (opts.gzip) {
    headers['Content-Encoding'] = 'gzip';
    payload = zlib.gzipSync(body);
  }
  return post(`/error_tracking/collector/api/${opts.projectId ?? project.id}/${kind}/${query}`, headers, payload);
}

/** A raw POST to the API (the harness's client sends JSON, forms or multipart only). */
async function post(path: string, headers: Record<string, string>, body: string | Buffer) {
  const res = await fetch(`${server.url}/api/v4${path}`, { method: 'POST', headers, body: typeof body === 'string' ? body : new Uint8Array(body) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text ? (JSON.parse(text) as unknown) : undefined };
}

async function errorsNamed(title: string) {
  const res = await api(`${base()}/errors?query=${encodeURIComponent(title)}`, { token: reporter.token });
  expectStatus(res, 200);
  return z.array(trackedError).parse(res.body);
}

describe('GET and PUT /projects/:id/error_tracking/settings', () => {
  it('404 until a Maintainer saves one, then the platform’s shape; both fields required (400); Developers 403, strangers 404, anonymous 401', async () => {
    const fresh = await buildProject((await buildGroup()).id);
    const url = `/projects/${fresh.id}/error_tracking/settings`;
    expectStatus(await api(url), 404);
    const saved = await api(url, { method: 'PUT', json: { active: true, integrated: true } });
    expectStatus(saved, 200);
    assert.deepEqual(expectShape(errorTrackingSetting, saved.body), { active: true, project_name: null, sentry_external_url: null, api_url: null, integrated: true });
    assert.deepEqual((await api(url)).body, saved.body);
    expectStatus(await api(url, { method: 'PUT', json: { active: false } }), 400);
    expectStatus(await api(url, { method: 'PUT', json: { active: 'maybe', integrated: true } }), 400);
    expectStatus(await api(`${base()}/settings`, { token: maintainer.token }), 200);
    expectStatus(await api(`${base()}/settings`, { method: 'PUT', token: developer.token, json: { active: false, integrated: false } }), 403);
    expectStatus(await api(`${base()}/settings`, { token: stranger.token }), 404);
    expectStatus(await api(`${base()}/settings`, { token: null }), 401);
  });
});

describe('/projects/:id/error_tracking/client_keys', () => {
  it('creates glet_ keys with the DSN under the server’s URL, lists them paginated, deletes one answering it; 404 for an unknown key, 403 for a Developer', async () => {
    const made = await api(`${base()}/client_keys`, { method: 'POST', token: maintainer.token });
    expectStatus(made, 201);
    const k = expectShape(errorTrackingClientKey, made.body);
    assert.match(k.public_key, /^glet_[0-9a-f]{32}$/);
    assert.equal(k.active, true);
    const origin = new URL(server.url);
    assert.equal(k.sentry_dsn, `${origin.protocol}//${k.public_key}@${origin.host}/api/v4/error_tracking/collector/${project.id}`);
    const list = await api(`${base()}/client_keys?per_page=1&page=2`, { token: maintainer.token });
    expectStatus(list, 200);
    assert.equal(list.headers.get('x-total'), '2');
    assert.deepEqual(list.body, [k]);
    const gone = await api(`${base()}/client_keys/${k.id}`, { method: 'DELETE', token: maintainer.token });
    expectStatus(gone, 200);
    assert.deepEqual(gone.body, k);
    expectStatus(await api(`${base()}/client_keys/${k.id}`, { method: 'DELETE', token: maintainer.token }), 404);
    expectStatus(await api(`/projects/${other.id}/error_tracking/client_keys/${otherKey.id}`.replace(String(other.id), String(project.id)), { method: 'DELETE' }), 404);
    expectStatus(await api(`${base()}/client_keys`, { method: 'POST', token: developer.token }), 403);
    expectStatus(await api(`${base()}/client_keys`, { token: developer.token }), 403);
  });
});

describe('POST /error_tracking/collector/api/:id/envelope and /store', () => {
  it('records exceptions grouped by type, message and frames; users counted by identity; messages; sessions accepted without an error; gzip and the header key', async () => {
    const boom = (u?: Record<string, string>) => exceptionEvent('TypeError', 'collector boom', u);
    const ok = await send('envelope', envelope([{ type: 'event', payload: boom({ id: '1' }) }, { type: 'session', payload: { sid: 'x', status: 'ok' } }, { type: 'client_report', payload: {} }]));
    expectStatus(ok, 200);
    assert.deepEqual(ok.body, {});
    expectStatus(await send('envelope', envelope([{ type: 'event', payload: boom({ email: 'b@example.com' }) }]), { gzip: true, header: true }), 200);
    expectStatus(await send('store', JSON.stringify(boom({ id: '1' })), { gzip: true }), 200);
    expectStatus(await send('store', JSON.stringify({ message: 'collector hello', level: 'info', user: { ip_address: '10.0.0.1' } }), { header: true }), 200);
    // Another message and another culprit make other errors.
    expectStatus(await send('envelope', envelope([{ type: 'event', payload: exceptionEvent('TypeError', 'collector boom', undefined, 'elsewhere') }])), 200);
    const [one, ...rest] = await errorsNamed('TypeError: collector boom');
    assert.equal(rest.length, 1);
    const e = rest.find((r) => r.count === 3) ?? one;
    assert.equal(e.count, 3);
    assert.equal(e.user_count, 2);
    assert.equal(e.status, 'unresolved');
    assert.equal(e.culprit, 'handler(/app/server.js)');
    assert.equal(e.frequency.length, 24);
    assert.equal(e.frequency.at(-1)![1], 3);
    const [message] = await errorsNamed('collector hello');
    assert.deepEqual([message.title, message.count, message.user_count], ['collector hello', 1, 1]);
  });

  it('404 for an unknown project, a project with tracking off, another project’s key or a deleted key; nothing recorded', async () => {
    const body = envelope([{ type: 'event', payload: exceptionEvent('RefusedError', 'never recorded') }]);
    expectStatus(await send('envelope', body, { projectId: 2_000_000_000 }), 404);
    expectStatus(await send('envelope', body, { projectId: other.id }), 404);
    expectStatus(await send('envelope', body, { publicKey: otherKey.public_key }), 404);
    expectStatus(await send('store', body, { projectId: 2_000_000_000, publicKey: null }), 404);
    const doomed = (await api(`${base()}/client_keys`, { method: 'POST' })).body;
    expectStatus(await api(`${base()}/client_keys/${doomed.id}`, { method: 'DELETE' }), 200);
    expectStatus(await send('envelope', body, { publicKey: doomed.public_key }), 404);
    const off = await buildProject((await buildGroup()).id);
    const offKey = (await api(`/projects/${off.id}/error_tracking/client_keys`, { method: 'POST' })).body;
    expectStatus(await send('envelope', body, { projectId: off.id, publicKey: offKey.public_key }), 404);
    expectStatus(await api(`/projects/${off.id}/error_tracking/settings`, { method: 'PUT', json: { active: true, integrated: false } }), 200);
    expectStatus(await send('envelope', body, { projectId: off.id, publicKey: offKey.public_key }), 404);
    expectStatus(await send('envelope', body, { projectId: 'nope' as never }), 404);
    assert.deepEqual(await errorsNamed('never recorded'), []);
  });

  it('400 for no key at all or a body it cannot read, 413 past its size; nothing recorded', async () => {
    // No key at all, where the project collects: a request the platform cannot read either.
    expectStatus(await send('store', JSON.stringify({ message: 'never recorded' }), { publicKey: null }), 400);
    expectStatus(await send('envelope', 'not json\n{}'), 400);
    expectStatus(await send('envelope', `{}\n{"type":"event","length":500}\n{}`), 400);
    expectStatus(await send('store', '{"broken'), 400);
    expectStatus(await send('store', JSON.stringify({ level: 'error' })), 400);
    expectStatus(await post(`/error_tracking/collector/api/${project.id}/store?sentry_key=${key.public_key}`, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }, 'plainly not gzip'), 400);
    const huge = JSON.stringify({ message: 'x'.repeat(5 * 1024 * 1024) });
    expectStatus(await send('store', huge, { gzip: true }), 413);
    expectStatus(await send('store', huge.slice(0, 1024 * 1024 + 10)), 413);
  });

  it('429 once a key has sent its share in the window; another key is still taken', async () => {
    const own = (await api(`${base()}/client_keys`, { method: 'POST' })).body;
    const body = JSON.stringify({ message: 'rate limited message' });
    const statuses = await Promise.all(Array.from({ length: RATE }, async () => (await send('store', body, { publicKey: own.public_key })).status));
    assert.deepEqual(statuses, Array(RATE).fill(200));
    const refused = await send('store', body, { publicKey: own.public_key });
    expectStatus(refused, 429);
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    expectStatus(await send('store', body), 200);
    const [e] = await errorsNamed('rate limited message');
    assert.equal(e.count, RATE + 1);
  });
});

describe('retention', () => {
  it('housekeeping drops errors not seen for 90 days, with their events; newer ones stay', async () => {
    expectStatus(await send('store', JSON.stringify({ message: 'retention old' })), 200);
    expectStatus(await send('store', JSON.stringify({ message: 'retention new' })), 200);
    const [old] = await errorsNamed('retention old');
    await server.running.db.updateTable('error_tracking_errors').set({ last_seen_at: new Date(Date.now() - 91 * 86_400_000).toISOString() }).where('id', '=', old.id).execute();
    const purged = await purgeOldErrors(server.running.db);
    assert.ok(purged.errors >= 1);
    assert.deepEqual(await errorsNamed('retention old'), []);
    assert.equal((await errorsNamed('retention new')).length, 1);
    const events = await server.running.db.selectFrom('error_tracking_error_events').select('id').where('error_id', '=', old.id).execute();
    assert.deepEqual(events, []);
  });
});

describe('reading errors', () => {
  let id: number;
  before(async () => {
    const event = exceptionEvent('RangeError', 'reading errors', { username: 'ann' });
    expectStatus(await send('envelope', envelope([{ type: 'event', payload: event }, { type: 'event', payload: { ...event, user: { username: 'bob' } } }])), 200);
    id = (await errorsNamed('RangeError: reading errors'))[0].id;
  });

  it('GET /errors: newest last seen first, filters by status and text, sorts, paginates with the platform’s headers; Guests 403, strangers 404', async () => {
    expectStatus(await send('store', JSON.stringify({ message: 'reading newest' })), 200);
    const list = await api(`${base()}/errors?per_page=2`, { token: reporter.token });
    expectStatus(list, 200);
    assert.equal(list.body[0].title, 'reading newest');
    assert.equal(list.headers.get('x-per-page'), '2');
    assert.ok(Number(list.headers.get('x-total')) >= 3);
    assert.match(list.headers.get('link') ?? '', /rel="next"/);
    const byCount = (await api(`${base()}/errors?sort=frequency`, { token: reporter.token })).body as { count: number }[];
    assert.deepEqual(byCount.map((e) => e.count), [...byCount.map((e) => e.count)].sort((a, b) => b - a));
    expectStatus(await api(`${base()}/errors?status=ignored`, { token: reporter.token }), 200);
    expectStatus(await api(`${base()}/errors?status=gone`, { token: reporter.token }), 400);
    expectStatus(await api(`${base()}/errors?sort=random`, { token: reporter.token }), 400);
    expectStatus(await api(`${base()}/errors`, { token: guest.token }), 403);
    expectStatus(await api(`${base()}/errors`, { token: stranger.token }), 404);
    expectStatus(await api(`${base()}/errors`, { token: null }), 401);
  });

  it('GET /errors/:error_id: the stack trace in the SDK’s order with context; 404 for another project’s or an unknown error', async () => {
    const res = await api(`${base()}/errors/${id}`, { token: reporter.token });
    expectStatus(res, 200);
    const e = expectShape(trackedErrorDetails, res.body);
    assert.equal(e.user_count, 2);
    assert.deepEqual(e.stack_trace_entries.map((f) => f.function), ['run', 'handler']);
    assert.deepEqual(e.stack_trace_entries[1], { filename: '/app/server.js', function: 'handler', lineNo: 42, colNo: 7, context: [[40, 'a'], [41, 'b'], [42, 'throw e'], [43, 'c']], in_app: true });
    assert.equal(e.frequency_30_days.length, 30);
    assert.equal(e.frequency_30_days.at(-1)![1], 2);
    assert.equal(e.gitlab_issue, null);
    expectStatus(await api(`/projects/${other.id}/error_tracking/errors/${id}`), 404);
    expectStatus(await api(`${base()}/errors/999999999`), 404);
    expectStatus(await api(`${base()}/errors/abc`), 404);
  });

  it('PUT /errors/:error_id: resolves and ignores (Reporter); a resolved error happening again is unresolved; 400 for another status, 403 for a Guest', async () => {
    const resolved = await api(`${base()}/errors/${id}`, { method: 'PUT', token: reporter.token, json: { status: 'resolved' } });
    expectStatus(resolved, 200);
    assert.equal(resolved.body.status, 'resolved');
    assert.deepEqual((await errorsNamed('RangeError: reading errors')).map((e) => e.status), ['resolved']);
    expectStatus(await send('store', JSON.stringify(exceptionEvent('RangeError', 'reading errors'))), 200);
    const again = (await api(`${base()}/errors/${id}`, { token: reporter.token })).body;
    assert.deepEqual([again.status, again.count], ['unresolved', 3]);
    expectStatus(await api(`${base()}/errors/${id}`, { method: 'PUT', token: reporter.token, json: { status: 'ignored' } }), 200);
    const list = (await api(`${base()}/errors?status=ignored`, { token: reporter.token })).body as { id: number }[];
    assert.deepEqual(list.map((e) => e.id), [id]);
    expectStatus(await api(`${base()}/errors/${id}`, { method: 'PUT', token: reporter.token, json: { status: 'fixed' } }), 400);
    expectStatus(await api(`${base()}/errors/${id}`, { method: 'PUT', token: guest.token, json: { status: 'resolved' } }), 403);
  });

  it('GET /errors/:error_id/events: newest first, paginated, each with its user and frames', async () => {
    const res = await api(`${base()}/errors/${id}/events?per_page=2`, { token: reporter.token });
    expectStatus(res, 200);
    assert.equal(res.headers.get('x-total'), '3');
    const events = z.array(trackedErrorEvent).parse(res.body);
    assert.equal(events.length, 2);
    assert.equal(events[1].user?.username, 'bob');
    assert.equal(events[1].stack_trace_entries.length, 2);
    expectStatus(await api(`${base()}/errors/${id}/events`, { token: guest.token }), 403);
  });

  it('POST /errors/:error_id/issue: an issue holding the stack trace and a link back; the error links to it', async () => {
    const made = await api(`${base()}/errors/${id}/issue`, { method: 'POST', token: reporter.token });
    expectStatus(made, 201);
    assert.equal(made.body.title, 'Error: RangeError: reading errors');
    assert.match(made.body.description, /at handler \(\/app\/server\.js:42:7\)/);
    assert.ok(made.body.description.includes(`/projects/${project.path_with_namespace}/-/error_tracking/${id}`));
    const e = (await api(`${base()}/errors/${id}`, { token: reporter.token })).body;
    assert.equal(e.gitlab_issue_iid, made.body.iid);
    assert.equal(e.gitlab_issue, made.body.web_url);
    expectStatus(await api(`${base()}/errors/${id}/issue`, { method: 'POST', token: guest.token }), 403);
    expectStatus(await api(`${base()}/errors/0/issue`, { method: 'POST', token: reporter.token }), 404);
  });
});
