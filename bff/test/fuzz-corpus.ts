import { MALFORMED_MULTIPART, type FuzzCase, type Segment } from './fuzz-lib.ts';

/**
 * Cases that once failed, replayed first by every fuzz run whatever its seed, so a bug found by
 * one seed stays covered by all. Add the case a failure report prints when it is not obvious
 * that a random run finds it again. Fixture IDs are resolved when the case is sent.
 */
const real = (...names: string[]): Record<string, Segment> => Object.fromEntries(names.map((n) => [n, { fixture: 'id' }]));
const admin = { as: 'admin' } as const;
const json = (value: unknown) => ({ kind: 'JSON', contentType: 'application/json', text: JSON.stringify(value) });

export const FUZZ_CORPUS: FuzzCase[] = [
  // A date that matches YYYY-MM-DD but is none: answered 500 on both engines.
  ...['4500-54-02', '2024-13-01', '2031-02-30'].map((expires_at) => ({
    op: { method: 'post', path: '/groups/:id/deploy_tokens' },
    method: 'post',
    params: real('id'),
    query: '',
    caller: admin,
    body: json({ name: 'corpus', scopes: ['read_repository'], expires_at }),
  })),
  // IDs past PostgreSQL's integer in a list filter: answered 500 on PostgreSQL.
  ...['/groups/:id/members', '/groups/:id/members/all', '/projects/:id/members', '/projects/:id/members/all'].flatMap((path) =>
    ['user_ids=2147483648', 'user_ids[]=-2147483649', 'user_ids=9007199254740993'].map((query) => ({ op: { method: 'get', path }, method: 'get', params: real('id'), query, caller: admin })),
  ),
  // A long query that passes validation (900 user IDs), copied four times into Link: a response
  // head past 16 KiB that fetch (undici) cannot read. Found with junk user_ids, which are refused now.
  ...['/groups/:id/members', '/projects/:id/members/all'].map((path) => ({
    op: { method: 'get', path },
    method: 'get',
    params: real('id'),
    query: `per_page=1&user_ids=${Array.from({ length: 900 }, (_, i) => 100_000 + i).join(',')}`,
    caller: admin,
  })),
  // Issue 7: malformed multipart without a token (500 once), NUL in a path parameter (500 on PostgreSQL once).
  ...MALFORMED_MULTIPART.slice(0, 4).map((body) => ({ op: { method: 'put', path: '/groups/:id' }, method: 'put', params: real('id'), query: '', caller: { as: 'anonymous' as const }, body })),
  ...MALFORMED_MULTIPART.slice(0, 4).map((body) => ({ op: { method: 'put', path: '/groups/:id' }, method: 'put', params: real('id'), query: '', caller: admin, body })),
  { op: { method: 'get', path: '/groups/:id/scim/:uid' }, method: 'get', params: { id: { fixture: 'id' }, uid: { raw: '%00' } }, query: '', caller: admin },
  { op: { method: 'get', path: '/groups/:id/hooks/:hook_id' }, method: 'get', params: { id: { fixture: 'id' }, hook_id: { raw: 'a%00b' } }, query: '', caller: admin },
  // Issue 23: a Guest read a private project's merge requests through the group's list and its pushes and merge requests in the
  // activity feeds; a removed author still read and downloaded their exports and their dashboard's projects.
  ...(
    [
      ['guest', '/groups/:id/merge_requests', ''],
      ['guest', '/groups/:id/milestones/:milestone_id/merge_requests', ''],
      ['guest', '/groups/:id/issues', ''],
      ['guest', '/projects/:id/events', ''],
      ['guest', '/users/:user_id/events', ''],
      ['guest', '/events', 'scope=all'],
      ['former', '/security/vulnerability_exports/:id', ''],
      ['former', '/security/vulnerability_exports/:id/download', ''],
      ['former', '/dependency_list_exports/:id', ''],
      ['former', '/dependency_list_exports/:id/download', ''],
      ['former', '/security/dashboard/projects', ''],
      ['former', '/events', 'scope=all'],
      ['former', '/users/:user_id/events', ''],
      ['anonymous', '/users/:user_id/events', ''],
    ] as const
  ).map(([as, path, query]) => ({ op: { method: 'get', path }, method: 'get', params: real(...[...path.matchAll(/:([a-z_]+)/g)].map((m) => m[1])), query, caller: { as } })),
];
