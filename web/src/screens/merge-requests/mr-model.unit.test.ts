import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../api/client.ts';
import { mergeRequestHref } from '../../paths.ts';
import { mergeOffer, orderChange, projectPathOf, readListQuery, refusalText, type MergeFacts } from './mr-model.ts';

const url = (q: string) => {
  const p = new URLSearchParams(q);
  return (name: string) => p.get(name) ?? '';
};

describe('the list’s filters in the URL', () => {
  it('reads the platform’s parameters, with open and newest first by default', () => {
    assert.deepEqual(readListQuery(url(''), 1), { query: { state: 'opened', order_by: 'created_at', sort: 'desc', page: 1 }, state: 'opened', order: 'created_at_desc', filtered: false });
    const r = readListQuery(url('state=merged&search=%20footer%20&labels=bug,feature&author_username=dave&target_branch=main&order_by=title&sort=asc'), 2);
    assert.deepEqual(r.query, { state: 'merged', order_by: 'title', sort: 'asc', page: 2, search: 'footer', labels: 'bug,feature', author_username: 'dave', target_branch: 'main' });
    assert.equal(r.filtered, true);
  });
  it('reads unknown values as the defaults', () => {
    const r = readListQuery(url('state=locked-ish&order_by=popularity&sort=sideways'), 1);
    assert.equal(r.state, 'opened');
    assert.equal(r.order, 'created_at_desc');
  });
  it('writes an order as order_by and sort, the default as neither', () => {
    assert.deepEqual(orderChange('updated_at_asc'), { order_by: 'updated_at', sort: 'asc' });
    assert.deepEqual(orderChange('created_at_desc'), { order_by: null, sort: null });
    assert.deepEqual(orderChange('nonsense'), { order_by: null, sort: null });
  });
  it('links a merge request of a group’s list through its project', () => {
    assert.equal(projectPathOf('acme/platform/billing!12'), 'acme/platform/billing');
    assert.equal(mergeRequestHref(projectPathOf('acme/website!4'), 4), '/projects/acme/website/-/merge_requests/4');
    assert.equal(mergeRequestHref('acme/website', 4, 'diffs'), '/projects/acme/website/-/merge_requests/4/diffs');
  });
});

describe('what a merge request offers', () => {
  const mr = (over: Partial<MergeFacts>): MergeFacts => ({ state: 'opened', draft: false, detailed_merge_status: 'mergeable', merge_when_pipeline_succeeds: false, head_pipeline: null, user: { can_merge: true }, ...over });
  const off = { trainsEnabled: false, pipelineMustSucceed: false };
  it('merges now without a pipeline; while one runs, also to merge when it passes', () => {
    assert.deepEqual(mergeOffer(mr({}), off), { kind: 'merge', autoMerge: false, mergeNow: true });
    assert.deepEqual(mergeOffer(mr({ head_pipeline: { status: 'running' } }), off), { kind: 'merge', autoMerge: true, mergeNow: true });
    assert.deepEqual(mergeOffer(mr({ head_pipeline: { status: 'running' } }), { ...off, pipelineMustSucceed: true }), { kind: 'merge', autoMerge: true, mergeNow: false });
    assert.deepEqual(mergeOffer(mr({ head_pipeline: { status: 'failed' } }), { ...off, pipelineMustSucceed: true }), { kind: 'none' });
  });
  it('joins the train where trains are on; shows the wait once set', () => {
    assert.deepEqual(mergeOffer(mr({}), { ...off, trainsEnabled: true }), { kind: 'train' });
    assert.deepEqual(mergeOffer(mr({ merge_when_pipeline_succeeds: true }), off), { kind: 'waiting', onTrain: false });
  });
  it('offers nothing to drafts, conflicts, closed or merged ones, or to someone who may not merge', () => {
    for (const m of [mr({ draft: true }), mr({ detailed_merge_status: 'conflict' }), mr({ state: 'merged' }), mr({ state: 'closed' }), mr({ user: { can_merge: false } })]) assert.deepEqual(mergeOffer(m, off), { kind: 'none' });
  });
});

describe('a refused merge in plain words', () => {
  it('words the platform’s refusals for a reader', () => {
    assert.match(refusalText(new ApiError(405, '405 Method Not Allowed - merge request is a draft'), 'main'), /is a draft\. Remove “Draft:”/);
    assert.match(refusalText(new ApiError(405, '405 Method Not Allowed - merge trains are enabled: add the merge request to the merge train'), 'main'), /merge train instead/);
    assert.match(refusalText(new ApiError(406, 'Branch cannot be merged'), 'main'), /conflicts with main/);
    assert.match(refusalText(new ApiError(409, 'SHA does not match HEAD of source branch: abc'), 'main'), /source branch changed/);
    assert.match(refusalText(new ApiError(401, '401 Unauthorized'), 'main'), /may not merge into main/);
    assert.equal(refusalText(new ApiError(422, '422 Unprocessable Entity - Branch cannot be merged: the target branch moved, try again'), 'main'), 'The merge did not go through: Branch cannot be merged: the target branch moved, try again');
  });
});
