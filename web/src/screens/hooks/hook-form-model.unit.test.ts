import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Webhook } from '../../../../shared/src/hooks.ts';
import { formPathOf, hookFormSchema, normalizeWildcard, rowErrors, toBody, toFormValues, type HookFormValues } from './hook-form-model.ts';

const hook = (over: Partial<Webhook> = {}): Webhook => ({
  id: 7,
  url: 'https://ci.example.com/hook',
  name: 'CI',
  description: 'Builds on push',
  created_at: '2025-01-02T03:04:05.000Z',
  group_id: 1,
  enable_ssl_verification: false,
  alert_status: 'executable',
  disabled_until: null,
  url_variables: [],
  push_events_branch_filter: null,
  branch_filter_strategy: 'all_branches',
  custom_webhook_template: null,
  custom_headers: [],
  push_events: true,
  tag_push_events: true,
  subgroup_events: true,
  ...over,
});

/** A new hook's form with some fields typed in. */
const values = (over: Partial<HookFormValues> = {}): HookFormValues => ({ ...toFormValues(null), url: 'https://ci.example.com/hook', ...over });

/** The form's messages by dotted path, as react-hook-form would show them. */
function problems(v: HookFormValues): Record<string, string> {
  const parsed = hookFormSchema.safeParse(v);
  if (parsed.success) return {};
  return Object.fromEntries(parsed.error.issues.map((i) => [i.path.join('.'), i.message]));
}

describe('toFormValues', () => {
  it('starts a new hook on push events, checking certificates, on every branch', () => {
    const v = toFormValues(null);
    assert.equal(v.events.push_events, true);
    assert.equal(v.events.tag_push_events, false);
    assert.equal(v.events.subgroup_events, false);
    assert.equal(v.enable_ssl_verification, true);
    assert.equal(v.branch_filter_strategy, 'all_branches');
    assert.equal(v.url, '');
    assert.equal(v.custom_headers_mode, 'replace');
    assert.equal(v.url_variables_mode, 'replace');
  });
  it('fills a hook, never its secrets', () => {
    const v = toFormValues(hook({ custom_headers: [{ key: 'X-Team' }], url_variables: [{ key: 'env' }] }));
    assert.equal(v.url, 'https://ci.example.com/hook');
    assert.equal(v.name, 'CI');
    assert.equal(v.enable_ssl_verification, false);
    assert.equal(v.events.tag_push_events, true);
    assert.equal(v.events.merge_requests_events, false);
    assert.equal(v.token, '');
    assert.equal(v.clear_token, false);
    assert.deepEqual(v.custom_headers, [{ key: 'X-Team', value: '' }]);
    assert.deepEqual(v.url_variables, [{ key: 'env', value: '' }]);
    assert.equal(v.custom_headers_mode, 'keep');
    assert.equal(v.url_variables_mode, 'keep');
  });
  it('shows an empty stored filter as every branch, whatever its strategy', () => {
    assert.equal(toFormValues(hook({ branch_filter_strategy: 'regex', push_events_branch_filter: '' })).branch_filter_strategy, 'all_branches');
    const kept = toFormValues(hook({ branch_filter_strategy: 'regex', push_events_branch_filter: '^release/' }));
    assert.equal(kept.branch_filter_strategy, 'regex');
    assert.equal(kept.push_events_branch_filter, '^release/');
  });
});

describe('normalizeWildcard', () => {
  it('drops the spaces and empty parts of a comma-separated list', () => {
    assert.equal(normalizeWildcard('main, release/* ,, feature/*'), 'main,release/*,feature/*');
    assert.equal(normalizeWildcard('  '), '');
  });
});

