import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { migrate, openDb, type Db } from '../db/index.ts';
import { applyTemplate, branchMatches, purgeHookLogs } from './hook-delivery.ts';
import { nowIso } from '../util/time.ts';

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
    const h = await db.insertInto('web_hooks').values({ uuid: 'u', scope: 'group', group_id: g.id, project_id: null, url: 'http://x', encrypted_token: null, encrypted_custom_headers: null, encrypted_url_variables: null, custom_webhook_template: null, push_events_branch_filter: null, disabled_until: null, created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow();
    const log = (created_at: string) => ({ web_hook_id: h.id, trigger: 'push_hooks', url: 'http://x', request_headers: '{}', request_data: '{}', response_headers: '{}', response_body: '', response_status: '200', execution_duration: 0.1, internal_error_message: null, idempotency_key: 'k', event_uuid: 'e', created_at });
    await db.insertInto('web_hook_logs').values([log(new Date(Date.now() - 8 * 86_400_000).toISOString()), log(new Date(Date.now() - 6 * 86_400_000).toISOString()), log(now)]).execute();
    assert.equal(await purgeHookLogs(db, 7), 1);
    assert.equal((await db.selectFrom('web_hook_logs').select('id').execute()).length, 2);
  });
});
