// Runs on SQLite only: the route table against the spec's list of endpoints; the engine changes no route
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { apiRoutes as routes } from '../src/api/index.ts';
import { repoRoot } from '../src/server.ts';
import { z } from 'zod';
import { defineRoute, errorStatuses } from '../src/http/route.ts';
import { notFoundWording, recordId } from '../src/http/params.ts';
import { expectStatus, request as api, startTestServer, type TestServer } from './harness.ts';

/** Areas that are not sections of the spec but what any administration needs (issue 2, section 5). */
const PLATFORM_AREAS = ['projects', 'members', 'users', 'personal-access-tokens', 'deploy-tokens', 'feed-tokens', 'application-settings', 'branches', 'project-push-rules', 'tags', 'commits', 'repository-files', 'repository-tree', 'compare', 'pipelines', 'commit-statuses', 'security-reports', 'vulnerabilities', 'dependencies', 'security-dashboard', 'iteration-cadences', 'issues', 'merge-requests', 'notes', 'labels', 'merge-request-merge', 'group-labels', 'variables', 'group-variables', 'project-milestones', 'resource-iteration-events', 'features', 'namespaces', 'protected-branches', 'protected-tags', 'container-registry', 'system-hooks', 'invitations'];
const SPEC_TSV = path.resolve(repoRoot, '../shared/spec/endpoints.tsv');
const normalise = (method: string, p: string) => `${method.toUpperCase()} ${p.replace(/:[A-Za-z_]+/g, ':')}`;

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

describe('GET /api/v4/openapi.json', () => {
  it('documents every route of the table with its parameters and responses', async () => {
    const res = await api('/openapi.json', { token: null });
    expectStatus(res, 200);
    const doc = res.body as { openapi: string; paths: Record<string, Record<string, { parameters: { name: string; in: string }[]; responses: Record<string, unknown> }>> };
    assert.equal(doc.openapi, '3.1.0');
    for (const r of routes) {
      const op = doc.paths[r.path.replace(/:([A-Za-z_]+)/g, '{$1}')]?.[r.method];
      assert.ok(op, `${r.method.toUpperCase()} ${r.path} is missing from the document`);
      for (const m of r.path.matchAll(/:([A-Za-z_]+)/g)) assert.ok(op.parameters.some((p) => p.in === 'path' && p.name === m[1]));
      for (const code of r.errors ?? []) assert.ok(op.responses[code], `${r.path} lacks its ${code}`);
      // What the declaration implies is documented without being listed by hand.
      if (r.query || r.body) assert.ok(op.responses[400], `${r.method} ${r.path} takes parameters but documents no 400`);
      if (r.load) assert.ok(op.responses[404], `${r.method} ${r.path} loads by path but documents no 404`);
      if (r.permission) assert.ok(op.responses[403], `${r.method} ${r.path} needs a permission but documents no 403`);
      assert.ok(op.responses[401], `${r.method} ${r.path} documents no 401`);
    }
    const list = doc.paths['/groups'].get;
    for (const q of ['search', 'order_by', 'statistics', 'skip_groups', 'page', 'per_page', 'pagination']) {
      assert.ok(list.parameters.some((p) => p.in === 'query' && p.name === q), `GET /groups lacks ${q}`);
    }
  });
  it('is linked from a readable view', async () => {
    const res = await api('/api/docs/', { token: null });
    expectStatus(res, 200);
    assert.match(res.text, /swagger-ui/);
  });
});