describe('toBody', () => {
  it('sends every field the form shows, trimmed', () => {
    const body = toBody(values({ url: '  https://ci.example.com/x ', name: ' CI ', description: ' d ' }), 'projects', null);
    assert.equal(body.url, 'https://ci.example.com/x');
    assert.equal(body.name, 'CI');
    assert.equal(body.description, 'd');
    assert.equal(body.enable_ssl_verification, true);
    assert.equal(body.branch_filter_strategy, 'all_branches');
    assert.equal(body.push_events_branch_filter, null);
    assert.equal(body.custom_webhook_template, null);
  });
  it('sends only the flags of the scope', () => {
    const events = { ...toFormValues(null).events, subgroup_events: true };
    assert.equal(toBody(values({ events }), 'groups', null).subgroup_events, true);
    assert.equal('subgroup_events' in toBody(values({ events }), 'projects', null), false);
    assert.equal(toBody(values({ events }), 'projects', null).push_events, true);
  });
  it('normalises a wildcard filter and trims a regex one', () => {
    assert.equal(toBody(values({ branch_filter_strategy: 'wildcard', push_events_branch_filter: 'main, release/*' }), 'groups', null).push_events_branch_filter, 'main,release/*');
    assert.equal(toBody(values({ branch_filter_strategy: 'regex', push_events_branch_filter: ' ^(main|dev)$ ' }), 'groups', null).push_events_branch_filter, '^(main|dev)$');
  });
  it('sends a secret only when one is typed, and an empty one to remove it', () => {
    assert.equal('token' in toBody(values(), 'groups', hook()), false);
    assert.equal(toBody(values({ token: 's3cret' }), 'groups', hook()).token, 's3cret');
    assert.equal(toBody(values({ token: 's3cret', clear_token: true }), 'groups', hook()).token, '');
    // A new hook has nothing to remove.
    assert.equal('token' in toBody(values({ clear_token: true }), 'groups', null), false);
  });
  it('sends a list only when it is being replaced, keys trimmed', () => {
    const stored = hook({ custom_headers: [{ key: 'X-Old' }] });
    assert.equal('custom_headers' in toBody({ ...toFormValues(stored), url: stored.url }, 'groups', stored), false);
    const replaced = toBody({ ...toFormValues(stored), custom_headers_mode: 'replace', custom_headers: [{ key: ' X-New ', value: ' v ' }] }, 'groups', stored);
    assert.deepEqual(replaced.custom_headers, [{ key: 'X-New', value: ' v ' }]);
    // Emptied on purpose: the stored list is removed.
    assert.deepEqual(toBody({ ...toFormValues(stored), custom_headers_mode: 'replace', custom_headers: [] }, 'groups', stored).custom_headers, []);
  });
  it('says nothing of a list that was empty and stays empty', () => {
    const body = toBody({ ...toFormValues(hook()), url: 'https://ci.example.com/hook' }, 'groups', hook());
    assert.equal('custom_headers' in body, false);
    assert.equal('url_variables' in body, false);
    // A new hook sends its (empty) lists.
    assert.deepEqual(toBody(values(), 'groups', null).url_variables, []);
  });
  it('sends a template as typed, and none when blank', () => {
    assert.equal(toBody(values({ custom_webhook_template: '{"a": {{object_kind}}}\n' }), 'groups', null).custom_webhook_template, '{"a": {{object_kind}}}\n');
    assert.equal(toBody(values({ custom_webhook_template: '   ' }), 'groups', null).custom_webhook_template, null);
  });
});

