import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { z } from 'zod';
import { routes } from '../src/api/index.ts';
import { urlPathOf, type RouteSpec } from '../src/http/route.ts';
import { notFoundWording } from '../src/http/params.ts';
import { request as api, routeKey, startTestServer, type ApiResponse, type TestServer } from './harness.ts';
import { startReceiver, type Receiver } from './receiver.ts';
import { buildWorld, countChanges, rowCounts, segmentText, type World } from './fuzz-run.ts';

/**
 * What every list and every loaded resource share, checked for every route of the table, so a
 * route declared later is covered the moment it exists (or fails here until it can be):
 * - a list answers with the platform's pagination headers;
 * - each path parameter that names a record answers `404 <Record> Not Found` for a record that
 *   does not exist, for a value that is not an id and for an id past 2³¹−1, and changes nothing.
 * Who may call each route (roles, scopes, credentials) is the authorisation matrix's part
 * (authorization.test.ts).
 */

const paramsOf = (r: RouteSpec) => [...r.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]);
const isList = (r: RouteSpec) => r.method === 'get' && (r.response as { _zod?: { def?: { type?: string } } } | undefined)?._zod?.def?.type === 'array';

/**
 * Lists the platform does not paginate, or that do not paginate yet, each with why. A route
 * listed here must answer without the headers (so the entry goes once it paginates).
 */
const UNPAGINATED: Record<string, string> = {
  'GET /users/:id/custom_attributes': 'the platform answers every attribute of a record at once',
  'GET /groups/:id/custom_attributes': 'the platform answers every attribute of a record at once',
  'GET /projects/:id/custom_attributes': 'the platform answers every attribute of a record at once',
  'GET /projects/:id/pipelines/:pipeline_id/variables': 'the platform answers every variable of a pipeline at once',
  'GET /projects/:id/issues/:issue_iid/links': 'the platform answers every link of an issue at once',
  'GET /groups/:id/milestones/:milestone_id/burndown_events': 'the platform answers a milestone’s whole history at once (a chart needs all of it)',
  'GET /projects/:id/milestones/:milestone_id/burndown_events': 'the platform answers a milestone’s whole history at once (a chart needs all of it)',
  'GET /features': 'the platform answers every flag that was set at once',
  'GET /features/definitions': 'the platform answers every definition at once',
  'GET /api/console/feature_flags': 'the console’s screen of the flags: the few Gatehouse reads and any set beside them, at once',
  'GET /projects/:id/repository/files/:file_path/blame': 'the platform answers a file’s whole blame (or its range) at once',
  'GET /projects/:id/registry/protection/repository/rules': 'the platform answers every protection rule of a project at once',
};