describe('the route table', () => {
  it('declares one unique method and path per route, each in a known area', () => {
    const seen = new Set<string>();
    const specAreas = fs.existsSync(SPEC_TSV)
      ? new Set(fs.readFileSync(SPEC_TSV, 'utf8').trim().split('\n').slice(1).map((l) => l.split('\t')[0]))
      : undefined;
    for (const r of routes) {
      const key = normalise(r.method, r.path);
      assert.ok(!seen.has(key), `${key} is declared twice`);
      seen.add(key);
      assert.ok(r.summary.length > 0);
      if (specAreas) assert.ok(specAreas.has(r.area) || PLATFORM_AREAS.includes(r.area), `unknown area ${r.area}`);
    }
  });

  it('serves the spec endpoints built so far, and reports the others', (t) => {
    if (!fs.existsSync(SPEC_TSV)) {
      t.skip('../shared/spec/endpoints.tsv is not beside this checkout');
      return;
    }
    const served = new Set(routes.map((r) => normalise(r.method, r.path)));
    const spec = fs
      .readFileSync(SPEC_TSV, 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split('\t'))
      .map(([area, method, p]) => ({ area, key: normalise(method, p) }));
    // Built by the foundation issue: the groups section but for token revocation (issue 3).
    for (const key of ['GET /groups', 'GET /groups/:', 'PUT /groups/:', 'GET /groups/:/avatar']) {
      assert.ok(served.has(key), `${key} should be served`);
    }
    const byArea = new Map<string, { served: number; missing: string[] }>();
    for (const e of spec) {
      const a = byArea.get(e.area) ?? { served: 0, missing: [] };
      if (served.has(e.key)) a.served++;
      else a.missing.push(e.key);
      byArea.set(e.area, a);
    }
    const total = spec.length;
    const done = spec.filter((e) => served.has(e.key)).length;
    const lines = [...byArea].map(([area, a]) => `  ${area.padEnd(32)} ${a.served}/${a.served + a.missing.length}`);
    t.diagnostic(`spec endpoints served: ${done}/${total}\n${lines.join('\n')}`);
    assert.ok(done >= 4);
  });
});

describe('route declarations', () => {
  const declaration = { method: 'get' as const, area: 'groups', summary: 'test', handler: async () => ({}) };

  it('refuse a path parameter that is neither loaded nor declared', () => {
    assert.throws(() => defineRoute({ ...declaration, path: '/groups/:id/things/:thing_id', load: 'group' }), /declare the path parameter\(s\) thing_id/);
    assert.throws(() => defineRoute({ ...declaration, path: '/users/:id' }), /declare the path parameter\(s\) id/);
    assert.doesNotThrow(() => defineRoute({ ...declaration, path: '/groups/:id/things/:thing_id', load: 'group', params: { thing_id: recordId('Thing') } }));
  });

  it('give every path parameter of the table a schema, or the load that resolves it', () => {
    for (const r of routes) {
      for (const [, name] of r.path.matchAll(/:([A-Za-z_]+)/g)) {
        assert.ok((name === 'id' && r.load) || r.params?.[name], `${r.method.toUpperCase()} ${r.path}: :${name} has no schema`);
      }
    }
  });

  it('parse a record id as digits up to 2³¹−1, with the record\'s own 404 wording', () => {
    const id = recordId('Hook');
    assert.equal(notFoundWording(id), 'Hook');
    assert.equal(id.parse('42'), 42);
    assert.equal(id.parse('2147483647'), 2_147_483_647);
    for (const bad of ['2147483648', '-1', '1.0', '0x1', ' 1', '', 'abc']) assert.equal(id.safeParse(bad).success, false, bad);
    assert.equal(notFoundWording(z.string()), undefined);
    // Without a name: the platform's generic 404 for a record found with ActiveRecord's find.
    assert.equal(notFoundWording(recordId()), '');
  });

  it('derive their documented error codes from what they declare', () => {
    const base = { ...declaration, path: '/x' };
    assert.deepEqual(errorStatuses(defineRoute(base)), [401]);
    assert.deepEqual(errorStatuses(defineRoute({ ...base, method: 'post' })), [401, 403]);
    assert.deepEqual(errorStatuses(defineRoute({ ...base, path: '/groups/:id', load: 'group', permission: 'admin_group' })), [401, 403, 404]);
    assert.deepEqual(errorStatuses(defineRoute({ ...base, path: '/users/:user_id', params: { user_id: recordId('User') } })), [401, 404]);
    assert.deepEqual(errorStatuses(defineRoute({ ...base, path: '/things/:key', params: { key: z.string().max(3) } })), [400, 401, 404]);
    assert.deepEqual(errorStatuses(defineRoute({ ...base, method: 'put', body: z.object({ a: z.string() }), errors: [422] })), [400, 401, 403, 415, 422]);
  });
});
