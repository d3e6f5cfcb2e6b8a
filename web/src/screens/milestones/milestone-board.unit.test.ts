import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { issueColumns, mergeRequestColumns, progressOf, type BoardItem } from './milestone-board.ts';

let next = 1;
const item = (over: Partial<BoardItem>): BoardItem => ({ id: next, iid: next++, title: 't', state: 'opened', web_url: '', assignees: [], ...over });
const columnOf = (columns: { title: string; holds: (i: BoardItem) => boolean }[], i: BoardItem) => columns.filter((c) => c.holds(i)).map((c) => c.title);

describe('issue columns', () => {
  it('put an open issue by whether someone has it, a closed one as completed', () => {
    assert.deepEqual(columnOf(issueColumns, item({})), ['Unstarted']);
    assert.deepEqual(columnOf(issueColumns, item({ assignees: [{ id: 1 }] })), ['Ongoing']);
    assert.deepEqual(columnOf(issueColumns, item({ state: 'closed', assignees: [{ id: 1 }] })), ['Completed']);
  });
});

describe('merge request columns', () => {
  it('put drafts, ready ones, rejected and merged apart', () => {
    assert.deepEqual(columnOf(mergeRequestColumns, item({ draft: true })), ['Work in progress']);
    assert.deepEqual(columnOf(mergeRequestColumns, item({ draft: false })), ['Waiting for merge']);
    assert.deepEqual(columnOf(mergeRequestColumns, item({})), ['Waiting for merge']);
    assert.deepEqual(columnOf(mergeRequestColumns, item({ state: 'locked' })), ['Waiting for merge']);
    assert.deepEqual(columnOf(mergeRequestColumns, item({ state: 'closed' })), ['Rejected']);
    assert.deepEqual(columnOf(mergeRequestColumns, item({ state: 'merged' })), ['Merged']);
  });
});

describe('progressOf', () => {
  it('counts closed issues and their weight; an issue without weight weighs nothing', () => {
    const issues = [item({ state: 'closed', weight: 3 }), item({ state: 'closed', weight: null }), item({ weight: 5 }), item({})];
    assert.deepEqual(progressOf(issues), { count: 4, closedCount: 2, weight: 8, closedWeight: 3 });
  });
  it('is zero for no issues', () => {
    assert.deepEqual(progressOf([]), { count: 0, closedCount: 0, weight: 0, closedWeight: 0 });
  });
});
