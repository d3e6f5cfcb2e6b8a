import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { pageInfo } from './client.ts';

describe('pageInfo', () => {
  it('reads the platform’s offset pagination headers', () => {
    const info = pageInfo(new Headers({ 'X-Total': '57', 'X-Total-Pages': '3', 'X-Page': '2', 'X-Per-Page': '20', 'X-Next-Page': '3', 'X-Prev-Page': '1' }));
    assert.deepEqual(info, { total: 57, totalPages: 3, page: 2, perPage: 20, nextPage: 3, prevPage: 1 });
  });

  it('has no total for a paged list past the server’s count limit (no X-Total), and still knows the next page', () => {
    const info = pageInfo(new Headers({ 'X-Page': '1', 'X-Per-Page': '20', 'X-Next-Page': '2', 'X-Prev-Page': '' }));
    assert.deepEqual(info, { total: null, totalPages: null, page: 1, perPage: 20, nextPage: 2, prevPage: null });
  });

  it('counts an answer that is not paged at all as complete, not as uncounted', () => {
    assert.equal(pageInfo(new Headers()).total, 0);
  });
});
