import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { adminHref, groupHref, parseGroupSplat, projectHref, sectionRest } from './paths.ts';

describe('links', () => {
  it('groupHref leads to a group, or to one of its sections', () => {
    assert.equal(groupHref('acme'), '/groups/acme');
    assert.equal(groupHref('acme/platform', 'settings'), '/groups/acme/platform/-/settings');
    assert.equal(groupHref('acme/platform', 'milestones/12'), '/groups/acme/platform/-/milestones/12');
  });
  it('projectHref leads to a project, or to one of its sections', () => {
    assert.equal(projectHref('acme/website'), '/projects/acme/website');
    assert.equal(projectHref('acme/tools/cli', 'pipelines'), '/projects/acme/tools/cli/-/pipelines');
  });
  it('adminHref joins the admin area, a section and what follows', () => {
    assert.equal(adminHref(), '/admin');
    assert.equal(adminHref('users'), '/admin/users');
    assert.equal(adminHref('users', 12), '/admin/users/12');
    assert.equal(adminHref('users', 12, 'edit'), '/admin/users/12/edit');
    assert.equal(adminHref('', 'x'), '/admin/x');
  });
});

describe('parseGroupSplat', () => {
  it('splits a full path from its section', () => {
    assert.deepEqual(parseGroupSplat('acme/platform/-/settings'), { fullPath: 'acme/platform', section: 'settings' });
    assert.deepEqual(parseGroupSplat('acme/-/milestones/12'), { fullPath: 'acme', section: 'milestones' });
  });
  it('reads the overview without a section, with or without a trailing "-"', () => {
    assert.deepEqual(parseGroupSplat('acme/platform'), { fullPath: 'acme/platform', section: '' });
    assert.deepEqual(parseGroupSplat('acme/platform/-'), { fullPath: 'acme/platform', section: '' });
    assert.deepEqual(parseGroupSplat('acme/platform/-/'), { fullPath: 'acme/platform', section: '' });
  });
  it('ignores slashes around the address', () => {
    assert.deepEqual(parseGroupSplat('/acme/platform/-/hooks/'), { fullPath: 'acme/platform', section: 'hooks' });
  });
});

describe('sectionRest', () => {
  it('is what follows the section slug', () => {
    assert.deepEqual(sectionRest('acme/web/-/vulnerabilities/12'), ['12']);
    assert.deepEqual(sectionRest('acme/-/hooks/3/events'), ['3', 'events']);
    assert.deepEqual(sectionRest('acme/-/hooks/3/events/'), ['3', 'events']);
  });
  it('is empty on the section itself and outside any section', () => {
    assert.deepEqual(sectionRest('acme/web/-/pipelines'), []);
    assert.deepEqual(sectionRest('acme/web'), []);
  });
});
