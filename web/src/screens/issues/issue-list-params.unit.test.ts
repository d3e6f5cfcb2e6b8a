import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_ISSUE_SORT, isFiltered, issuesQueryOf, issueStateOf, labelsOf, labelsParam, readIssueFilters } from './issue-list-params.ts';

const from = (s: string) => {
  const params = new URLSearchParams(s);
  return readIssueFilters((name) => params.get(name) ?? '');
};

describe('issueStateOf', () => {
  it('reads closed and all, and anything else as the open issues', () => {
    assert.equal(issueStateOf('closed'), 'closed');
    assert.equal(issueStateOf('all'), 'all');
    for (const v of ['', 'opened', 'merged', 'CLOSED']) assert.equal(issueStateOf(v), 'opened', v);
  });
});

describe('labelsOf and labelsParam', () => {
  it('read a comma-separated list without blanks or repeats', () => {
    assert.deepEqual(labelsOf('bug, ux,,bug'), ['bug', 'ux']);
    assert.deepEqual(labelsOf(''), []);
    assert.deepEqual(labelsOf('priority::high'), ['priority::high']);
  });
  it('write the list back, or nothing for no labels', () => {
    assert.equal(labelsParam(['bug', 'ux', 'bug']), 'bug,ux');
    assert.equal(labelsParam([]), null);
  });
});

describe('readIssueFilters and issuesQueryOf', () => {
  it('send the platform’s filters and order from the URL', () => {
    const f = from('state=closed&search=dark&labels=bug,ux&milestone=Sprint%2014&assignee_username=alice&author_username=bob');
    assert.equal(isFiltered(f), true);
    assert.deepEqual(issuesQueryOf(f, { key: 'updated', dir: 'asc' }, 2, 50), {
      state: 'closed',
      search: 'dark',
      labels: ['bug', 'ux'],
      milestone: 'Sprint 14',
      assignee_username: ['alice'],
      author_username: 'bob',
      order_by: 'updated_at',
      sort: 'asc',
      page: 2,
      per_page: 50,
    });
  });
  it('leave out what the URL does not name: open issues, newest first', () => {
    const f = from('');
    assert.equal(isFiltered(f), false);
    assert.deepEqual(issuesQueryOf(f, DEFAULT_ISSUE_SORT, 1), { state: 'opened', order_by: 'created_at', sort: 'desc', page: 1 });
  });
  it('do not count the state as a filter', () => {
    assert.equal(isFiltered(from('state=all')), false);
  });
});