/** A body each write accepts, where its declared body needs more than `{}`: the 404 must not hide behind a 400. */
const SAMPLE_BODIES: Record<string, unknown> = {
  'POST /groups/:id/access_tokens': { name: 'checks', scopes: ['api'] },
  'PUT /groups/:id': { description: 'checks' },
  'POST /projects/:id/protected_branches': { name: 'checks-*' },
  'POST /projects/:id/protected_tags': { name: 'checks-*' },
  'POST /groups/:id/tokens/revoke': { token: 'glpat-00000000000000000000' },
  'POST /projects/:id/registry/protection/repository/rules': { repository_path_pattern: 'checks/*', minimum_access_level_for_push: 'maintainer' },
  'POST /groups/:id/push_rule': { commit_message_regex: '^checks' },
  'PUT /groups/:id/push_rule': { commit_message_regex: '^checks' },
  'POST /projects/:id/push_rule': { commit_message_regex: '^checks' },
  'PUT /projects/:id/push_rule': { commit_message_regex: '^checks' },
  'PUT /users/:id/custom_attributes/:key': { value: 'v' },
  'PUT /groups/:id/custom_attributes/:key': { value: 'v' },
  'PUT /projects/:id/custom_attributes/:key': { value: 'v' },
  'PATCH /groups/:id/scim/:uid': { extern_uid: 'checks' },
  'POST /groups/:id/hooks': { url: 'http://127.0.0.1:9/checks' },
  'PUT /groups/:id/hooks/:hook_id': { url: 'http://127.0.0.1:9/checks' },
  'POST /projects/:id/hooks': { url: 'http://127.0.0.1:9/checks' },
  'PUT /projects/:id/hooks/:hook_id': { url: 'http://127.0.0.1:9/checks' },
  'POST /hooks': { url: 'http://127.0.0.1:9/checks' },
  'PUT /hooks/:hook_id': { url: 'http://127.0.0.1:9/checks' },
  'PUT /projects/:id/transfer': { namespace: '1' },
  'POST /groups/:id/deploy_tokens': { name: 'checks', scopes: ['read_repository'] },
  'POST /projects/:id/repository/branches': { branch: 'checks', ref: 'main' },
  'POST /projects/:id/repository/tags': { tag_name: 'checks', ref: 'main' },
  'POST /projects/:id/repository/commits': { branch: 'checks', start_branch: 'main', commit_message: 'checks', actions: [{ action: 'create', file_path: 'checks.txt', content: 'checks' }] },
  'POST /projects/:id/repository/commits/:sha/comments': { note: 'checks' },
  'POST /projects/:id/repository/files/:file_path': { branch: 'checks', start_branch: 'main', commit_message: 'checks', content: 'checks' },
  'PUT /projects/:id/repository/files/:file_path': { branch: 'checks', start_branch: 'main', commit_message: 'checks', content: 'checks' },
  'DELETE /projects/:id/repository/files/:file_path': { branch: 'checks', start_branch: 'main', commit_message: 'checks' },
  'POST /groups/:id/members': { user_id: 1, access_level: 30 },
  'PUT /groups/:id/members/:user_id': { access_level: 30 },
  'POST /projects/:id/members': { user_id: 1, access_level: 30 },
  'PUT /projects/:id/members/:user_id': { access_level: 30 },
  'POST /groups/:id/invitations': { email: 'checks@example.com', access_level: 30 },
  'PUT /groups/:id/invitations/:email': { access_level: 30 },
  'POST /projects/:id/invitations': { email: 'checks@example.com', access_level: 30 },
  'PUT /projects/:id/invitations/:email': { access_level: 30 },
  'POST /users/:user_id/personal_access_tokens': { name: 'checks', scopes: ['api'] },
  'POST /projects/:id/triggers': { description: 'checks' },
  'POST /projects/:id/trigger/pipeline': { token: 'gtptt-checks', ref: 'main' },
  'POST /projects/:id/statuses/:sha': { state: 'success' },
  'POST /projects/:id/merge_requests/:merge_request_iid/context_commits': { commits: ['0000000000000000000000000000000000000000'] },
  'POST /projects/:id/pipelines/:pipeline_id/reports': { report_type: 'sast' },
  'POST /projects/:id/snippets': { title: 'checks', files: [{ file_path: 'checks.txt', content: 'checks' }] },
  'PUT /projects/:id/snippets/:snippet_id': { title: 'checks' },
  'POST /projects/:id/issues/:issue_iid/award_emoji': { name: 'thumbsup' },
  'POST /projects/:id/issues/:issue_iid/notes/:note_id/award_emoji': { name: 'thumbsup' },
  'POST /projects/:id/merge_requests/:merge_request_iid/award_emoji': { name: 'thumbsup' },
  'POST /projects/:id/merge_requests/:merge_request_iid/notes/:note_id/award_emoji': { name: 'thumbsup' },
  'POST /projects/:id/snippets/:snippet_id/award_emoji': { name: 'thumbsup' },
  'POST /projects/:id/issues/:issue_iid/links': { target_project_id: 1, target_issue_iid: 1 },
  'POST /groups/:id/epics': { title: 'checks' },
  'PUT /groups/:id/epics/:epic_iid': { title: 'checks' },
  'POST /projects/:id/dependency_list_exports': { export_type: 'csv' },
  'POST /groups/:id/dependency_list_exports': { export_type: 'csv' },
  'POST /pipelines/:id/dependency_list_exports': { export_type: 'sbom' },
  'POST /groups/:id/iteration_cadences': { title: 'checks', automatic: false },
  'POST /groups/:id/milestones': { title: 'checks' },
  'POST /projects/:id/milestones': { title: 'checks' },
  'POST /projects/:id/variables': { key: 'checks', value: 'checks' },
  'POST /groups/:id/variables': { key: 'checks', value: 'checks' },
  'POST /groups/:id/iteration_cadences/:cadence_id/iterations': { start_date: '2030-01-01', due_date: '2030-01-14' },
  'POST /projects/:id/issues': { title: 'checks' },
  'POST /projects/:id/merge_requests': { source_branch: 'fuzz-mr', target_branch: 'main', title: 'checks' },
  'POST /groups/:id/labels': { name: 'checks', color: '#123456' },
  'POST /projects/:id/labels': { name: 'checks', color: '#123456' },
  'PUT /projects/:id/issues/:issue_iid': { title: 'checks' },
  'POST /projects/:id/issues/:issue_iid/notes': { body: 'checks' },
  'PUT /projects/:id/issues/:issue_iid/notes/:note_id': { body: 'checks' },
  'PUT /projects/:id/merge_requests/:merge_request_iid': { title: 'checks' },
  'POST /projects/:id/merge_requests/:merge_request_iid/notes': { body: 'checks' },
  'PUT /projects/:id/merge_requests/:merge_request_iid/notes/:note_id': { body: 'checks' },
  'POST /projects/:id/snippets/:snippet_id/notes': { body: 'checks' },
  'PUT /projects/:id/snippets/:snippet_id/notes/:note_id': { body: 'checks' },
  'POST /projects/:id/snippets/:snippet_id/notes/:note_id/award_emoji': { name: 'thumbsup' },
  'PUT /projects/:id': { description: 'checks' },
  'PUT /groups/:id/labels/:label_id': { color: '#fff' },
  'PUT /groups/:id/labels': { name: 'fuzz', color: '#fff' },
  'PUT /projects/:id/labels': { name: 'fuzz', color: '#fff' },
  'PUT /projects/:id/labels/:label_id': { color: '#fff' },
  'PUT /projects/:id/error_tracking/settings': { active: true, integrated: true },
  'PUT /projects/:id/error_tracking/errors/:error_id': { status: 'resolved' },
  'POST /groups/:id/-/virtual_registries/packages/maven/registries': { name: 'checks' },
  'POST /groups/:id/-/virtual_registries/packages/maven/upstreams/test': { url: 'https://repo.example.com/maven2' },
  'PATCH /virtual_registries/packages/maven/registries/:id': { name: 'checks' },
  'POST /virtual_registries/packages/maven/registries/:id/upstreams': { url: 'https://repo.example.com/maven2' },
  'PATCH /virtual_registries/packages/maven/upstreams/:id': { name: 'checks' },
  'PATCH /virtual_registries/packages/maven/registry_upstreams/:id': { position: 1 },
  'POST /code_suggestions/completions': { current_file: { file_name: 'checks.ts', content_above_cursor: 'const a = ' } },
  'POST /code_suggestions/enabled': { project_path: 'checks/checks' },
};
const sampleBody = (r: RouteSpec) => SAMPLE_BODIES[routeKey(r)] ?? {};

