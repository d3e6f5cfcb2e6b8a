import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { pageChange, parseSort, readListParams, sortChange, sortValue, withChanges } from './list-params-model.ts';

const KEYS = ['name', 'created', 'last_used'] as const;
const query = (s: string) => new URLSearchParams(s);

describe('sortValue and parseSort', () => {
  it('write and read the API shape <key>_<dir>', () => {
    assert.equal(sortValue({ key: 'last_used', dir: 'desc' }), 'last_used_desc');
    assert.deepEqual(parseSort('last_used_desc', KEYS), { key: 'last_used', dir: 'desc' });
    assert.deepEqual(parseSort('name_asc', KEYS), { key: 'name', dir: 'asc' });
  });
  it('refuse a key the list does not sort by, a bad direction and nothing', () => {
    assert.equal(parseSort('size_asc', KEYS), null);
    assert.equal(parseSort('name_up', KEYS), null);
    assert.equal(parseSort('name', KEYS), null);
    assert.equal(parseSort(null, KEYS), null);
  });
});

describe('readListParams', () => {
  it('reads page, per_page, search and sort', () => {
    assert.deepEqual(readListParams(query('page=3&per_page=50&search=web&sort=name_asc'), { sortKeys: KEYS }), {
      page: 3,
      perPage: 50,
      search: 'web',
      sort: { key: 'name', dir: 'asc' },
    });
  });
  it('starts on page 1 with the API default size, no search and the default sort', () => {
    const defaultSort = { key: 'created', dir: 'desc' } as const;
    assert.deepEqual(readListParams(query(''), { sortKeys: KEYS, defaultSort }), { page: 1, perPage: undefined, search: '', sort: defaultSort });
  });
  it('takes a page that is not a positive number as page 1', () => {
    for (const page of ['0', '-2', 'two', '']) assert.equal(readListParams(query(`page=${page}`)).page, 1, page);
    assert.equal(readListParams(query('page=7abc')).page, 7);
  });
  it('keeps per_page only from 1 to 100', () => {
    assert.equal(readListParams(query('per_page=100')).perPage, 100);
    assert.equal(readListParams(query('per_page=1')).perPage, 1);
    assert.equal(readListParams(query('per_page=101')).perPage, undefined);
    assert.equal(readListParams(query('per_page=0')).perPage, undefined);
  });
  it('falls back to the default for a sort it does not know', () => {
    const defaultSort = { key: 'created', dir: 'desc' } as const;
    assert.deepEqual(readListParams(query('sort=size_asc'), { sortKeys: KEYS, defaultSort }).sort, defaultSort);
    assert.equal(readListParams(query('sort=name_asc')).sort, undefined);
  });
});

describe('withChanges', () => {
  it('sets and removes parameters and goes back to page 1', () => {
    const next = withChanges(query('page=4&search=old&state=active'), { search: 'new', state: null });
    assert.equal(next.toString(), 'search=new');
  });
  it('removes a parameter set to an empty string', () => {
    assert.equal(withChanges(query('search=x&tab=a'), { search: '' }).toString(), 'tab=a');
  });
  it('keeps the other parameters when paging', () => {
    assert.equal(withChanges(query('page=2&search=web'), { page: '3' }).toString(), 'page=3&search=web');
    assert.equal(withChanges(query('page=2&search=web'), pageChange(1)).toString(), 'search=web');
  });
  it('leaves the query it was given as it was', () => {
    const prev = query('page=2&search=web');
    withChanges(prev, { search: null });
    assert.equal(prev.toString(), 'page=2&search=web');
  });
});

describe('pageChange and sortChange', () => {
  it('page 1 is the URL without a page', () => {
    assert.deepEqual(pageChange(1), { page: null });
    assert.deepEqual(pageChange(5), { page: '5' });
  });
  it('a sort is written unless it is the default', () => {
    const opts = { sortKeys: KEYS, defaultSort: { key: 'created', dir: 'desc' } as const };
    assert.deepEqual(sortChange({ key: 'name', dir: 'asc' }, opts), { sort: 'name_asc' });
    assert.deepEqual(sortChange({ key: 'created', dir: 'asc' }, opts), { sort: 'created_asc' });
    assert.deepEqual(sortChange({ key: 'created', dir: 'desc' }, opts), { sort: null });
  });
  it('a column the list does not sort by changes nothing', () => {
    assert.equal(sortChange({ key: 'size', dir: 'asc' }, { sortKeys: KEYS }), null);
    assert.equal(sortChange({ key: 'name', dir: 'asc' }, {}), null);
  });
});
