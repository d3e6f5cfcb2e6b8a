import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RegistryProtectionRule } from '../../../../shared/src/container-registry-protection.ts';
import { dockerCommands, pushVerdict, ruleFieldErrors, ruleFormValues, ruleResolver, updateBodyOf } from './registry-model.ts';

const rule = (id: number, pattern: string, push: RegistryProtectionRule['minimum_access_level_for_push'], del: RegistryProtectionRule['minimum_access_level_for_delete'] = null): RegistryProtectionRule => ({
  id,
  project_id: 1,
  repository_path_pattern: pattern,
  minimum_access_level_for_push: push,
  minimum_access_level_for_delete: del,
});

describe('pushVerdict', () => {
  const rules = [rule(1, 'acme/website/prod-*', 'maintainer'), rule(2, 'acme/website/vault', 'owner')];

  it('refuses a Developer on a protected path, naming the rule, and allows a path no rule covers', () => {
    const refused = pushVerdict(rules, 'Acme/Website', 'acme/website/prod-api', 30);
    assert.equal(refused.allowed, false);
    assert.equal(refused.rule?.id, 1);
    assert.equal(refused.why, 'Refused by the rule acme/website/prod-*: pushing there needs at least the Maintainer role.');
    assert.deepEqual(pushVerdict(rules, 'Acme/Website', 'acme/website/dev-api', 30), { allowed: true, why: 'Allowed: no rule stops a Developer pushing to this path.' });
  });

  it('lets a Maintainer through a Maintainer rule, not an Owner rule; administrators always', () => {
    assert.equal(pushVerdict(rules, 'acme/website', 'acme/website/prod-api', 40).allowed, true);
    assert.equal(pushVerdict(rules, 'acme/website', 'acme/website/vault', 40).rule?.id, 2);
    assert.equal(pushVerdict(rules, 'acme/website', 'acme/website/vault', 'admin').allowed, true);
  });

  it('refuses below Developer, outside the project, and what is not an image path', () => {
    assert.match(pushVerdict([], 'acme/website', 'acme/website/app', 20).why, /needs at least the Developer role, and a Reporter only pulls/);
    assert.match(pushVerdict([], 'acme/website', 'acme/websites/app', 50).why, /^Not an image of this project/);
    assert.match(pushVerdict([], 'acme/website', 'acme/website/App', 50).why, /^Not an image path/);
    assert.equal(pushVerdict([], 'acme/website', 'acme/website', 30).allowed, true, 'the project path itself is an image');
  });
});

describe('the rule form', () => {
  it('starts a new rule at the project’s path (lower case), pushes for Maintainers; sends an edit’s cleared level as ""', () => {
    assert.deepEqual(ruleFormValues(null, 'Acme/Website'), { repository_path_pattern: 'acme/website/', minimum_access_level_for_push: 'maintainer', minimum_access_level_for_delete: undefined });
    const values = ruleFormValues(rule(3, 'acme/website/x', null, 'owner'), 'acme/website');
    assert.equal(values.minimum_access_level_for_push, undefined);
    assert.deepEqual(updateBodyOf({ repository_path_pattern: 'acme/website/x', minimum_access_level_for_delete: 'owner' }), {
      repository_path_pattern: 'acme/website/x',
      minimum_access_level_for_push: '',
      minimum_access_level_for_delete: 'owner',
    });
  });

  it('validates with the shared schema, and shows "no level at all" under the push level', async () => {
    const options = { fields: {}, shouldUseNativeValidation: false } as const;
    const none = await ruleResolver({ repository_path_pattern: 'acme/website/x' }, undefined, options);
    assert.deepEqual(Object.keys(none.errors), ['minimum_access_level_for_push']);
    assert.match(String(none.errors.minimum_access_level_for_push?.message), /^Choose a role for push or for delete/);
    const ok = await ruleResolver({ repository_path_pattern: 'acme/website/x', minimum_access_level_for_delete: 'admin' }, undefined, options);
    assert.deepEqual(ok.errors, {});
  });

  it('puts the server’s 422 sentences under the fields they name, and a 400’s field as it is', () => {
    assert.deepEqual(ruleFieldErrors({ error: ['Repository path pattern has already been taken', 'A rule must have at least a minimum access role for push or delete.', 'Something else'] }), {
      repository_path_pattern: ['has already been taken'],
      minimum_access_level_for_push: ['A rule must have at least a minimum access role for push or delete.'],
      error: ['Something else'],
    });
    assert.deepEqual(ruleFieldErrors({ minimum_access_level_for_push: ['does not have a valid value'] }), { minimum_access_level_for_push: ['does not have a valid value'] });
  });
});

describe('dockerCommands', () => {
  it('fills in the host, the project’s prefix and the user name; the token stays a placeholder', () => {
    const c = dockerCommands({ host: 'registry.example.com:5000', image_prefix: 'registry.example.com:5000/acme/website' }, 'alice');
    assert.equal(c.login, 'echo "<your access token>" | docker login registry.example.com:5000 --username alice --password-stdin');
    assert.equal(c.push, 'docker tag <local image> registry.example.com:5000/acme/website/<image>:<tag>\ndocker push registry.example.com:5000/acme/website/<image>:<tag>');
  });
});
