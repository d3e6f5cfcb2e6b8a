import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { stoppingRule, type RegistryProtectionRule } from '../../../../shared/src/container-registry-protection.ts';
import { wildcardMatches } from '../../../../shared/src/wildcard.ts';
import { migrate, openDb } from '../../db/index.ts';
import { createUser } from '../access/users.ts';
import { createGroup } from '../groups/groups.ts';
import { createProject } from '../groups/projects.ts';
import { blockingRule, rulesMatching } from './protection-rules.ts';

/*
 * The matching of protection rules, written once in shared/ for the token service (blockingRule)
 * and the console's live check (stoppingRule on the API's rules).
 */

const rule = (id: number, pattern: string, push: RegistryProtectionRule['minimum_access_level_for_push'], del: RegistryProtectionRule['minimum_access_level_for_delete'] = null): RegistryProtectionRule => ({
  id,
  project_id: 1,
  repository_path_pattern: pattern,
  minimum_access_level_for_push: push,
  minimum_access_level_for_delete: del,
});

describe('wildcardMatches (shared by the token service and the console)', () => {
  it('matches exactly without a star, and a star takes any run of characters, slashes too', () => {
    assert.equal(wildcardMatches('acme/web/app', 'acme/web/app'), true);
    assert.equal(wildcardMatches('acme/web/app', 'acme/web/app2'), false);
    assert.equal(wildcardMatches('acme/web/*', 'acme/web/a/b/c'), true);
    assert.equal(wildcardMatches('acme/web/*-prod', 'acme/web/api-prod'), true);
    assert.equal(wildcardMatches('acme/web/*-prod', 'acme/web/api-prod/x'), false);
    assert.equal(wildcardMatches('acme/*/app*', 'acme/web/app'), true);
    assert.equal(wildcardMatches('acme/web/*', 'acme/web'), false);
  });
});

describe('stoppingRule', () => {
  const rules = [rule(1, 'acme/web/prod-*', 'maintainer', 'owner'), rule(2, 'acme/web/*', null, 'admin')];
  const push = (r: RegistryProtectionRule) => (r.minimum_access_level_for_push ? { maintainer: 40, owner: 50, admin: 60 }[r.minimum_access_level_for_push] : null);

  it('finds the first matching rule above the role, case aside, and none at or above its level', () => {
    assert.equal(stoppingRule(rules, 'acme/web/prod-api', 30, push)?.id, 1);
    assert.equal(stoppingRule(rules, 'ACME/Web/Prod-API', 30, push)?.id, 1);
    assert.equal(stoppingRule(rules, 'acme/web/prod-api', 40, push), undefined);
    assert.equal(stoppingRule(rules, 'acme/web/dev-api', 30, push), undefined, 'rule 2 says nothing of pushes');
  });

  it('is what the server refuses by: blockingRule on rows with access levels gives the same answers', () => {
    const rows = [
      { repository_path_pattern: 'acme/web/prod-*', minimum_access_level_for_push: 40, minimum_access_level_for_delete: 50 },
      { repository_path_pattern: 'acme/web/*', minimum_access_level_for_push: null, minimum_access_level_for_delete: 60 },
    ];
    for (const [path, role] of [['acme/web/prod-api', 30], ['acme/web/prod-api', 40], ['acme/web/dev', 30], ['acme/web/PROD-x', 0]] as const) {
      assert.equal(blockingRule(rows, path, role, 'push')?.repository_path_pattern, stoppingRule(rules, path, role, push)?.repository_path_pattern, `${path} at ${role}`);
    }
    assert.equal(blockingRule(rows, 'acme/web/dev', 50, 'delete')?.repository_path_pattern, 'acme/web/*');
  });
});


describe('rulesMatching (the database picks the rules a path matches)', () => {
  it('matches as wildcardMatches does, case aside, with `_` and `.` literal, on a real database', async () => {
    const db = openDb({ sqliteFile: ':memory:' });
    try {
      await migrate(db);
      const owner = await createUser(db, { username: 'owner', name: 'Owner', email: 'owner@example.com', password: 'password1' });
      const group = await createGroup(db, owner, { name: 'G', path: 'g', visibility: 'private' }, null);
      const project = await createProject(db, owner, group, { name: 'P', namespace_id: group.id, visibility: 'private' });
      const patterns = ['g/p/a_b*', 'G/P/Release-*', 'g/p/*/cache', 'g/p/v1.0', 'g/p/*'];
      for (const pattern of patterns) {
        await db
          .insertInto('container_registry_protection_rules')
          .values({ project_id: project.id, repository_path_pattern: pattern, minimum_access_level_for_push: 40, minimum_access_level_for_delete: null, created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' })
          .execute();
      }
      for (const path of ['g/p/a_b-x', 'g/p/axb', 'g/p/release-web', 'g/p/x/y/cache', 'g/p/v1x0', 'g/p/v1.0', 'other/p/a']) {
        const picked = (await rulesMatching(db, project.id, path)).map((r) => r.repository_path_pattern);
        assert.deepEqual(picked, patterns.filter((p) => wildcardMatches(p.toLowerCase(), path)), path);
      }
    } finally {
      await db.destroy();
    }
  });
});
