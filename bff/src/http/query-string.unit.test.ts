import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import qs from 'qs';
import { parseQuery } from './query-string.ts';

const viaQs = (s: string) => qs.parse(s, { allowPrototypes: true });

describe('parseQuery', () => {
  it('reads what qs reads, for plain pairs and for everything qs alone knows', () => {
    for (const s of [
      '',
      'per_page=20',
      'per_page=20&page=3&order_by=name&sort=desc',
      'search=a+b%20c&search=d',
      'a=&b=1&a=2&a=3',
      'bad=%E0%A4%A&x=%zz',
      'name=caf%C3%A9&emoji=%F0%9F%98%80',
      'skip_groups[]=1&skip_groups[]=2',
      'skip_groups%5B%5D=1',
      'custom_attributes[key]=value',
      'a[b][c]=1&a=2',
      'hasOwnProperty=1&toString=2',
      '__proto__=x&y=1',
      'constructor=1',
      'a=b=c',
      'a&b=1',
      '=x&y=2',
      'a=1&&b=2',
      'a.b=1',
      'a=1;b=2',
      'q=' + 'x'.repeat(5000),
      Array.from({ length: 1200 }, (_, i) => `k${i}=${i}`).join('&'),
    ]) {
      assert.deepEqual(parseQuery(s), viaQs(s), s.slice(0, 80));
    }
  });

  it('agrees with qs on random plain query strings', () => {
    const chars = 'ab_.-~%2B%20+!*()0129';
    const pick = (n: number) => Array.from({ length: n }, () => chars[Math.floor(Math.random() * chars.length)]).join('');
    for (let i = 0; i < 2000; i++) {
      const pairs = Array.from({ length: 1 + Math.floor(Math.random() * 6) }, () => `${['page', 'per_page', 'a', 'b_c', 'x.y'][Math.floor(Math.random() * 5)]}=${pick(Math.floor(Math.random() * 8))}`);
      const s = pairs.join('&');
      assert.deepEqual(parseQuery(s), viaQs(s), s);
    }
  });
});
