import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildGroup, buildProject, expectStatus, request as api, startTestServer, type TestServer } from './harness.ts';
import { hookOwner } from './hook-fixtures.ts';
import { startReceiver, type Receiver } from './receiver.ts';
import { nowIso, isoPlus } from '../src/util/time.ts';

/**
 * The platform's monitoring endpoints (bff/src/http/monitoring.ts): /-/health, /-/liveness,
 * /-/readiness and /-/metrics, outside the API, without credentials, for the monitoring
 * allowlist only. The test servers listen on 127.0.0.1, inside the default allowlist.
 */

const get = (server: TestServer, path: string, init: RequestInit = {}) => fetch(`${server.url}${path}`, init);

/** The samples of a scrape: `name{labels} value` lines, comments left out. */
async function scrape(server: TestServer): Promise<string[]> {
  const res = await get(server, '/-/metrics');
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  return (await res.text()).split('\n').filter((l) => l && !l.startsWith('#'));
}
const sample = (lines: string[], series: string): number | undefined => {
  const line = lines.find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe('the monitoring endpoints', () => {
  let server: TestServer;
  let receiver: Receiver;
  before(async () => {
    server = await startTestServer({ GATEHOUSE_HOOK_TIMEOUT_SECONDS: '1' });
    receiver = await startReceiver();
  });
  after(async () => {
    await receiver.close();
    await server.close();
  });

  it('GET /-/health answers the platform’s `GitLab OK` in plain text, without a credential', async () => {
    const res = await get(server, '/-/health');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.equal(await res.text(), 'GitLab OK');
    assert.equal((await get(server, '/-/health', { method: 'HEAD' })).status, 200);
  });

  it('GET /-/liveness answers {"status":"ok"}', async () => {
    const res = await get(server, '/-/liveness');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/json');
    assert.deepEqual(await res.json(), { status: 'ok' });
  });

  it('GET /-/readiness answers 200 with each check by name, in the platform’s shape, with or without all=1', async () => {
    for (const path of ['/-/readiness', '/-/readiness?all=1']) {
      const res = await get(server, path);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'application/json');
      assert.deepEqual(await res.json(), {
        status: 'ok',
        master_check: [{ status: 'ok' }],
        db_check: [{ status: 'ok' }],
        job_workers_check: [{ status: 'ok' }],
        repositories_storage_check: [{ status: 'ok' }],
        file_store_check: [{ status: 'ok' }],
      });
    }
  });

  it('answers 404 to any other path under /-/ and to other methods, never the console’s page', async () => {
    for (const [path, method] of [['/-/nothing', 'GET'], ['/-/health/extra', 'GET'], ['/-/health', 'POST'], ['/-/metrics', 'DELETE']] as const) {
      const res = await get(server, path, { method });
      assert.equal(res.status, 404, `${method} ${path}`);
      assert.deepEqual(await res.json(), { error: '404 Not Found' }, `${method} ${path}`);
    }
  });

  it('GET /-/metrics counts requests by route pattern, method and status class, never by the path asked', async () => {
    const group = await buildGroup();
    const project = await buildProject(group.id);
    const before = await scrape(server);
    const series = (status: string) => `gatehouse_http_requests_total{method="GET",route="/api/v4/projects/:id",status="${status}"}`;
    for (let i = 0; i < 3; i++) expectStatus(await api(`/projects/${project.id}`), 200);
    expectStatus(await api(`/projects/${encodeURIComponent(project.path_with_namespace)}`), 200);
    expectStatus(await api('/projects/999999999'), 404);
    expectStatus(await api('/no/such/route/42'), 404);
    const lines = await scrape(server);
    assert.equal((sample(lines, series('2xx')) ?? 0) - (sample(before, series('2xx')) ?? 0), 4);
    assert.equal((sample(lines, series('4xx')) ?? 0) - (sample(before, series('4xx')) ?? 0), 1);
    assert.ok((sample(lines, `gatehouse_http_request_duration_seconds_count{method="GET",route="/api/v4/projects/:id",status="2xx"}`) ?? 0) >= 4);
    assert.ok(sample(lines, 'gatehouse_http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/api/v4/projects/:id",status="2xx"}')! >= 4);
    assert.ok((sample(lines, 'gatehouse_http_requests_total{method="GET",route="<unmatched>",status="4xx"}') ?? 0) >= 1);
    // Labels are patterns: no id, path or full path of a project ever appears in them.
    const routes = new Set(lines.flatMap((l) => [...l.matchAll(/route="([^"]*)"/g)].map((m) => m[1])));
    assert.ok(routes.has('/api/v4/projects/:id') && routes.has('/-/metrics'), [...routes].join(' '));
    for (const route of routes) {
      assert.doesNotMatch(route, /\/\d+(\/|$)/, `a route label carries an id: ${route}`);
      assert.ok(!route.includes(project.path_with_namespace) && !route.includes('%2F'), `a route label carries a path: ${route}`);
    }
    // Node's own metrics come with them.
    assert.ok(lines.some((l) => l.startsWith('process_cpu_user_seconds_total ')));
    assert.ok(lines.some((l) => l.startsWith('nodejs_eventloop_lag_seconds ')));
  });

  it('GET /-/metrics reads the job queue when scraped: jobs and the oldest’s age by kind and state', async () => {
    const { db } = server.running;
    // Two jobs of a kind no worker runs: one due in an hour (pending, not waiting yet), one that gave up 90 s ago.
    const row = { payload: '{}', attempts: 0, max_attempts: 1, created_at: nowIso() };
    await db
      .insertInto('jobs')
      .values([
        { ...row, kind: 'monitoring_probe', state: 'pending', run_at: isoPlus(3_600_000), updated_at: nowIso() },
        { ...row, kind: 'monitoring_probe', state: 'pending', run_at: isoPlus(3_600_000), updated_at: nowIso() },
        { ...row, kind: 'monitoring_probe', state: 'failed', run_at: isoPlus(-120_000), updated_at: isoPlus(-90_000) },
      ])
      .execute();
    const lines = await scrape(server);
    assert.equal(sample(lines, 'gatehouse_jobs{kind="monitoring_probe",state="pending"}'), 2);
    assert.equal(sample(lines, 'gatehouse_jobs{kind="monitoring_probe",state="failed"}'), 1);
    assert.equal(sample(lines, 'gatehouse_jobs_oldest_age_seconds{kind="monitoring_probe",state="pending"}'), 0);
    const age = sample(lines, 'gatehouse_jobs_oldest_age_seconds{kind="monitoring_probe",state="failed"}')!;
    assert.ok(age >= 90 && age < 150, `age ${age}`);
    // Gone from the queue, gone from the figures.
    await db.deleteFrom('jobs').where('kind', '=', 'monitoring_probe').execute();
    assert.equal(sample(await scrape(server), 'gatehouse_jobs{kind="monitoring_probe",state="pending"}'), undefined);
  });

  it('GET /-/metrics counts webhook deliveries by how they ended', async () => {
    expectStatus(await api('/application/settings', { method: 'PUT', json: { allow_local_requests_from_web_hooks_and_services: true } }), 200);
    const { base, admin } = await hookOwner('groups');
    const hook = (await api(base, { method: 'POST', token: admin.token, json: { url: `${receiver.url}/hook` } })).body;
    const delivered = (result: string) => `gatehouse_webhook_deliveries_total{result="${result}"}`;
    const before = await scrape(server);
    receiver.respond(200);
    expectStatus(await api(`${base}/${hook.id}/test/push_events`, { method: 'POST', token: admin.token }), 201);
    receiver.respond(500);
    expectStatus(await api(`${base}/${hook.id}/test/push_events`, { method: 'POST', token: admin.token }), 422);
    const lines = await scrape(server);
    assert.equal(sample(lines, delivered('success'))! - sample(before, delivered('success'))!, 1);
    assert.equal(sample(lines, delivered('http_error'))! - sample(before, delivered('http_error'))!, 1);
    assert.equal(sample(lines, delivered('unreachable')), sample(before, delivered('unreachable')));
  });

  it('GET /-/metrics shows the database pool’s use on PostgreSQL, and no pool on SQLite', async () => {
    const lines = await scrape(server);
    if (server.engine === 'postgres') {
      const total = sample(lines, 'gatehouse_db_pool_connections')!;
      const idle = sample(lines, 'gatehouse_db_pool_idle_connections')!;
      assert.ok(total >= 1 && idle >= 0 && idle <= total, `total ${total}, idle ${idle}`);
      assert.equal(sample(lines, 'gatehouse_db_pool_waiting_clients'), 0);
      assert.equal(sample(lines, 'gatehouse_db_pool_max_connections'), server.config.workers + 10);
    } else {
      assert.ok(!lines.some((l) => l.startsWith('gatehouse_db_pool')));
    }
  });
});

describe('the monitoring allowlist', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ GATEHOUSE_MONITORING_ALLOWLIST: '10.0.0.0/8,fd00::/8' });
  });
  after(() => server.close());

  it('answers a caller outside it 404, as for a path that does not exist; the API still answers', async () => {
    for (const path of ['/-/health', '/-/liveness', '/-/readiness', '/-/readiness?all=1', '/-/metrics']) {
      const res = await get(server, path);
      assert.equal(res.status, 404, path);
      assert.deepEqual(await res.json(), { error: '404 Not Found' }, path);
    }
    expectStatus(await api('/user'), 200);
  });
});

