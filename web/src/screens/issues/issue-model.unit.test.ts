import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { issueHrefOf } from '../../paths.ts';
import { milestoneHrefOf, parseIssueReference } from './issue-model.ts';

describe('milestoneHrefOf', () => {
  it('leads to the project’s milestones for a project milestone', () => {
    assert.equal(milestoneHrefOf({ iid: 3, project_id: 7, web_url: 'https://x.test/acme/website/-/milestones/3' }, 'acme/website'), '/projects/acme/website/-/milestones/3');
  });
  it('leads to the owning group’s milestones for a group milestone, a parent group’s included', () => {
    assert.equal(milestoneHrefOf({ iid: 2, project_id: null, web_url: 'https://x.test/groups/acme/platform/-/milestones/2' }, 'acme/platform/api'), '/groups/acme/platform/-/milestones/2');
    assert.equal(milestoneHrefOf({ iid: 9, web_url: 'http://127.0.0.1:8080/groups/acme/-/milestones/9' }, 'acme/website'), '/groups/acme/-/milestones/9');
  });
  it('gives nothing for an address it cannot read', () => {
    assert.equal(milestoneHrefOf({ iid: 2, project_id: null, web_url: 'https://x.test/somewhere/else' }, 'acme/website'), null);
  });
});

describe('issueHrefOf', () => {
  it('keeps an issue’s link in the console, from its full reference', () => {
    assert.equal(issueHrefOf({ iid: 12, references: { full: 'acme/platform/api#12' } }), '/projects/acme/platform/api/-/issues/12');
  });
});

describe('parseIssueReference', () => {
  it('reads an issue of this project or of another by full path', () => {
    assert.deepEqual(parseIssueReference('#12'), { project: null, iid: 12 });
    assert.deepEqual(parseIssueReference(' 7 '), { project: null, iid: 7 });
    assert.deepEqual(parseIssueReference('acme/website#3'), { project: 'acme/website', iid: 3 });
  });
  it('refuses what is not an issue reference', () => {
    for (const t of ['', '#', '#0', 'website#3', 'acme/website', '#12 and more', '!4']) assert.equal(parseIssueReference(t), null, t);
  });
});
