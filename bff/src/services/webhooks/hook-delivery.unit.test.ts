import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { migrate, openDb, type Db } from '../../db/index.ts';
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { Vault } from '../../auth/vault.ts';
import type { Config } from '../../config.ts';
import { enqueueMany } from '../../queue/queue.ts';
import { startWorkers } from '../../queue/worker.ts';
import { applyTemplate, branchMatches, purgeHookLogs, recordDeliveries, TEMPORARY_DISABLE_AFTER, type DeliveryOutcome } from './hook-delivery.ts';
import { hookDeliveryJob } from '../../jobs/hook-delivery.ts';
import { nowIso } from '../../util/time.ts';

/** A hook row (no group needed for what these tests check). */
const insertHook = (db: Db, fields: { uuid: string; url: string; group_id?: number | null }) => {
  const now = nowIso();
  return db
    .insertInto('web_hooks')
    .values({ group_id: null, ...fields, scope: 'group', project_id: null, encrypted_token: null, encrypted_custom_headers: null, encrypted_url_variables: null, custom_webhook_template: null, push_events_branch_filter: null, disabled_until: null, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
};

describe('applyTemplate', () => {
  it('fills placeholders: strings escaped inside quotes, other values as JSON, missing ones empty', () => {
    const out = applyTemplate('{"a":"{{user.name}}","n":{{count}},"o":{{obj}},"m":"{{missing}}"}', { user: { name: 'Ann "A"' }, count: 3, obj: { x: [1] } });
    assert.deepEqual(JSON.parse(out), { a: 'Ann "A"', n: 3, o: { x: [1] }, m: '' });
  });
});

describe('branchMatches', () => {
  const hook = (filter: string | null, strategy = 'wildcard') => ({ push_events_branch_filter: filter, branch_filter_strategy: strategy });
  it('matches wildcards, lists of them, regexes, and everything without a filter', () => {
    assert.ok(branchMatches(hook(null), 'refs/heads/any'));
    assert.ok(branchMatches(hook('release/*'), 'refs/heads/release/1.2'));
    assert.ok(!branchMatches(hook('release/*'), 'refs/heads/main'));
    assert.ok(branchMatches(hook('main, release/*'), 'refs/heads/main'));
    assert.ok(branchMatches(hook('^feat-\\d+$', 'regex'), 'refs/heads/feat-12'));
    assert.ok(!branchMatches(hook('^feat-\\d+$', 'regex'), 'refs/heads/feat-x'));
    assert.ok(branchMatches(hook('main', 'all_branches'), 'refs/heads/dev'));
    assert.ok(!branchMatches(hook('ma.n'), 'refs/heads/main'), 'a dot is a dot in a wildcard');
  });
  it('matches regex filters with RE2, unanchored, as the platform', () => {
    assert.ok(branchMatches(hook('(?i)^release/', 'regex'), 'refs/heads/RELEASE/1.0'));
    assert.ok(branchMatches(hook('feat', 'regex'), 'refs/heads/my-feat'), 'a search, not a whole-name match');
    assert.ok(!branchMatches(hook('^feat', 'regex'), 'refs/heads/my-feat'));
    assert.ok(branchMatches(hook('^release/\\d+\\z', 'regex'), 'refs/heads/release/12'));
  });
  it('matches nothing with a regex filter RE2 refuses (saved before it was checked), instead of throwing', () => {
    assert.equal(branchMatches(hook('^(?!main$)', 'regex'), 'refs/heads/dev'), false);
    assert.equal(branchMatches(hook('(\\w+)\\1', 'regex'), 'refs/heads/aa'), false);
  });
  it('decides in linear time, whatever the filter and the branch name', () => {
    // On a backtracking engine each of these stalls: the first takes about 12 s on V8, and the
    // wildcard (which was a RegExp `^a.*a.*…b$`) minutes with only 6 stars.
    const cases: [string, string, string][] = [
      ['(a+)+$', 'regex', `refs/heads/${'a'.repeat(30)}!`],
      ['^(a|aa)*$', 'regex', `refs/heads/${'a'.repeat(40)}!`],
      [`${'a*'.repeat(30)}b`, 'wildcard', `refs/heads/${'a'.repeat(200)}`],
    ];
    for (const [filter, strategy, ref] of cases) {
      const start = performance.now();
      const result = branchMatches(hook(filter, strategy), ref);
      const ms = performance.now() - start;
      assert.equal(result, false, filter);
      assert.ok(ms < 1_000, `${filter}: ${ms.toFixed(0)} ms`);
    }
  });
});

describe('purgeHookLogs', () => {
  let db: Db;
  before(async () => {
    db = openDb({ sqliteFile: ':memory:' });
    await migrate(db);
  });
  after(() => db.destroy());
  it('removes only records older than the retention window', async () => {
    const now = nowIso();
    const g = await db.insertInto('groups').values({ name: 'g', path: 'g', full_name: 'g', full_path: 'g', traversal: '/1/', description: '', visibility: 'private', parent_id: null, runners_token: 't', default_branch_protection_defaults: '{}', created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow();
    const h = await insertHook(db, { uuid: 'u', url: 'http://x', group_id: g.id });
    const log = (created_at: string) => ({ web_hook_id: h.id, trigger: 'push_hooks', url: 'http://x', request_headers: '{}', request_data: '{}', response_headers: '{}', response_body: '', response_status: '200', execution_duration: 0.1, internal_error_message: null, idempotency_key: 'k', event_uuid: 'e', created_at });
    await db.insertInto('web_hook_logs').values([log(new Date(Date.now() - 8 * 86_400_000).toISOString()), log(new Date(Date.now() - 6 * 86_400_000).toISOString()), log(now)]).execute();
    assert.equal(await purgeHookLogs(db, 7), 1);
    assert.equal((await db.selectFrom('web_hook_logs').select('id').execute()).length, 2);
  });
});

describe('recordDeliveries', () => {
  let db: Db;
  before(async () => {
    db = openDb({ sqliteFile: ':memory:' });
    await migrate(db);
  });
  after(() => db.destroy());

  it('writes a batch of deliveries as if one by one: a success clears the count, 4 failures in a row rest the hook (1 min, doubling), 40 disable it', async () => {
    const h = await insertHook(db, { uuid: 'u2', url: 'http://x' });
    const other = await insertHook(db, { uuid: 'u3', url: 'http://y' });
    const delivery = (hookId: number, ok: boolean): DeliveryOutcome => ({
      ok,
      hookUuid: String(hookId),
      log: { web_hook_id: hookId, trigger: 'push_hooks', url: 'http://x', request_headers: '{}', request_data: '{}', response_headers: '{}', response_body: '', response_status: ok ? '200' : '500', execution_duration: 0.01, internal_error_message: null, idempotency_key: crypto.randomUUID(), event_uuid: 'e', created_at: nowIso() },
    });
    const hook = (id: number) => db.selectFrom('web_hooks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const write = (list: DeliveryOutcome[]) => db.transaction().execute((trx) => recordDeliveries(trx, list));

    // Three failures, a success, then five failures (interleaved with another hook's successes):
    // failures 4 and 5 after the success rest the hook for 1, then 2 minutes.
    const fails = (n: number) => Array.from({ length: n }, () => delivery(h.id, false));
    const ids = await write([...fails(3), delivery(other.id, true), delivery(h.id, true), ...fails(2), delivery(other.id, true), ...fails(3)]);
    assert.equal(ids.length, 11);
    let row = await hook(h.id);
    assert.equal(row.recent_failures, 5);
    assert.equal(row.backoff_count, 2);
    const rest = Date.parse(row.disabled_until!) - Date.now();
    assert.ok(rest > 110_000 && rest <= 120_000, `rests for 2 minutes (${rest} ms)`);
    assert.equal(row.permanently_disabled, 0);
    assert.equal((await hook(other.id)).recent_failures, 0);

    // 35 more: the 40th failure in a row disables the hook for good.
    await write(fails(35));
    row = await hook(h.id);
    assert.equal(row.recent_failures, 40);
    assert.equal(row.permanently_disabled, 1);
    assert.equal(row.disabled_until, null);

    // A success clears everything; every delivery was logged.
    await write([delivery(h.id, true)]);
    row = await hook(h.id);
    assert.deepEqual([row.recent_failures, row.backoff_count, row.disabled_until, row.permanently_disabled], [0, 0, null, 0]);
    assert.equal((await db.selectFrom('web_hook_logs').select('id').where('web_hook_id', '=', h.id).execute()).length, 9 + 35 + 1);
  });
});

describe('queued deliveries to a failing receiver', () => {
  let db: Db;
  let server: http.Server;
  let url: string;
  let received = 0;
  before(async () => {
    db = openDb({ sqliteFile: ':memory:' });
    await migrate(db);
    await db.insertInto('application_settings').values({ key: 'allow_local_requests_from_web_hooks_and_services', value: 'true', updated_at: nowIso() }).execute();
    server = http.createServer((req, res) => {
      received++;
      req.resume();
      req.on('end', () => res.writeHead(500).end('down'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  after(async () => {
    await new Promise((resolve) => server.close(resolve));
    await db.destroy();
  });

  it('stop once the hook rests, though the whole backlog was claimed in one batch', async () => {
    const h = await insertHook(db, { uuid: crypto.randomUUID(), url });
    await enqueueMany(
      db,
      hookDeliveryJob,
      Array.from({ length: 60 }, () => ({ hook_id: h.id, idempotency_key: crypto.randomUUID() })),
      { flag: 'push_events', data: { ref: 'refs/heads/main' }, event_uuid: crypto.randomUUID() },
    );
    const count = 1;
    // Deliveries in flight at once: the ones already on their way when the fourth failure comes back.
    const inFlight = count * (hookDeliveryJob.inFlightPerWorker ?? 1);
    const deps = { db, vault: new Vault(crypto.randomBytes(32)), files: {} as never, config: { hookTimeoutMs: 5_000 } as Config, logger: pino({ level: 'silent' }), instanceUrl: 'http://gatehouse' };
    const workers = startWorkers(deps, [hookDeliveryJob], { count, pollMs: 10 });
    try {
      const until = Date.now() + 10_000;
      const pending = () => db.selectFrom('jobs').select('id').where('state', '!=', 'done').execute();
      while ((await pending()).length && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    } finally {
      await workers.stop();
    }
    // The fourth failure rests the hook; only the deliveries already on their way still went out.
    assert.ok(received >= TEMPORARY_DISABLE_AFTER && received <= TEMPORARY_DISABLE_AFTER + inFlight - 1, `${received} deliveries`);
    const row = await db.selectFrom('web_hooks').selectAll().where('id', '=', h.id).executeTakeFirstOrThrow();
    assert.equal(row.recent_failures, received);
    assert.ok(row.disabled_until && row.disabled_until > nowIso());
    assert.equal(row.permanently_disabled, 0);
    assert.equal((await db.selectFrom('web_hook_logs').select('id').where('web_hook_id', '=', h.id).execute()).length, received);
  });
});