/** What a list needs beyond its page where it requires more (a file that exists, a ref): its answer must not hide behind a 400 or 404. */
const LIST_SAMPLES: Record<string, { segments: Record<string, string>; query: string }> = {
  'GET /projects/:id/repository/files/:file_path/blame': { segments: { file_path: 'README.md' }, query: '&ref=main' },
};

/** The record a path parameter names, as its 404 says: the loaded group or project, or the parameter's declared record ('' for the platform's generic 404). */
function recordNamed(r: RouteSpec, param: string): string | undefined {
  if (param === 'id' && r.load) return ({ group: 'Group', project: 'Project', pipeline: 'Pipeline' } as const)[r.load];
  // Through wrappers such as .catch(), which a route may add for its own refusals.
  for (let schema = r.params?.[param] as z.ZodType | undefined; schema; schema = (schema as { _zod: { def: { innerType?: z.ZodType } } })._zod.def.innerType) {
    const wording = notFoundWording(schema);
    if (wording !== undefined) return wording;
  }
  return undefined;
}

/** Values that name no record: one that could exist but does not, one that is not an id, one past 2³¹−1. */
const MISSING = ['987654321', 'no-such-record', '2147483648', '99999999999999999999999'];

let server: TestServer;
let receiver: Receiver;
let world: World;
before(async () => {
  // No job workers: row counts change only by what a request itself writes.
  server = await startTestServer({ GATEHOUSE_WORKERS: '0', GATEHOUSE_HOOK_TIMEOUT_SECONDS: '1' });
  receiver = await startReceiver();
  world = await buildWorld(server.running.db, receiver);
});
after(async () => {
  await receiver.close();
  await server.close();
});

/** The route's path with the fixtures' records, and `overrides` where given. */
function pathOf(r: RouteSpec, overrides: Record<string, string> = {}): string {
  return urlPathOf(r).replace(/:([A-Za-z_]+)/g, (_m, p: string) => overrides[p] ?? segmentText(world, r.path, p, { fixture: 'id' }));
}

const call = (r: RouteSpec, path: string, query = '') =>
  api(`${path}${query}`, { method: r.method.toUpperCase(), token: world.adminToken, ...(r.method === 'get' || r.method === 'delete' ? {} : { json: sampleBody(r) }) });

