import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { groupPushRule, checkAgainstPushRule, pushRuleAllows } from '../../../shared/src/group-push-rules.ts';
import { buildGroup, expectShape, expectStatus, request as api, startTestServer, userWithRole, type TestServer } from '../../test/harness.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

async function setup() {
  const group = await buildGroup();
  const owner = await userWithRole(group.id, 50);
  return { group, owner, path: `/groups/${group.id}/push_rule` };
}

describe('GET /groups/:id/push_rule', () => {
  it('answers 404 with a message body when never configured', async () => {
    const { path, owner } = await setup();
    const res = await api(path, { token: owner.token });
    expectStatus(res, 404);
    assert.deepEqual(res.body, { message: '404 Push Rule Not Found' });
  });
  it('returns the rule with nulls for the disabled checks the platform reports as null', async () => {
    const { path, owner } = await setup();
    expectStatus(await api(path, { method: 'POST', token: owner.token, json: { deny_delete_tag: true } }), 201);
    const res = await api(path, { token: owner.token });
    expectStatus(res, 200);
    const rule = expectShape(groupPushRule, res.body);
    assert.equal(rule.deny_delete_tag, true);
    assert.equal(rule.commit_committer_check, null);
    assert.equal(rule.reject_unsigned_commits, null);
    assert.equal(rule.reject_non_dco_commits, null);
    assert.equal(rule.member_check, false);
    assert.equal(rule.max_file_size, 0);
    assert.equal(rule.commit_message_regex, null);
  });
});

describe('POST /groups/:id/push_rule', () => {
  it('creates the rule with every field', async () => {
    const { path, owner } = await setup();
    const body = {
      commit_message_regex: '^(feat|fix): ',
      commit_message_negative_regex: 'ssh-rsa',
      branch_name_regex: '^(main|feature/.+)$',
      author_email_regex: '@example\\.com$',
      file_name_regex: '\\.(exe|dll)$',
      deny_delete_tag: true,
      member_check: true,
      prevent_secrets: true,
      commit_committer_check: true,
      commit_committer_name_check: true,
      reject_unsigned_commits: true,
      reject_non_dco_commits: true,
      max_file_size: 25,
    };
    const res = await api(path, { method: 'POST', token: owner.token, json: body });
    expectStatus(res, 201);
    const rule = expectShape(groupPushRule, res.body);
    for (const [k, v] of Object.entries(body)) assert.deepEqual(rule[k as keyof typeof rule], v, k);
  });
  it('answers 422 when a rule exists, and keeps it', async () => {
    const { path, owner } = await setup();
    await api(path, { method: 'POST', token: owner.token, json: { max_file_size: 5 } });
    const res = await api(path, { method: 'POST', token: owner.token, json: { max_file_size: 9 } });
    expectStatus(res, 422);
    assert.equal((await api(path, { token: owner.token })).body.max_file_size, 5);
  });
  describe('with invalid parameters', () => {
    for (const [what, body, field] of [
      ['a pattern that does not compile', { branch_name_regex: '(unclosed' }, 'branch_name_regex'],
      ['a lookahead, which RE2 does not support', { commit_message_regex: '^(?!WIP).+' }, 'commit_message_regex'],
      ['a pattern over 511 characters', { file_name_regex: 'a'.repeat(512) }, 'file_name_regex'],
      ['a rejected-message pattern over 2047 characters', { commit_message_negative_regex: 'a'.repeat(2048) }, 'commit_message_negative_regex'],
      ['a negative size', { max_file_size: -1 }, 'max_file_size'],
      ['a text flag', { member_check: 'sometimes' }, 'member_check'],
    ] as const) {
      it(`answers 400 naming the field for ${what}, creating nothing`, async () => {
        const { path, owner } = await setup();
        const res = await api(path, { method: 'POST', token: owner.token, json: body });
        expectStatus(res, 400);
        assert.ok(res.body.message[field], JSON.stringify(res.body));
        expectStatus(await api(path, { token: owner.token }), 404);
      });
    }
    it('answers 400 without any parameter', async () => {
      const { path, owner } = await setup();
      const res = await api(path, { method: 'POST', token: owner.token, json: {} });
      expectStatus(res, 400);
      assert.deepEqual(res.body, { message: 'at least one parameter must be provided' });
    });
  });
  describe('without the role', () => {
    it('answers 403 to a Maintainer, 401 without a token, 404 for an unknown group', async () => {
      const { group, path } = await setup();
      const maintainer = await userWithRole(group.id, 40);
      expectStatus(await api(path, { method: 'POST', token: maintainer.token, json: { deny_delete_tag: true } }), 403);
      expectStatus(await api(path, { token: maintainer.token }), 403);
      expectStatus(await api(path, { method: 'POST', token: null, json: { deny_delete_tag: true } }), 401);
      expectStatus(await api('/groups/987654/push_rule', { method: 'POST', json: { deny_delete_tag: true } }), 404);
    });
    it('lets an administrator in', async () => {
      const { path } = await setup();
      expectStatus(await api(path, { method: 'POST', json: { prevent_secrets: true } }), 201);
    });
  });
});

