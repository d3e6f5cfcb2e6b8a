import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import qs from 'qs';
import { parseFields, parseForm, parseQuery } from './query-string.ts';

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

describe('arrays of hashes, as Rack reads them (name[][key])', () => {
  it('starts a new hash where a key the last one holds repeats, in forms and queries alike', () => {
    const rack = 'actions[][action]=create&actions[][file_path]=a&actions[][content]=x&actions[][action]=update&actions[][file_path]=b&branch=main';
    const expected = { actions: [{ action: 'create', file_path: 'a', content: 'x' }, { action: 'update', file_path: 'b' }], branch: 'main' };
    assert.deepEqual(parseForm(rack), expected);
    assert.deepEqual(parseQuery(rack), expected);
    assert.deepEqual(parseForm(rack.replace(/\[/g, '%5B').replace(/\]/g, '%5D')), expected);
    assert.deepEqual(parseFields(rack.split('&').map((p) => p.split('=') as [string, string])), expected);
    // qs alone gathers every action in one hash: the reason for the rule.
    assert.notDeepEqual(qs.parse(rack), expected);
  });

  it('follows Rack where the keys nest, where a list holds scalars, and where a hash sits deeper', () => {
    assert.deepEqual(parseForm('a[][b][c]=1&a[][b][d]=2&a[][b][c]=3'), { a: [{ b: { c: '1', d: '2' } }, { b: { c: '3' } }] });
    assert.deepEqual(parseForm('a[][b][]=1&a[][b][]=2&a[][c]=3'), { a: [{ b: ['1', '2'], c: '3' }] });
    assert.deepEqual(parseForm('a[]=1&a[][k]=2&a[][k]=3'), { a: ['1', { k: '2' }, { k: '3' }] });
    assert.deepEqual(parseForm('d[push][][level]=30&d[push][][level]=40&d[merge][][level]=40'), { d: { push: [{ level: '30' }, { level: '40' }], merge: [{ level: '40' }] } });
    assert.deepEqual(parseForm('skip[]=1&skip[]=2&x=1&x=2'), { skip: ['1', '2'], x: ['1', '2'] });
  });

  it('makes a list of a hash keyed by indexes past qs’s limit of 20, in their order', () => {
    const pairs = Array.from({ length: 30 }, (_, i) => `a[${29 - i}][x]=${29 - i}`).join('&');
    const parsed = parseForm(pairs) as { a: { x: string }[] };
    assert.equal(parsed.a.length, 30);
    assert.deepEqual(parsed.a.map((e) => e.x), Array.from({ length: 30 }, (_, i) => String(i)));
    const many = Array.from({ length: 40 }, (_, i) => `a[][k]=${i}&a[][v]=${i}`).join('&');
    assert.equal((parseQuery(many) as { a: unknown[] }).a.length, 40);
    // A top-level hash keeps its keys; one of words stays a hash.
    assert.deepEqual(parseForm('0=a&1=b'), { 0: 'a', 1: 'b' });
    assert.deepEqual(parseForm('h[0]=a&h[x]=b'), { h: { 0: 'a', x: 'b' } });
  });

  it('refuses a form body of more than 1000 fields', () => {
    assert.equal(parseForm(Array.from({ length: 1001 }, (_, i) => `k${i}=1`).join('&')), undefined);
    assert.ok(parseForm(Array.from({ length: 1000 }, (_, i) => `k${i}=1`).join('&')));
  });
});