describe('hookFormSchema', () => {
  it('accepts a plain hook', () => {
    assert.deepEqual(problems(values()), {});
  });
  it('wants an http(s) URL', () => {
    assert.match(problems(values({ url: 'ftp://ci.example.com' })).url, /http:\/\/ or https:\/\//);
    assert.match(problems(values({ url: 'not a url' })).url, /http:\/\/ or https:\/\//);
  });
  it('wants every {variable} of the URL defined', () => {
    assert.match(problems(values({ url: 'https://ci.example.com/{env}/{team}' })).url, /not defined: env, team/);
    const defined = values({ url: 'https://ci.example.com/{env}', url_variables: [{ key: 'env', value: 'prod' }] });
    assert.deepEqual(problems(defined), {});
  });
  it('finds a header given twice whatever its case, and a bad variable name, on their row', () => {
    const p = problems(
      values({
        custom_headers: [
          { key: 'X-Team', value: 'a' },
          { key: 'x-team', value: 'b' },
        ],
        url_variables: [{ key: 'my-var', value: 'x' }],
      }),
    );
    assert.equal(p['custom_headers.1.key'], 'is given twice');
    assert.match(p['url_variables.0.key'], /letters, digits and "_"/);
  });
  it('checks a kept list not at all (its values are not shown)', () => {
    const keep = values({ custom_headers_mode: 'keep', custom_headers: [{ key: 'X-Team', value: '' }] });
    assert.deepEqual(problems(keep), {});
    assert.ok(problems({ ...keep, custom_headers_mode: 'replace' })['custom_headers.0.value']);
  });
  it('wants a pattern when push events are filtered, and a valid one', () => {
    assert.match(problems(values({ branch_filter_strategy: 'wildcard', push_events_branch_filter: ' ' })).push_events_branch_filter, /can’t be blank/);
    assert.ok(problems(values({ branch_filter_strategy: 'regex', push_events_branch_filter: '(' })).push_events_branch_filter);
    assert.deepEqual(problems(values({ branch_filter_strategy: 'wildcard', push_events_branch_filter: 'main, release/*' })), {});
    // Without push events the filter is not used.
    const events = { ...toFormValues(null).events, push_events: false };
    assert.deepEqual(problems(values({ events, branch_filter_strategy: 'wildcard', push_events_branch_filter: '' })), {});
  });
  it('wants a template that is JSON once filled in', () => {
    assert.deepEqual(problems(values({ custom_webhook_template: '{"kind": {{object_kind}}}' })), {});
    assert.match(problems(values({ custom_webhook_template: '{"kind": ' })).custom_webhook_template, /must be JSON/);
  });
});

describe('formPathOf', () => {
  it('puts an event flag under its switch, for the flags of the scope', () => {
    assert.equal(formPathOf('push_events', 'projects'), 'events.push_events');
    assert.equal(formPathOf('subgroup_events', 'groups'), 'events.subgroup_events');
    assert.equal(formPathOf('subgroup_events', 'projects'), null);
  });
  it('puts the filter strategy under the filter and the rest where they are', () => {
    assert.equal(formPathOf('branch_filter_strategy', 'groups'), 'push_events_branch_filter');
    assert.equal(formPathOf('url', 'groups'), 'url');
    assert.equal(formPathOf('custom_headers.2.value', 'groups'), 'custom_headers.2.value');
  });
  it('has no field for what the form does not show', () => {
    assert.equal(formPathOf('base', 'groups'), null);
    assert.equal(formPathOf('alert_status', 'groups'), null);
  });
});

describe('rowErrors', () => {
  const form = values({
    custom_headers: [
      { key: 'X-Team', value: 'a' },
      { key: 'X-Service-Event', value: 'b' },
    ],
  });
  it('puts a message that names a row key on that row', () => {
    const out = rowErrors({ custom_headers: ['X-Service-Event is set by Gatehouse and cannot be overridden'] }, form);
    assert.deepEqual(out, { 'custom_headers.1.key': ['X-Service-Event is set by Gatehouse and cannot be overridden'] });
  });
  it('puts a message about a value under the value', () => {
    const out = rowErrors({ custom_headers: ['the value of X-Team may not contain line breaks'] }, form);
    assert.deepEqual(out, { 'custom_headers.0.value': ['the value of X-Team may not contain line breaks'] });
  });
  it('finds a quoted key', () => {
    const out = rowErrors({ custom_headers: ['"X-Team" is not a valid header name'] }, form);
    assert.deepEqual(out, { 'custom_headers.0.key': ['"X-Team" is not a valid header name'] });
  });
  it('leaves under the list what names no row, other fields, and lists that are kept', () => {
    assert.deepEqual(rowErrors({ custom_headers: ['is too long'], url: ['is blocked'] }, form), { custom_headers: ['is too long'], url: ['is blocked'] });
    const kept = { ...form, custom_headers_mode: 'keep' as const };
    assert.deepEqual(rowErrors({ custom_headers: ['X-Team is given twice'] }, kept), { custom_headers: ['X-Team is given twice'] });
  });
});