describe('PUT /groups/:id/push_rule', () => {
  it('changes the given fields only, and clears a pattern with null', async () => {
    const { path, owner } = await setup();
    await api(path, { method: 'POST', token: owner.token, json: { branch_name_regex: '^main$', member_check: true } });
    const res = await api(path, { method: 'PUT', token: owner.token, form: { max_file_size: '10', branch_name_regex: '^dev$' } });
    expectStatus(res, 200);
    assert.equal(res.body.max_file_size, 10);
    assert.equal(res.body.branch_name_regex, '^dev$');
    assert.equal(res.body.member_check, true);
    const cleared = await api(path, { method: 'PUT', token: owner.token, json: { branch_name_regex: null } });
    assert.equal(cleared.body.branch_name_regex, null);
  });
  it('answers 404 when no rule exists and 400 for a bad pattern, changing nothing', async () => {
    const { path, owner } = await setup();
    expectStatus(await api(path, { method: 'PUT', token: owner.token, json: { member_check: true } }), 404);
    await api(path, { method: 'POST', token: owner.token, json: { commit_message_regex: 'ok' } });
    const bad = await api(path, { method: 'PUT', token: owner.token, json: { commit_message_regex: '[z-a]', member_check: true } });
    expectStatus(bad, 400);
    const now = (await api(path, { token: owner.token })).body;
    assert.equal(now.commit_message_regex, 'ok');
    assert.equal(now.member_check, false);
  });
});

