import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { routes } from '../src/api/index.ts';
import { loadConfig } from '../src/config.ts';
import { exportJob } from '../src/jobs/export.ts';
import { parseCsv } from '../src/services/security/exports/csv-read.ts';
import type { JobRow } from '../src/db/schema.ts';
import { addMember, buildGroup, buildProject, buildUser, expectStatus, request as api, routeKey, startTestServer, type TestServer } from './harness.ts';
import { insertComponents, insertFindings } from './export-fixtures.ts';

/**
 * The authorisation matrix's "after losing access" part. A member who had the role made a record
 * (an export, a dashboard project, a token, a hook, a merge request, their own activity…), then
 * lost the role: removed from the group, or moved below the role. Every route that serves the
 * record must now refuse them as the platform does (404 where they no longer see the group or
 * project, 403 where they see it without the role, 403 from an export's own policy), and the
 * lists that held it must leave it out. Each row first checks that the member was served (so a
 * row whose path no longer reaches its record fails rather than passes). The table is data: a
 * record a new area keeps for its maker joins it with the routes that serve it.
 */

const [GUEST, REPORTER, DEVELOPER, MAINTAINER, OWNER] = [10, 20, 30, 40, 50];
type Ids = Record<string, number | string>;
interface Member {
  id: number;
  token: string;
}
type Loss = 'removed' | 'downgraded';
interface Served {
  route: string;
  path: (ids: Ids, m: Member) => string;
  /** For a list: whether it holds the record. Lists answer 200 without it once the role is lost, or refuse as `refused` says. */
  holds?: (body: unknown, ids: Ids) => boolean;
  /** How the route refuses once the role is lost; a list without it only leaves the record out. */
  refused?: Partial<Record<Loss, 403 | 404>>;
}
interface Kept {
  record: string;
  /** The role the member holds on the fixture group when making it, and the one a downgrade leaves. */
  role: number;
  below: number;
  make: (m: Member) => Promise<Ids>;
  serves: Served[];
}

