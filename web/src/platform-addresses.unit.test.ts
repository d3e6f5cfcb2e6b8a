import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readPlatformAddress } from './platform-addresses.ts';

describe('readPlatformAddress', () => {
  it('reads a project section of the platform as the console project section of the same name', () => {
    assert.deepEqual(readPlatformAddress('/acme/website/-/issues/3'), { kind: 'console', to: '/projects/acme/website/-/issues/3' });
    assert.deepEqual(readPlatformAddress('/acme/tools/cli/-/merge_requests/12'), { kind: 'console', to: '/projects/acme/tools/cli/-/merge_requests/12' });
    assert.deepEqual(readPlatformAddress('/acme/website/-/milestones/2/'), { kind: 'console', to: '/projects/acme/website/-/milestones/2' });
    assert.deepEqual(readPlatformAddress('/acme/website/-/pipelines/40'), { kind: 'console', to: '/projects/acme/website/-/pipelines/40' });
  });
  it('reads the platform sections the console names otherwise', () => {
    assert.deepEqual(readPlatformAddress('/acme/website/-/security/vulnerabilities/7'), { kind: 'console', to: '/projects/acme/website/-/vulnerabilities/7' });
    assert.deepEqual(readPlatformAddress('/acme/website/-/security/vulnerability_report'), { kind: 'console', to: '/projects/acme/website/-/vulnerabilities' });
    assert.deepEqual(readPlatformAddress('/acme/website/-/commit/0123abc'), { kind: 'console', to: '/projects/acme/website/-/repository' });
    assert.deepEqual(readPlatformAddress('/acme/website/-/compare/main...topic'), { kind: 'console', to: '/projects/acme/website/-/repository' });
    assert.deepEqual(readPlatformAddress('/acme/website/-/project_members'), { kind: 'console', to: '/projects/acme/website/-/members' });
    assert.deepEqual(readPlatformAddress('/acme/website/-/jobs/9'), { kind: 'console', to: '/projects/acme/website/-/pipelines' });
  });
  it('leaves a project, group or user path to a lookup, a clone URL included', () => {
    assert.deepEqual(readPlatformAddress('/acme/website'), { kind: 'lookup', path: 'acme/website' });
    assert.deepEqual(readPlatformAddress('/acme/website.git'), { kind: 'lookup', path: 'acme/website' });
    assert.deepEqual(readPlatformAddress('/alice'), { kind: 'lookup', path: 'alice' });
  });
  it('is not one for the console’s own addresses, the API, the root or a malformed section', () => {
    for (const p of ['/', '', '/groups/acme/-/nothing', '/projects/acme/web/-/x', '/admin/users/1', '/api/v4/x', '/sign-in', '/acme/-']) assert.equal(readPlatformAddress(p), null, p);
  });
});