const show = (r: RouteSpec, res: ApiResponse) => `${routeKey(r)} answered ${res.status} ${res.text.slice(0, 300)}`;

describe('every list', () => {
  for (const r of routes.filter(isList)) {
    const exempt = UNPAGINATED[routeKey(r)];
    it(`${routeKey(r)} ${exempt ? `is not paginated: ${exempt}` : 'answers with the pagination headers'}`, async () => {
      const sample = LIST_SAMPLES[routeKey(r)];
      const path = pathOf(r, sample?.segments);
      const first = await call(r, path, `?per_page=1${sample?.query ?? ''}`);
      assert.equal(first.status, 200, show(r, first));
      if (exempt) {
        assert.equal(first.headers.get('x-total'), null, `${routeKey(r)} paginates now: take it out of UNPAGINATED`);
        return;
      }
      const h = (name: string) => first.headers.get(name);
      assert.match(h('x-total') ?? '', /^\d+$/, `X-Total of ${routeKey(r)}`);
      const total = Number(h('x-total'));
      assert.equal(first.body.length, Math.min(total, 1), `per_page=1 of ${routeKey(r)} with X-Total ${total}`);
      assert.deepEqual(
        { perPage: h('x-per-page'), page: h('x-page'), totalPages: h('x-total-pages'), next: h('x-next-page'), prev: h('x-prev-page') },
        { perPage: '1', page: '1', totalPages: String(Math.max(1, total)), next: total > 1 ? '2' : '', prev: '' },
        routeKey(r),
      );
      const rels = [...(h('link') ?? '').matchAll(/<([^>]+)>;\s*rel="(\w+)"/g)].map((m) => ({ rel: m[2], url: new URL(m[1]) }));
      assert.deepEqual(rels.map((l) => l.rel).sort(), (total > 1 ? ['first', 'last', 'next'] : ['first', 'last']).sort(), `Link of ${routeKey(r)}: ${h('link')}`);
      for (const { url } of rels) assert.equal(url.pathname, path, `Link of ${routeKey(r)} leads elsewhere: ${url}`);
    });
  }
  it('include every route whose response is an array, and nothing else is exempt', () => {
    assert.ok(routes.filter(isList).length > 10, 'lists are recognised by their declared array response');
    assert.deepEqual(Object.keys(UNPAGINATED).filter((k) => !routes.some((r) => isList(r) && routeKey(r) === k)), []);
  });
});

describe('every path parameter naming a record', () => {
  for (const r of routes) {
    const named = paramsOf(r).filter((p) => recordNamed(r, p) !== undefined);
    if (!named.length) continue;
    describe(routeKey(r), () => {
      for (const param of named) {
        const what = recordNamed(r, param);
        const message = what ? `404 ${what} Not Found` : '404 Not found';
        it(`answers ${message} for a missing :${param}, changing nothing`, async () => {
          const expected = { message };
          for (const missing of MISSING) {
            const before = r.method === 'get' ? undefined : await rowCounts(server.running.db);
            const res = await call(r, pathOf(r, { [param]: encodeURIComponent(missing) }));
            assert.equal(res.status, 404, `:${param} = ${missing}: ${show(r, res)}`);
            assert.deepEqual(res.body, expected, `:${param} = ${missing}`);
            if (before) assert.deepEqual(countChanges(before, await rowCounts(server.running.db)), [], `:${param} = ${missing}`);
          }
        });
      }
    });
  }
  it('each write is called with a body its declaration accepts', () => {
    const refused = routes.filter((r) => r.body && paramsOf(r).some((p) => recordNamed(r, p) !== undefined) && !r.body.safeParse(sampleBody(r)).success).map(routeKey);
    assert.deepEqual(refused, [], 'add a sample to SAMPLE_BODIES');
    assert.deepEqual(Object.keys(SAMPLE_BODIES).filter((k) => !routes.some((r) => routeKey(r) === k)), []);
  });
  it('include every path parameter that is a record id', () => {
    // A parameter declared with neither a loader nor a record's wording is free text (a key, a trigger).
    const free = routes.flatMap((r) => paramsOf(r).filter((p) => recordNamed(r, p) === undefined).map((p) => `${routeKey(r)} :${p}`));
    const ids = free.filter((k) => /_id$|:id$/.test(k));
    assert.deepEqual(ids, [], 'an id parameter should be declared with recordId (http/params.ts) or loaded');
  });
});
