import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { groupPushRuleBody, type GroupPushRule } from '../../../../shared/src/group-push-rules.ts';
import { EMPTY_RULE, FIELD_LABELS, isField, toBody, toFormValues } from './push-rule-model.ts';

const rule = (over: Partial<GroupPushRule> = {}): GroupPushRule => ({
  id: 1,
  created_at: '2025-01-02T03:04:05.000Z',
  commit_message_regex: 'JIRA-\\d+',
  commit_message_negative_regex: null,
  branch_name_regex: null,
  deny_delete_tag: true,
  member_check: false,
  prevent_secrets: true,
  author_email_regex: '@acme\\.com$',
  file_name_regex: null,
  max_file_size: 25,
  commit_committer_check: null,
  commit_committer_name_check: false,
  reject_unsigned_commits: null,
  reject_non_dco_commits: true,
  ...over,
});

describe('toFormValues', () => {
  it('starts a group without a rule empty: no patterns, every switch off, no size limit', () => {
    const v = toFormValues(null);
    assert.deepEqual(v, EMPTY_RULE);
    assert.equal(v.commit_message_regex, '');
    assert.equal(v.prevent_secrets, false);
    assert.equal(v.max_file_size, 0);
  });
  it('gives a copy, so editing the form leaves the empty rule empty', () => {
    const v = toFormValues(null);
    v.commit_message_regex = 'x';
    v.member_check = true;
    assert.equal(EMPTY_RULE.commit_message_regex, '');
    assert.equal(EMPTY_RULE.member_check, false);
  });
  it('fills the rule: a missing pattern as empty text, a flag the platform left null as off', () => {
    const v = toFormValues(rule());
    assert.equal(v.commit_message_regex, 'JIRA-\\d+');
    assert.equal(v.author_email_regex, '@acme\\.com$');
    assert.equal(v.branch_name_regex, '');
    assert.equal(v.file_name_regex, '');
    assert.equal(v.deny_delete_tag, true);
    assert.equal(v.reject_non_dco_commits, true);
    assert.equal(v.commit_committer_check, false);
    assert.equal(v.reject_unsigned_commits, false);
    assert.equal(v.max_file_size, 25);
  });
  it('has nothing but the form fields (no id, no date)', () => {
    assert.deepEqual(Object.keys(toFormValues(rule())).sort(), Object.keys(EMPTY_RULE).sort());
  });
});

describe('toBody', () => {
  it('sends every field, an empty pattern as null (which clears it)', () => {
    const parsed = groupPushRuleBody.parse({ ...toFormValues(rule()), commit_message_regex: '' });
    const body = toBody(parsed);
    assert.equal(body.commit_message_regex, null);
    assert.equal(body.branch_name_regex, null);
    assert.equal(body.author_email_regex, '@acme\\.com$');
    assert.equal(body.deny_delete_tag, true);
    assert.equal(body.member_check, false);
    assert.equal(body.max_file_size, 25);
    assert.equal(Object.keys(body).length, Object.keys(EMPTY_RULE).length);
  });
  it('leaves the parsed values as they were', () => {
    const parsed = groupPushRuleBody.parse({ ...EMPTY_RULE, max_file_size: '10' });
    toBody(parsed);
    assert.equal(parsed.commit_message_regex, '');
    assert.equal(parsed.max_file_size, 10);
  });
  it('saves what the form shows: the saved rule fills the same form', () => {
    const shown = { ...toFormValues(rule()), file_name_regex: '\\.exe$' };
    const body = toBody(groupPushRuleBody.parse(shown));
    const saved = rule({ ...body, commit_message_negative_regex: body.commit_message_negative_regex ?? null } as Partial<GroupPushRule>);
    assert.deepEqual(toFormValues(saved), shown);
  });
});

describe('the form refuses what the server refuses', () => {
  it('a pattern RE2 cannot read, with the reason under its field', () => {
    const result = groupPushRuleBody.safeParse({ ...EMPTY_RULE, branch_name_regex: '(unclosed' });
    assert.equal(result.success, false);
    assert.deepEqual(result.error?.issues.map((i) => i.path.join('.')), ['branch_name_regex']);
  });
  it('a size outside 0 to 2,000,000 MB', () => {
    assert.equal(groupPushRuleBody.safeParse({ ...EMPTY_RULE, max_file_size: -1 }).success, false);
    assert.equal(groupPushRuleBody.safeParse({ ...EMPTY_RULE, max_file_size: 2_000_001 }).success, false);
    assert.equal(groupPushRuleBody.safeParse({ ...EMPTY_RULE, max_file_size: 2_000_000 }).success, true);
  });
});

describe('isField and FIELD_LABELS', () => {
  it('name every form field, and only those', () => {
    for (const f of Object.keys(EMPTY_RULE)) assert.ok(isField(f), f);
    assert.equal(isField('id'), false);
    assert.equal(isField('base'), false);
    assert.equal(FIELD_LABELS.max_file_size, 'Maximum file size');
  });
});
