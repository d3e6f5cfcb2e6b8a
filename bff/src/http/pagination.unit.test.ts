import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Request, Response } from 'express';
import { Page } from '../db/pagination.ts';
import { setPaginationHeaders } from './pagination.ts';

/** The headers set for the request URL and page, as a plain object. */
function headersFor(originalUrl: string, page: Page<unknown>): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    set(name: string | Record<string, string>, value?: string) {
      if (typeof name === 'string') headers[name] = value!;
      else Object.assign(headers, name);
      return res;
    },
  };
  setPaginationHeaders({ originalUrl } as Request, res as unknown as Response, 'http://gh.example', page);
  return headers;
}

describe('pagination headers', () => {
  it('link the other pages with the request’s parameters kept in place, page and per_page set, credentials dropped', () => {
    const h = headersFor('/api/v4/groups?search=a+b%20c&page=2&private_token=secret&per_page=5&page=9&x=%C3%A9#frag', new Page([], 2, 5, 12));
    assert.equal(h['X-Total'], '12');
    assert.equal(h['X-Total-Pages'], '3');
    assert.equal(h['X-Next-Page'], '3');
    assert.equal(h['X-Prev-Page'], '1');
    assert.equal(
      h.Link,
      [
        '<http://gh.example/api/v4/groups?search=a+b+c&page=1&per_page=5&x=%C3%A9#frag>; rel="prev"',
        '<http://gh.example/api/v4/groups?search=a+b+c&page=3&per_page=5&x=%C3%A9#frag>; rel="next"',
        '<http://gh.example/api/v4/groups?search=a+b+c&page=1&per_page=5&x=%C3%A9#frag>; rel="first"',
        '<http://gh.example/api/v4/groups?search=a+b+c&page=3&per_page=5&x=%C3%A9#frag>; rel="last"',
      ].join(', '),
    );
  });

  it('append page and per_page to a URL without them, in that order', () => {
    const h = headersFor('/api/v4/groups?access_token=t', new Page([], 1, 20, 0));
    assert.equal(h.Link, '<http://gh.example/api/v4/groups?page=1&per_page=20>; rel="first", <http://gh.example/api/v4/groups?page=1&per_page=20>; rel="last"');
    assert.equal(h['X-Next-Page'], '');
  });

  it('leave out X-Total, X-Total-Pages and the last link of a list too long to count, and still link the next page', () => {
    const h = headersFor('/api/v4/events?page=2&per_page=20', new Page([], 2, 20, undefined, undefined, true));
    assert.equal(h['X-Total'], undefined);
    assert.equal(h['X-Total-Pages'], undefined);
    assert.deepEqual([h['X-Page'], h['X-Per-Page'], h['X-Next-Page'], h['X-Prev-Page']], ['2', '20', '3', '1']);
    assert.equal(
      h.Link,
      [
        '<http://gh.example/api/v4/events?page=1&per_page=20>; rel="prev"',
        '<http://gh.example/api/v4/events?page=3&per_page=20>; rel="next"',
        '<http://gh.example/api/v4/events?page=1&per_page=20>; rel="first"',
      ].join(', '),
    );
    const last = headersFor('/api/v4/events?page=600', new Page([], 600, 20, undefined, undefined, false));
    assert.equal(last['X-Next-Page'], '');
    assert.ok(!last.Link.includes('rel="next"'));
  });

  it('link the next keyset page by its cursor', () => {
    const page = new Page([], 1, 20, undefined, 'abc');
    const h = headersFor('/api/v4/groups?pagination=keyset&per_page=20&cursor=old', page);
    assert.equal(h.Link, '<http://gh.example/api/v4/groups?pagination=keyset&per_page=20&cursor=abc>; rel="next"');
  });
});
