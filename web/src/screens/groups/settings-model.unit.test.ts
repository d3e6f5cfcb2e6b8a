import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { groupUpdateBody, type GroupDetail } from '../../../../shared/src/groups.ts';
import { changedFields, firstMessage, formPathFor, isTopLevel, knownPaths, labelFor, toFormValues } from './settings-model.ts';

/** The fields of GET /groups/:id that the settings form reads (the rest does not matter to it). */
const group = (over: Partial<GroupDetail> = {}): GroupDetail =>
  ({
    id: 4,
    name: 'Platform',
    path: 'platform',
    full_path: 'acme/platform',
    description: 'The platform team',
    visibility: 'internal',
    parent_id: null,
    request_access_enabled: true,
    share_with_group_lock: false,
    membership_lock: false,
    project_creation_level: 'developer',
    subgroup_creation_level: 'maintainer',
    prevent_forking_outside_group: false,
    require_two_factor_authentication: false,
    two_factor_grace_period: 48,
    ip_restriction_ranges: null,
    allowed_email_domains_list: null,
    enabled_git_access_protocol: undefined,
    default_branch: null,
    default_branch_protection_defaults: {
      allowed_to_push: [{ access_level: 40, user_id: 9 } as { access_level: number }],
      allow_force_push: false,
      allowed_to_merge: [{ access_level: 40 }],
    },
    lfs_enabled: true,
    emails_enabled: null,
    mentions_disabled: null,
    wiki_access_level: 'enabled',
    math_rendering_limits_enabled: true,
    ai_features_enabled: false,
    experiment_features_enabled: false,
    shared_runners_setting: 'enabled',
    max_artifacts_size: null,
    prevent_sharing_groups_outside_hierarchy: undefined,
    unique_project_download_limit: undefined,
    unique_project_download_limit_alertlist: [3, 5],
    ...over,
  }) as GroupDetail;

describe('toFormValues', () => {
  it('fills every field from the group, with the defaults the platform means by null', () => {
    const v = toFormValues(group());
    assert.equal(v.name, 'Platform');
    assert.equal(v.path, 'platform');
    assert.equal(v.visibility, 'internal');
    assert.equal(v.ip_restriction_ranges, '');
    assert.equal(v.allowed_email_domains_list, '');
    assert.equal(v.enabled_git_access_protocol, 'all');
    assert.equal(v.default_branch, '');
    assert.equal(v.emails_enabled, true);
    assert.equal(v.mentions_disabled, false);
    assert.equal(v.max_artifacts_size, null);
  });
  it('copies branch protection as the form edits it: access levels only, initial push off by default', () => {
    assert.deepEqual(toFormValues(group()).default_branch_protection_defaults, {
      allowed_to_push: [{ access_level: 40 }],
      allow_force_push: false,
      allowed_to_merge: [{ access_level: 40 }],
      developer_can_initial_push: false,
    });
  });
  it('adds the download limits to a top-level group only', () => {
    const top = toFormValues(group());
    assert.equal(isTopLevel(group()), true);
    assert.equal(top.prevent_sharing_groups_outside_hierarchy, false);
    assert.equal(top.unique_project_download_limit, 0);
    assert.deepEqual(top.unique_project_download_limit_allowlist, []);
    // The alert list holds user IDs; the form edits them as text.
    assert.deepEqual(top.unique_project_download_limit_alertlist, ['3', '5']);
    const sub = toFormValues(group({ parent_id: 1 }));
    assert.equal(isTopLevel(group({ parent_id: 1 })), false);
    assert.equal('unique_project_download_limit' in sub, false);
    assert.equal('prevent_sharing_groups_outside_hierarchy' in sub, false);
  });
  it('gives values the shared PUT schema accepts as they are', () => {
    for (const g of [group(), group({ parent_id: 1 })]) {
      const parsed = groupUpdateBody.safeParse(toFormValues(g));
      assert.equal(parsed.success, true, JSON.stringify(parsed.error?.issues));
    }
  });
});

describe('changedFields', () => {
  const parsed = groupUpdateBody.parse({ ...toFormValues(group()), name: 'Platform team', default_branch_protection_defaults: { ...toFormValues(group()).default_branch_protection_defaults, allow_force_push: true } });
  it('keeps only the fields the user changed', () => {
    assert.deepEqual(changedFields(parsed, { name: true, description: false }), { name: 'Platform team' });
    assert.deepEqual(changedFields(parsed, {}), {});
  });
  it('sends a nested field whole when any part of it changed', () => {
    const out = changedFields(parsed, { default_branch_protection_defaults: { allow_force_push: true, allowed_to_push: [{ access_level: false }] } });
    assert.deepEqual(out.default_branch_protection_defaults, parsed.default_branch_protection_defaults);
    assert.deepEqual(changedFields(parsed, { default_branch_protection_defaults: { allowed_to_push: [{ access_level: true }] } }), {
      default_branch_protection_defaults: parsed.default_branch_protection_defaults,
    });
    assert.deepEqual(changedFields(parsed, { default_branch_protection_defaults: { allow_force_push: false, allowed_to_push: [] } }), {});
  });
  it('ignores a dirty mark for a field the parsed body does not have', () => {
    assert.deepEqual(changedFields(parsed, { avatar: true }), {});
  });
});

describe('where a server error goes', () => {
  const known = knownPaths(toFormValues(group()));
  it('knows the form fields and the parts of branch protection', () => {
    assert.ok(known.has('name'));
    assert.ok(known.has('default_branch_protection_defaults.allowed_to_push'));
    assert.ok(known.has('default_branch_protection_defaults.developer_can_initial_push'));
    assert.equal(known.has('avatar'), false);
  });
  it('puts a deep server path under the nearest field the form renders', () => {
    assert.equal(formPathFor('default_branch_protection_defaults.allowed_to_push.0.access_level', known), 'default_branch_protection_defaults.allowed_to_push');
    assert.equal(formPathFor('unique_project_download_limit_alertlist.1', known), 'unique_project_download_limit_alertlist');
    assert.equal(formPathFor('name', known), 'name');
    assert.equal(formPathFor('avatar', known), undefined);
  });
  it('names a path for the toast by its field label, or in words', () => {
    assert.equal(labelFor('default_branch_protection_defaults.allowed_to_push'), 'Default branch protection');
    assert.equal(labelFor('path'), 'Group URL');
    assert.equal(labelFor('step_up_auth_required_oauth_provider'), 'step up auth required oauth provider');
  });
});

describe('firstMessage', () => {
  it('finds a message at the node or inside arrays and objects', () => {
    assert.equal(firstMessage({ message: 'is too long', type: 'too_big' }), 'is too long');
    assert.equal(firstMessage([undefined, { access_level: { message: 'is not a role' } }]), 'is not a role');
    assert.equal(firstMessage({ allowed_to_push: [{ access_level: { message: 'first' } }], allow_force_push: { message: 'second' } }), 'first');
  });
  it('does not look inside the field element react-hook-form keeps as ref', () => {
    const ref = { message: 'not an error' };
    assert.equal(firstMessage({ ref, type: 'required' }), undefined);
  });
  it('has none for no error or an empty message', () => {
    assert.equal(firstMessage(undefined), undefined);
    assert.equal(firstMessage('text'), undefined);
    assert.equal(firstMessage({ message: '' }), undefined);
  });
});