let server: TestServer;
const fx = {} as { group: { id: number }; project: { id: number }; other: { id: number }; otherProject: { id: number }; pipelineId: number };
const exportsConfig = loadConfig({ GATEHOUSE_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-lost-')), GATEHOUSE_LOG_LEVEL: 'silent' });

async function ok(p: string, init: Parameters<typeof api>[1], status: number) {
  const res = await api(p, init);
  expectStatus(res, status);
  return res.body;
}

/** Runs an export's job here and now (this server runs no workers), as a worker would. */
async function runExport(id: number): Promise<void> {
  const job = { attempts: 1, max_attempts: 3 } as JobRow;
  await exportJob.handler({ export_id: id }, { db: server.running.db, vault: server.running.vault, files: server.running.files, config: exportsConfig, logger: pino({ level: 'silent' }), instanceUrl: server.url, job, batch: undefined, shared: undefined });
}

const holdsId = (body: unknown, ids: Ids) => Array.isArray(body) && body.some((r: { id?: number }) => r.id === ids.id);
const consoleExports: Served = { route: 'GET /api/console/exports', path: () => '/api/console/exports?per_page=100', holds: holdsId };
const exportRoutes = (base: string): Served[] => [
  { route: `GET ${base}/:id`, path: (ids) => `${base}/${ids.id}`, refused: { removed: 403, downgraded: 403 } },
  { route: `GET ${base}/:id/download`, path: (ids) => `${base}/${ids.id}/download`, refused: { removed: 403, downgraded: 403 } },
  consoleExports,
];
const exportMadeBy = (on: string, json: object) => async (m: Member) => {
  const made = await ok(on, { method: 'POST', token: m.token, json }, 201);
  await runExport(made.id);
  return { id: made.id };
};
/** Reads of a group's or project's records: 404 once the member no longer sees it, 403 with a lower role. */
const roleRead = (route: string, p: Served['path'], holds?: Served['holds']): Served => ({ route, path: p, holds, refused: { removed: 404, downgraded: 403 } });

const KEPT: Kept[] = [
  { record: 'a vulnerability export of a project', role: DEVELOPER, below: REPORTER, make: (m) => exportMadeBy(`/security/projects/${fx.project.id}/vulnerability_exports`, {})(m), serves: exportRoutes('/security/vulnerability_exports') },
  { record: 'a vulnerability export of a group', role: DEVELOPER, below: REPORTER, make: (m) => exportMadeBy(`/security/groups/${fx.group.id}/vulnerability_exports`, {})(m), serves: exportRoutes('/security/vulnerability_exports') },
  {
    record: 'a vulnerability export of the security dashboard',
    role: DEVELOPER,
    below: REPORTER,
    make: async (m) => {
      await ok('/security/dashboard/projects', { method: 'POST', token: m.token, json: { project_id: fx.project.id } }, 201);
      return exportMadeBy('/security/vulnerability_exports', {})(m);
    },
    serves: exportRoutes('/security/vulnerability_exports'),
  },
  {
    record: 'a project on the security dashboard',
    role: DEVELOPER,
    below: REPORTER,
    make: async (m) => ({ id: (await ok('/security/dashboard/projects', { method: 'POST', token: m.token, json: { project_id: fx.project.id } }, 201)).id }),
    serves: [{ route: 'GET /security/dashboard/projects', path: () => '/security/dashboard/projects', holds: holdsId }],
  },
  { record: 'a dependency list export of a project', role: DEVELOPER, below: REPORTER, make: (m) => exportMadeBy(`/projects/${fx.project.id}/dependency_list_exports`, { export_type: 'csv' })(m), serves: exportRoutes('/dependency_list_exports') },
  { record: 'a dependency list export of a group', role: DEVELOPER, below: REPORTER, make: (m) => exportMadeBy(`/groups/${fx.group.id}/dependency_list_exports`, { export_type: 'json_array' })(m), serves: exportRoutes('/dependency_list_exports') },
  { record: 'a dependency list export of a pipeline', role: DEVELOPER, below: REPORTER, make: (m) => exportMadeBy(`/pipelines/${fx.pipelineId}/dependency_list_exports`, { export_type: 'sbom' })(m), serves: exportRoutes('/dependency_list_exports') },
  {
    record: 'a group access token',
    role: OWNER,
    below: MAINTAINER,
    make: async (m) => ({ id: (await ok(`/groups/${fx.group.id}/access_tokens`, { method: 'POST', token: m.token, json: { name: 'kept', scopes: ['read_api'] } }, 201)).id }),
    serves: [roleRead('GET /groups/:id/access_tokens/:token_id', (ids) => `/groups/${fx.group.id}/access_tokens/${ids.id}`), roleRead('GET /groups/:id/access_tokens', () => `/groups/${fx.group.id}/access_tokens`, holdsId)],
  },
  {
    record: 'a deploy token',
    role: MAINTAINER,
    below: DEVELOPER,
    make: async (m) => ({ id: (await ok(`/groups/${fx.group.id}/deploy_tokens`, { method: 'POST', token: m.token, json: { name: 'kept', scopes: ['read_repository'] } }, 201)).id }),
    serves: [roleRead('GET /groups/:id/deploy_tokens/:token_id', (ids) => `/groups/${fx.group.id}/deploy_tokens/${ids.id}`), roleRead('GET /groups/:id/deploy_tokens', () => `/groups/${fx.group.id}/deploy_tokens`, holdsId)],
  },
  {
    record: 'a group hook',
    role: OWNER,
    below: MAINTAINER,
    make: async (m) => ({ id: (await ok(`/groups/${fx.group.id}/hooks`, { method: 'POST', token: m.token, json: { url: 'http://127.0.0.1:9/kept' } }, 201)).id }),
    serves: [roleRead('GET /groups/:id/hooks/:hook_id', (ids) => `/groups/${fx.group.id}/hooks/${ids.id}`), roleRead('GET /groups/:id/hooks/:hook_id/events', (ids) => `/groups/${fx.group.id}/hooks/${ids.id}/events`), roleRead('GET /groups/:id/hooks', () => `/groups/${fx.group.id}/hooks`, holdsId)],
  },
  {
    record: 'a project hook',
    role: MAINTAINER,
    below: DEVELOPER,
    make: async (m) => ({ id: (await ok(`/projects/${fx.project.id}/hooks`, { method: 'POST', token: m.token, json: { url: 'http://127.0.0.1:9/kept' } }, 201)).id }),
    serves: [roleRead('GET /projects/:id/hooks/:hook_id', (ids) => `/projects/${fx.project.id}/hooks/${ids.id}`), roleRead('GET /projects/:id/hooks', () => `/projects/${fx.project.id}/hooks`, holdsId)],
  },
  {
    record: 'a pipeline trigger token',
    role: MAINTAINER,
    below: DEVELOPER,
    make: async (m) => ({ id: (await ok(`/projects/${fx.project.id}/triggers`, { method: 'POST', token: m.token, json: { description: 'kept' } }, 201)).id }),
    serves: [roleRead('GET /projects/:id/triggers/:trigger_id', (ids) => `/projects/${fx.project.id}/triggers/${ids.id}`), roleRead('GET /projects/:id/triggers', () => `/projects/${fx.project.id}/triggers`, holdsId)],
  },
  {
    record: 'a merge request they opened',
    role: DEVELOPER,
    below: GUEST,
    make: async (m) => {
      const branch = `kept-${m.id}`;
      await ok(`/projects/${fx.project.id}/repository/commits`, { method: 'POST', token: m.token, json: { branch, start_branch: 'main', commit_message: 'kept', actions: [{ action: 'create', file_path: `${branch}.txt`, content: 'k' }] } }, 201);
      const mr = await ok(`/projects/${fx.project.id}/merge_requests`, { method: 'POST', token: m.token, json: { source_branch: branch, target_branch: 'main', title: `Kept ${m.id}` } }, 201);
      return { id: mr.id, iid: mr.iid };
    },
    serves: [
      roleRead('GET /projects/:id/merge_requests/:merge_request_iid', (ids) => `/projects/${fx.project.id}/merge_requests/${ids.iid}`),
      { route: 'GET /groups/:id/merge_requests', path: () => `/groups/${fx.group.id}/merge_requests?per_page=100`, holds: holdsId, refused: { removed: 404 } },
    ],
  },
  {
    record: 'their own pushes and merge requests (activity)',
    role: DEVELOPER,
    below: GUEST,
    make: async (m) => {
      const branch = `act-${m.id}`;
      await ok(`/projects/${fx.project.id}/repository/commits`, { method: 'POST', token: m.token, json: { branch, start_branch: 'main', commit_message: 'activity', actions: [{ action: 'create', file_path: `${branch}.txt`, content: 'a' }] } }, 201);
      await ok(`/projects/${fx.project.id}/merge_requests`, { method: 'POST', token: m.token, json: { source_branch: branch, target_branch: 'main', title: 'Activity' } }, 201);
      return { project: fx.project.id };
    },
    serves: ['GET /events', 'GET /users/:user_id/events', 'GET /projects/:id/events'].map((route) => ({
      route,
      path: (_ids: Ids, m: Member) => (route === 'GET /events' ? '/events?per_page=100' : route === 'GET /users/:user_id/events' ? `/users/${m.id}/events?per_page=100` : `/projects/${fx.project.id}/events?per_page=100`),
      holds: (body: unknown, ids: Ids) => Array.isArray(body) && body.some((e: { project_id?: number }) => e.project_id === ids.project),
      ...(route === 'GET /projects/:id/events' ? { refused: { removed: 404 as const } } : {}),
    })),
  },
];

before(async () => {
  server = await startTestServer({ GATEHOUSE_WORKERS: '0' });
  // Hooks point at this machine (nothing is delivered: this server runs no workers).
  await ok('/application/settings', { method: 'PUT', json: { allow_local_requests_from_web_hooks_and_services: true } }, 200);
  fx.group = await buildGroup();
  fx.project = await buildProject(fx.group.id);
  await ok(`/projects/${fx.project.id}/repository/commits`, { method: 'POST', json: { branch: 'main', commit_message: 'First', actions: [{ action: 'create', file_path: 'README.md', content: 'r\n' }] } }, 201);
  await insertFindings(server.running.db, fx.project.id, 3);
  fx.pipelineId = (await insertComponents(server.running.db, fx.project.id, 3)).pipelineId;
  fx.other = await buildGroup();
  fx.otherProject = await buildProject(fx.other.id);
  await insertFindings(server.running.db, fx.otherProject.id, 2, { title: 'Finding of the other project' });
});
after(() => server.close());

async function memberWith(role: number): Promise<Member> {
  const u = await buildUser();
  await addMember('groups', fx.group.id, u.user.id, role);
  return { id: u.user.id, token: u.token };
}
const lose = async (m: Member, loss: Loss, below: number) =>
  loss === 'removed' ? expectStatus(await api(`/groups/${fx.group.id}/members/${m.id}`, { method: 'DELETE' }), 204) : expectStatus(await api(`/groups/${fx.group.id}/members/${m.id}`, { method: 'PUT', json: { access_level: below } }), 200);

for (const kept of KEPT) {
  describe(`${kept.record} (made with role ${kept.role})`, () => {
    for (const loss of ['removed', 'downgraded'] as const) {
      const lost = loss === 'removed' ? 'removed from the group' : `moved down to role ${kept.below}`;
      it(`is refused to its maker once ${lost}, on every route that serves it`, async () => {
        const m = await memberWith(kept.role);
        const ids = await kept.make(m);
        for (const s of kept.serves) {
          const res = await api(s.path(ids, m), { token: m.token });
          assert.equal(res.status, 200, `${s.route} served its maker while they held the role: ${res.status} ${res.text.slice(0, 200)}`);
          if (s.holds) assert.ok(s.holds(res.body, ids), `${s.route} holds the record while the role holds`);
        }
        await lose(m, loss, kept.below);
        for (const s of kept.serves) {
          const res = await api(s.path(ids, m), { token: m.token });
          const refusal = s.refused?.[loss];
          const what = `${s.route} once ${lost}: ${res.status} ${res.text.slice(0, 200)}`;
          if (refusal) {
            assert.equal(res.status, refusal, what);
            assert.equal(res.headers.get('content-type'), 'application/json', what);
          } else {
            assert.equal(res.status, 200, what);
            assert.ok(!s.holds!(res.body, ids), `${s.route} still holds the record once ${lost}`);
          }
        }
      });
    }
  });
}

describe('an export whose author loses access before its job runs', () => {
  it('is written without what the author may no longer read: nothing of a project, and of a dashboard only the projects still readable', async () => {
    const m = await memberWith(DEVELOPER);
    await addMember('groups', fx.other.id, m.id, DEVELOPER);
    for (const p of [fx.project, fx.otherProject]) await ok('/security/dashboard/projects', { method: 'POST', token: m.token, json: { project_id: p.id } }, 201);
    const ofProject = await ok(`/security/projects/${fx.otherProject.id}/vulnerability_exports`, { method: 'POST', token: m.token, json: {} }, 201);
    const ofDashboard = await ok('/security/vulnerability_exports', { method: 'POST', token: m.token, json: {} }, 201);
    const covered = async () => (await server.running.db.selectFrom('export_projects').select('project_id').where('export_id', '=', ofDashboard.id).execute()).map((r) => r.project_id).sort();
    assert.deepEqual(await covered(), [fx.project.id, fx.otherProject.id].sort(), 'a dashboard export covers the dashboard’s projects when it is asked for');
    expectStatus(await api(`/groups/${fx.other.id}/members/${m.id}`, { method: 'DELETE' }), 204);
    for (const e of [ofProject, ofDashboard]) await runExport(e.id);
    const rowsOf = async (id: number) => {
      const row = await server.running.db.selectFrom('exports').select(['status', 'file_key']).where('id', '=', id).executeTakeFirstOrThrow();
      assert.equal(row.status, 'finished');
      const file = await server.running.files.get(row.file_key!);
      assert.ok(file, 'the file is in the file store');
      const parts: Buffer[] = [];
      for await (const chunk of file.stream) parts.push(chunk as Buffer);
      return parseCsv(Buffer.concat(parts).toString('utf8'));
    };
    assert.equal((await rowsOf(ofProject.id)).length, 1, 'the header alone');
    const dashboardRows = await rowsOf(ofDashboard.id);
    assert.equal(dashboardRows.length, 1 + 3, 'the findings of the project still readable, none of the other');
    assert.ok(!dashboardRows.flat().includes('Finding of the other project'));
    assert.deepEqual(await covered(), [fx.project.id], 'what it covers is what was written');
    // Still readable as written: every project it covers is readable.
    expectStatus(await api(`/security/vulnerability_exports/${ofDashboard.id}/download`, { token: m.token }), 200);
  });
});

describe('the table of kept records', () => {
  it('names only routes of the table', () => {
    const keys = new Set(routes.map(routeKey));
    assert.deepEqual(KEPT.flatMap((k) => k.serves.map((s) => s.route)).filter((r) => !keys.has(r)), []);
  });
});