describe('patterns are RE2, as on the platform (POST and PUT)', () => {
  it('accepts RE2 syntax JavaScript lacks, such as (?i), and the saved pattern matches with it', async () => {
    const { path, owner } = await setup();
    const created = await api(path, { method: 'POST', token: owner.token, json: { commit_message_regex: '(?i)^(feat|fix): .+' } });
    expectStatus(created, 201);
    const saved = expectShape(groupPushRule, created.body).commit_message_regex!;
    assert.equal(saved, '(?i)^(feat|fix): .+');
    assert.ok(pushRuleAllows('commit_message_regex', saved, 'FIX: x'));
    assert.ok(!pushRuleAllows('commit_message_regex', saved, 'chore: x'));
    const changed = await api(path, { method: 'PUT', token: owner.token, form: { branch_name_regex: '(?i)^(main|release/\\d+)$' } });
    expectStatus(changed, 200);
    assert.ok(pushRuleAllows('branch_name_regex', changed.body.branch_name_regex, 'Release/12'));
  });
  it('refuses a lookahead with 400 naming the field and saying why, on POST and PUT, changing nothing', async () => {
    const { path, owner } = await setup();
    const refused = await api(path, { method: 'POST', token: owner.token, json: { commit_message_negative_regex: '^(?!WIP).+' } });
    expectStatus(refused, 400);
    assert.deepEqual(refused.body, { message: { commit_message_negative_regex: ['uses a lookahead (?!…), which RE2 does not support'] } });
    expectStatus(await api(path, { token: owner.token }), 404);
    expectStatus(await api(path, { method: 'POST', token: owner.token, json: { branch_name_regex: '^main$' } }), 201);
    const put = await api(path, { method: 'PUT', token: owner.token, json: { branch_name_regex: '^(?!WIP).+', member_check: true } });
    expectStatus(put, 400);
    assert.deepEqual(put.body, { message: { branch_name_regex: ['uses a lookahead (?!…), which RE2 does not support'] } });
    const now = (await api(path, { token: owner.token })).body;
    assert.equal(now.branch_name_regex, '^main$');
    assert.equal(now.member_check, false);
  });
  it('says what is wrong for the other common mistakes', async () => {
    const { path, owner } = await setup();
    for (const [pattern, reason] of [
      ['feature/(', 'has an unclosed group: a ( is missing its ) (write \\( for a literal parenthesis)'],
      ['*.exe', 'has an invalid repetition: * follows nothing it could repeat (write \\* for a literal *)'],
      ['(\\w+)\\1', 'uses a backreference \\1, which RE2 does not support'],
    ]) {
      const res = await api(path, { method: 'POST', token: owner.token, json: { file_name_regex: pattern } });
      expectStatus(res, 400);
      assert.deepEqual(res.body, { message: { file_name_regex: [reason] } }, pattern);
    }
  });
  it('accepts a pattern that stalls a backtracking engine, and matches it in linear time', async () => {
    const { path, owner } = await setup();
    const res = await api(path, { method: 'POST', token: owner.token, json: { author_email_regex: '(a+)+$', commit_message_negative_regex: '^(\\w+\\s?)*$' } });
    expectStatus(res, 201);
    const rule = expectShape(groupPushRule, res.body);
    // JavaScript's RegExp takes about 12 s for the first, and doubles with each further "a".
    const start = performance.now();
    assert.equal(pushRuleAllows('author_email_regex', rule.author_email_regex!, `${'a'.repeat(30)}!`), false);
    assert.equal(pushRuleAllows('commit_message_negative_regex', rule.commit_message_negative_regex!, `${'word '.repeat(25)}!`), true);
    const ms = performance.now() - start;
    assert.ok(ms < 1_000, `${ms.toFixed(0)} ms`);
  });
});

describe('DELETE /groups/:id/push_rule', () => {
  it('removes the rule (204), then answers 404', async () => {
    const { path, owner, group } = await setup();
    await api(path, { method: 'POST', token: owner.token, json: { member_check: true } });
    const maintainer = await userWithRole(group.id, 40);
    expectStatus(await api(path, { method: 'DELETE', token: maintainer.token }), 403);
    const res = await api(path, { method: 'DELETE', token: owner.token });
    expectStatus(res, 204);
    assert.equal(res.text, '');
    expectStatus(await api(path, { token: owner.token }), 404);
    expectStatus(await api(path, { method: 'DELETE', token: owner.token }), 404);
  });
});

describe('checkAgainstPushRule (the console’s live tester)', () => {
  it('allows what matches allow-lists and rejects what matches deny-lists', () => {
    const rule = { commit_message_regex: '^feat', commit_message_negative_regex: 'secret', branch_name_regex: '^main$', file_name_regex: '\\.exe$' };
    const ok = checkAgainstPushRule(rule, { commit_message: 'feat: x', branch_name: 'main', file_name: 'a.txt' });
    assert.ok(ok.every((r) => r.ok));
    const bad = checkAgainstPushRule(rule, { commit_message: 'fix: secret', branch_name: 'dev', file_name: 'a.exe' });
    assert.deepEqual(bad.filter((r) => !r.ok).map((r) => r.field).sort(), ['branch_name_regex', 'commit_message_negative_regex', 'commit_message_regex', 'file_name_regex']);
  });
});