describe('GET /-/readiness when the database does not answer', () => {
  let server: TestServer;
  before(async () => {
    // No workers: this instance leaves the jobs to others, which its check accepts.
    server = await startTestServer({ GATEHOUSE_WORKERS: '0' });
  });
  after(() => server.close());

  it('answers 503 naming the failing check, with a message that carries no connection string; health and liveness still answer', async () => {
    await server.running.db.destroy();
    const res = await get(server, '/-/readiness');
    assert.equal(res.status, 503);
    const body = (await res.json()) as Record<string, [{ status: string; message?: string }]> & { status: string };
    assert.equal(body.status, 'failed');
    assert.deepEqual(body.master_check, [{ status: 'ok' }]);
    assert.deepEqual(body.job_workers_check, [{ status: 'ok' }]);
    assert.equal(body.db_check[0].status, 'failed');
    assert.match(body.db_check[0].message!, /^the database did not answer select 1/);
    const text = JSON.stringify(body);
    for (const secret of [server.config.databaseUrl, server.config.dataDir, 'postgres', 'sqlite3']) if (secret) assert.ok(!text.includes(secret), `the answer shows ${secret}`);
    assert.equal((await get(server, '/-/health')).status, 200);
    assert.equal((await get(server, '/-/liveness')).status, 200);
    // The metrics still answer: what can be read is.
    const metrics = await get(server, '/-/metrics');
    assert.equal(metrics.status, 200);
    assert.match(await metrics.text(), /gatehouse_http_requests_total\{method="GET",route="\/-\/readiness",status="5xx"\} 1/);
  });
});
