import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { apiRoutes } from '../src/api/index.ts';
import { buildUser, startTestServer, type TestServer } from './harness.ts';
import { countChanges, formatFailures, problemsOf, rowCounts, runFuzz, type FuzzReport } from './fuzz-run.ts';
import { MARKERS } from './fuzz-leaks.ts';

/**
 * A bounded fuzz run over every operation of /api/v4/openapi.json: malformed requests (wrong
 * types, missing fields, oversize and odd strings, hostile IDs, broken JSON, form and multipart
 * bodies, wrong content types, junk credentials) sent as the administrator and anonymously, and
 * reads as callers refused the world's private records (a Guest, a former member who made
 * exports and lost access, anonymous), none of which may show them such a record (fuzz-leaks.ts).
 * The seed is fixed so a failure replays (FUZZ_SEED and FUZZ_RUNS change it); `npm run fuzz`
 * runs longer with a fresh one. Cases that once failed (fuzz-corpus.ts) are replayed first.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 3000);
const SEED = Number(process.env.FUZZ_SEED ?? 7_2024);

let server: TestServer;
let report: FuzzReport;
before(async () => {
  // No job workers: row counts then change only by what a request itself writes.
  server = await startTestServer({ GATEHOUSE_WORKERS: '0', GATEHOUSE_HOOK_TIMEOUT_SECONDS: '1' });
  report = await runFuzz(server, { runs: RUNS, seed: SEED });
});
after(() => server.close());

const failuresWhere = (test: (problem: string) => boolean) => report.failures.filter((f) => test(f.problem));
const explain = (what: string, list: FuzzReport['failures']) =>
  `${list.length} ${what} (${report.engine}, seed ${report.seed}, ${report.sent} requests):\n${formatFailures(list)}`;

describe('the checks of the fuzz run', () => {
  it('count the rows of every table, and see a write', async () => {
    const before = await rowCounts(server.running.db);
    for (const table of ['users', 'groups', 'projects', 'members', 'personal_access_tokens', 'web_hooks', 'web_hook_logs', 'jobs']) assert.ok(table in before, table);
    await buildUser();
    assert.deepEqual(countChanges(before, await rowCounts(server.running.db)), ['personal_access_tokens +1', 'users +1']);
  });
  it('report a 5xx, an answer that is not exactly JSON, and rows changed by a rejected write or a read', () => {
    const wire = (method: string) => ({ method, url: 'http://127.0.0.1:1/api/v4/groups/1', headers: {} });
    const json = { contentType: 'application/json', text: '{}' };
    assert.deepEqual(problemsOf(wire('PUT'), { status: 200, ...json }, []), []);
    assert.deepEqual(problemsOf(wire('PUT'), { status: 200, ...json }, ['groups +1']), []);
    assert.match(problemsOf(wire('PUT'), { status: 502, ...json }, [])[0], /^answers 502/);
    // A 5xx the route documents (an outside service's state) is its answer; another is not.
    assert.deepEqual(problemsOf(wire('PUT'), { status: 503, ...json }, [], { documented5xx: [503] }), []);
    assert.match(problemsOf(wire('PUT'), { status: 500, ...json }, [], { documented5xx: [503] })[0], /^answers 500/);
    assert.match(problemsOf(wire('PUT'), { status: 400, contentType: 'application/json; charset=utf-8', text: '{}' }, [])[0], /^Content-Type/);
    assert.match(problemsOf(wire('PUT'), { status: 400, contentType: 'application/json', text: '<html>' }, [])[0], /not JSON/);
    assert.match(problemsOf(wire('PUT'), { status: 422, ...json }, ['groups +1'])[0], /rejected PUT changed row counts: groups \+1/);
    assert.match(problemsOf(wire('GET'), { status: 200, ...json }, ['jobs +1'])[0], /a GET changed row counts/);
    assert.match(problemsOf(wire('GET'), { status: 0, contentType: null, text: '', error: 'socket hang up' }, [])[0], /^no answer/);
    // A route documented as answering a file may answer one on success, and JSON otherwise.
    const text = { contentType: 'text/plain; charset=utf-8', text: 'raw' };
    assert.deepEqual(problemsOf(wire('GET'), { status: 200, ...text }, [], { answersFile: true }), []);
    assert.match(problemsOf(wire('GET'), { status: 200, ...text }, [])[0], /^Content-Type/);
    assert.match(problemsOf(wire('GET'), { status: 404, ...text }, [], { answersFile: true })[0], /^Content-Type/);
  });
});

describe('the leak check of the fuzz run', () => {
  it('reports a private record shown to a caller refused it, and nothing in an answer without one', async () => {
    assert.equal(await report.leakIn('former', `{"title":"fuzz ${MARKERS.reporters}"}`), MARKERS.reporters);
    assert.equal(await report.leakIn('anonymous', `{"title":"fuzz ${MARKERS.members}"}`), MARKERS.members);
    assert.equal(await report.leakIn('guest', `{"title":"fuzz ${MARKERS.reporters}"}`), MARKERS.reporters);
    // A Guest reads what members read.
    assert.equal(await report.leakIn('guest', `{"title":"fuzz ${MARKERS.members}"}`), undefined);
    assert.equal(await report.leakIn('former', '{"message":"403 Forbidden"}'), undefined);
  });
});

describe(`fuzzing /api/v4 from its OpenAPI document`, () => {
  it('sends cases to every route of the table', (t) => {
    t.diagnostic(`${report.engine}: ${report.sent} requests over ${report.operations} operations in ${report.seconds.toFixed(1)} s (answers ${(report.ms.requests / 1000).toFixed(1)} s, row counts ${(report.ms.counts / 1000).toFixed(1)} s, repairs ${(report.ms.repairs / 1000).toFixed(1)} s); ${report.refusedSent} as a refused caller; statuses ${JSON.stringify(report.statuses)}`);
    assert.equal(report.operations, apiRoutes.length);
    assert.ok(report.sent >= RUNS, `${report.sent} sent`);
    // A run that met nothing but 404s and 401s would test little: the fixtures must be reached.
    for (const status of ['200', '201', '400', '404']) assert.ok(report.statuses[status] > 0, `no ${status} answer at all: ${JSON.stringify(report.statuses)}`);
  });

  it('always answers, and never with a 5xx', () => {
    const list = failuresWhere((p) => p.startsWith('no answer') || /^answers 5\d\d/.test(p));
    assert.equal(list.length, 0, explain('requests answered 5xx or not at all', list));
  });

  it('answers JSON with exactly Content-Type: application/json', () => {
    const list = failuresWhere((p) => p.startsWith('Content-Type') || p.startsWith('the body is not JSON'));
    assert.equal(list.length, 0, explain('answers that are not exactly JSON', list));
  });

  it('shows no private record to a caller refused it (a Guest, a former member, anonymous), whichever route it asks', () => {
    assert.ok(report.refusedSent >= 300, `${report.refusedSent} requests as a refused caller`);
    const list = failuresWhere((p) => p.startsWith('leaks'));
    assert.equal(list.length, 0, explain('answers that showed a refused caller a private record', list));
  });

  it('changes no row count on a rejected write or a read', () => {
    const list = failuresWhere((p) => p.includes('changed row counts'));
    assert.equal(list.length, 0, explain('requests that changed rows they should not have', list));
  });
});
