import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from './import-graph.ts';

/*
 * Where an area's routes are tested: its route file bff/src/api/<slug>.ts has a sibling
 * <slug>.test.ts, or its tests live in a home stated here, which must show them (a path of the
 * area appears there). A test file of bff/src/api is named by its area's slug, or stated here
 * as a home. So a reader finds an area's tests from its slug, and a test file never loses its area.
 */
export const TEST_HOMES: Record<string, { homes: string[]; shows: string }> = {
  'application-settings': { homes: ['bff/src/api/token-revocation.test.ts'], shows: '/application/settings' },
  'commit-statuses': { homes: ['bff/src/api/pipelines.test.ts'], shows: '/statuses/' },
  'container-registry': { homes: ['bff/test/container-registry.test.ts'], shows: '/registry/repositories' },
  console: { homes: ['bff/src/api/instance.test.ts'], shows: '/api/console/instance' },
  dependencies: { homes: ['bff/src/api/vulnerabilities.test.ts'], shows: '/dependencies' },
  'deploy-tokens': { homes: ['bff/src/api/token-revocation.test.ts', 'bff/test/git-http.test.ts'], shows: '/deploy_tokens' },
  exports: { homes: ['bff/src/api/vulnerability-exports.test.ts', 'bff/src/api/dependency-list-exports.test.ts', 'bff/test/export-durability.test.ts'], shows: '/download' },
  'feed-tokens': { homes: ['bff/src/api/token-revocation.test.ts'], shows: '/user/feed_token' },
  'group-milestones': { homes: ['bff/src/api/project-milestones.test.ts'], shows: '/projects/' },
  groups: { homes: ['bff/src/api/token-revocation.test.ts'], shows: '/tokens/revoke' },
  hooks: { homes: ['bff/src/api/hooks-health.test.ts'], shows: '/hooks/health' },
  'pipeline-triggers': { homes: ['bff/src/api/pipelines.test.ts'], shows: '/triggers' },
  'resource-iteration-events': { homes: ['bff/src/api/iteration-cadences.test.ts'], shows: '/resource_iteration_events' },
  scim: { homes: ['bff/src/api/scim-identities.test.ts'], shows: '/scim/v2/' },
  'security-dashboard': { homes: ['bff/src/api/vulnerability-exports.test.ts'], shows: '/security/projects' },
  'security-reports': { homes: ['bff/src/api/vulnerabilities.test.ts', 'bff/test/large-reports.test.ts'], shows: '/reports' },
  users: { homes: ['bff/src/api/users-admin.test.ts'], shows: '/users/' },
};

/**
 * Rules that hold for every route because the route mechanism (bff/src/http/) applies them, and
 * where they are tested: each home exists and calls what it shows.
 */
export const MECHANISM_HOMES: Record<string, { homes: string[]; shows: string }> = {
  // Arrays of hashes in form bodies as Rack reads them, booleans as Grape coerces them, Sudo.
  'wire rules': { homes: ['bff/test/wire-rules.test.ts', 'bff/src/http/query-string.unit.test.ts'], shows: '[][' },
};

const API = path.join(repoRoot, 'bff/src/api');
const files = fs.readdirSync(API);
/** The route files: those that declare routes (the table, index.ts, and the OpenAPI document are not areas). */
const routeFiles = files.filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && /defineRoute\(|Router\(|routes\.create\(|make[A-Za-z]*Routes\(/.test(fs.readFileSync(path.join(API, f), 'utf8')));
const slugs = routeFiles.map((f) => f.slice(0, -'.ts'.length));

describe('the tests of each area', () => {
  it('finds the route files', () => {
    assert.ok(slugs.length > 40, slugs.join(' '));
    assert.ok(slugs.includes('groups') && slugs.includes('scim') && !slugs.includes('index') && !slugs.includes('openapi'));
  });

  it('has, for every route file, a sibling test or a stated home that shows its routes', () => {
    const missing = slugs.filter((slug) => !files.includes(`${slug}.test.ts`) && !TEST_HOMES[slug]);
    assert.deepEqual(missing, [], 'add bff/src/api/<slug>.test.ts, or state where the area is tested in TEST_HOMES');
    for (const [slug, { homes, shows }] of Object.entries(TEST_HOMES)) {
      assert.ok(slugs.includes(slug), `TEST_HOMES names ${slug}, which has no route file`);
      for (const home of homes) {
        const file = path.join(repoRoot, home);
        assert.ok(fs.existsSync(file), `${slug}: ${home} does not exist`);
        assert.ok(fs.readFileSync(file, 'utf8').includes(shows), `${slug}: ${home} never calls ${shows}`);
      }
    }
  });

  it('finds the homes of the rules the route mechanism applies to every route', () => {
    for (const [rule, { homes, shows }] of Object.entries(MECHANISM_HOMES)) {
      for (const home of homes) {
        const file = path.join(repoRoot, home);
        assert.ok(fs.existsSync(file), `${rule}: ${home} does not exist`);
        assert.ok(fs.readFileSync(file, 'utf8').includes(shows), `${rule}: ${home} never shows ${shows}`);
      }
    }
  });

  it('names every test file of bff/src/api by its area, or states it as a home', () => {
    const homes = new Set(Object.values(TEST_HOMES).flatMap((h) => h.homes));
    const strays = files.filter((f) => f.endsWith('.test.ts') && !slugs.includes(f.slice(0, -'.test.ts'.length)) && !homes.has(`bff/src/api/${f}`));
    assert.deepEqual(strays, [], 'name a test file by its slug, or state it in TEST_HOMES');
  });
});
