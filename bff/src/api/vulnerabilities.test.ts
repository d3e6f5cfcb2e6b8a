import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { Gitlab } from '@gitbeaker/rest';
import { z } from 'zod';
import { securityReportResult } from '../../../shared/src/security-reports.ts';
import { vulnerability, vulnerabilityDetail } from '../../../shared/src/vulnerabilities.ts';
import { dependency } from '../../../shared/src/dependencies.ts';
import { insertFindings } from '../../test/export-fixtures.ts';
import { buildGroup, buildProject, buildUser, expectShape, expectStatus, request as api, startTestServer, userWithRole, type TestServer } from '../../test/harness.ts';
import { mainPipeline, uploadReport } from '../../test/report-uploads.ts';

/**
 * Security reports uploaded to pipelines become the project's vulnerabilities and dependencies:
 * real-format reports (small fixtures), through the API as a CI script would send them.
 */
const FIXTURES = new URL('../../test/fixtures/security/', import.meta.url);
const fixture = (name: string) => fs.readFileSync(new URL(name, FIXTURES), 'utf8');
const sast = () => JSON.parse(fixture('gl-sast-report.json')) as { vulnerabilities: { id: string; severity: string }[] };

let server: TestServer;
let group: { id: number };
let project: { id: number; path_with_namespace: string };

before(async () => {
  server = await startTestServer();
  group = await buildGroup();
  project = await buildProject(group.id);
});
after(async () => {
  await server.close();
});

let commits = 0;
/** A new commit on `branch` and a pipeline for it (an external CI reporting a job). */
async function newPipeline(branch = 'main'): Promise<number> {
  const commit = await api(`/projects/${project.id}/repository/commits`, {
    method: 'POST',
    json: { branch, ...(branch === 'main' || commits === 0 ? {} : { start_branch: 'main' }), commit_message: `c${++commits}`, actions: [{ action: 'create', file_path: `f${commits}.txt`, content: 'x' }] },
  });
  expectStatus(commit, 201);
  const status = await api(`/projects/${project.id}/statuses/${commit.body.id}`, { method: 'POST', json: { state: 'success', ref: branch, name: 'scan' } });
  expectStatus(status, 201);
  return status.body.pipeline_id as number;
}

function upload(pipelineId: number, reportType: string, content: string, token?: string) {
  const form = new FormData();
  form.set('report_type', reportType);
  form.set('file', new Blob([content], { type: 'application/json' }), 'report.json');
  return api(`/projects/${project.id}/pipelines/${pipelineId}/reports`, { method: 'POST', multipart: form, token });
}

const list = async (query = '') => {
  const res = await api(`/projects/${project.id}/vulnerabilities${query}`);
  expectStatus(res, 200);
  return expectShape(z.array(vulnerability), res.body);
};
const counts = async () => ({
  vulnerabilities: Number((await api(`/projects/${project.id}/vulnerabilities?per_page=1`)).headers.get('x-total')),
  dependencies: Number((await api(`/projects/${project.id}/dependencies?per_page=1`)).headers.get('x-total')),
});

describe('POST /projects/:id/pipelines/:pipeline_id/reports', () => {
  let first: number;
  it('ingests a SAST report of the default branch: 201 with the counts, the findings become detected vulnerabilities', async () => {
    first = await newPipeline();
    const res = await upload(first, 'sast', fixture('gl-sast-report.json'));
    expectStatus(res, 201);
    const body = expectShape(securityReportResult, res.body);
    assert.equal(body.findings_count, 3);
    assert.equal(body.applied, true);
    assert.deepEqual(body.scanner, { id: 'semgrep', name: 'Semgrep' });
    const found = await list();
    assert.deepEqual(found.map((v) => v.severity), ['critical', 'high', 'medium']);
    assert.ok(found.every((v) => v.state === 'detected' && !v.resolved_on_default_branch));
    assert.equal(found[0].location_path, 'app/db.js');
    assert.equal(found[0].finding.identifiers[0].value, 'sql-injection');
  });

  it('answers a repeated upload with the same counts and writes nothing', async () => {
    const before = await list();
    const again = await upload(first, 'sast', fixture('gl-sast-report.json'));
    expectStatus(again, 201);
    assert.equal(again.body.findings_count, 3);
    assert.deepEqual((await list()).map((v) => [v.id, v.updated_at]), before.map((v) => [v.id, v.updated_at]));
  });

  it('ingests a CycloneDX SBOM: the components become the project’s dependencies with their licenses', async () => {
    const res = await upload(first, 'cyclonedx', fixture('gl-sbom-npm.cdx.json'));
    expectStatus(res, 201);
    assert.equal(res.body.components_count, 3);
    const deps = await api(`/projects/${project.id}/dependencies`);
    expectStatus(deps, 200);
    const parsed = expectShape(z.array(dependency), deps.body);
    assert.deepEqual(parsed.map((d) => d.name), ['debug', 'express', 'lodash']);
    assert.equal(parsed[1].package_manager, 'npm');
    assert.equal(parsed[1].dependency_file_path, 'package-lock.json');
    assert.deepEqual(parsed[1].licenses, [{ spdx_identifier: 'MIT', name: 'MIT', url: 'https://spdx.org/licenses/MIT.html' }]);
    const filtered = await api(`/projects/${project.id}/dependencies?package_manager=pip`);
    assert.deepEqual(filtered.body, []);
  });

  it('refuses a report that breaks its schema with a 400 naming the problem, and writes nothing', async () => {
    const before = await counts();
    const broken = sast() as unknown as Record<string, unknown>;
    delete broken.scan;
    const res = await upload(first, 'sast', JSON.stringify(broken));
    expectStatus(res, 400);
    assert.match(JSON.stringify(res.body.message.file), /scan/);
    const notJson = await upload(first, 'sast', '{"version":');
    expectStatus(notJson, 400);
    assert.match(notJson.body.message.file[0], /not valid JSON/);
    const badBom = await upload(first, 'cyclonedx', JSON.stringify({ bomFormat: 'CycloneDX', specVersion: '1.5', version: 'one', components: [] }));
    expectStatus(badBom, 400);
    assert.match(JSON.stringify(badBom.body.message.file), /version/);
    const oldBom = await upload(first, 'cyclonedx', JSON.stringify({ bomFormat: 'CycloneDX', specVersion: '1.2', version: 1 }));
    expectStatus(oldBom, 400);
    assert.deepEqual(await counts(), before);
  });

  it('takes a file larger than in-memory uploads allow (streamed to disk)', async () => {
    const p = await newPipeline('big');
    const components = Array.from({ length: 8000 }, (_, i) => ({ type: 'library', name: `a-package-with-a-long-name-${i}`, version: '1.0.0', purl: `pkg:npm/a-package-with-a-long-name-${i}@1.0.0`, description: 'One of many components of a large SBOM.' }));
    const content = JSON.stringify({ bomFormat: 'CycloneDX', specVersion: '1.5', version: 1, components });
    assert.ok(content.length > 1024 * 1024);
    const res = await upload(p, 'cyclonedx', content);
    expectStatus(res, 201);
    assert.equal(res.body.components_count, 8000);
    // Checked in batches (the schema's uniqueness is pairwise, so quadratic): still every rule, at its own index.
    const repeated = await upload(p, 'cyclonedx', JSON.stringify({ bomFormat: 'CycloneDX', specVersion: '1.5', version: 1, components: [...components, components[3]] }));
    expectStatus(repeated, 400);
    assert.match(repeated.body.message.file[0], /'\/components\/8000' repeats '\/components\/3'/);
    const late = components.map((c, i) => (i === 7001 ? { ...c, type: 'nonsense' } : c));
    const invalid = await upload(p, 'cyclonedx', JSON.stringify({ bomFormat: 'CycloneDX', specVersion: '1.5', version: 1, components: late }));
    expectStatus(invalid, 400);
    assert.match(JSON.stringify(invalid.body.message.file), /\/components\/7001\/type/);
  });

  it('takes a CycloneDX 1.6 SBOM too', async () => {
    const p = await newPipeline('feature');
    const res = await upload(p, 'cyclonedx', fixture('gl-sbom-pip-1.6.cdx.json'));
    expectStatus(res, 201);
    // Not the default branch: stored for its pipeline, the project's list unchanged.
    assert.equal(res.body.applied, false);
    assert.equal((await counts()).dependencies, 3);
  });

  it('answers 400 without a file or with an unknown report type, 404 for an unknown pipeline, 403 to a Reporter', async () => {
    const form = new FormData();
    form.set('report_type', 'sast');
    expectStatus(await api(`/projects/${project.id}/pipelines/${first}/reports`, { method: 'POST', multipart: form }), 400);
    expectStatus(await upload(first, 'sarif', fixture('gl-sast-report.json')), 400);
    expectStatus(await upload(987654, 'sast', fixture('gl-sast-report.json')), 404);
    const reporter = await userWithRole(group.id, 20);
    expectStatus(await upload(first, 'sast', fixture('gl-sast-report.json'), reporter.token), 403);
    const developer = await userWithRole(group.id, 30);
    expectStatus(await upload(first, 'sast', fixture('gl-sast-report.json'), developer.token), 201);
  });
});

describe('state moves: POST /vulnerabilities/:id/confirm | dismiss | resolve | revert', () => {
  it('dismisses with a reason and comment, records the history and the activity; 304 when already there', async () => {
    const [target] = await list('?severity=medium');
    const res = await api(`/vulnerabilities/${target.id}/dismiss`, { method: 'POST', json: { dismissal_reason: 'used_in_tests', comment: 'Only in fixtures' } });
    expectStatus(res, 201);
    const moved = expectShape(vulnerability, res.body);
    assert.equal(moved.state, 'dismissed');
    assert.equal(moved.dismissal_reason, 'used_in_tests');
    assert.ok(moved.dismissed_at && moved.dismissed_by_id);
    const again = await api(`/vulnerabilities/${target.id}/dismiss`, { method: 'POST', json: {} });
    assert.equal(again.status, 304);
    const detail = expectShape(vulnerabilityDetail, (await api(`/vulnerabilities/${target.id}`)).body);
    assert.deepEqual(detail.state_transitions.map((t) => [t.from_state, t.to_state, t.dismissal_reason, t.comment, t.author?.username]), [['detected', 'dismissed', 'used_in_tests', 'Only in fixtures', 'root']]);
    const events = await server.running.db.selectFrom('events').select(['action_name']).where('target_type', '=', 'Vulnerability').where('target_id', '=', target.id).execute();
    assert.deepEqual(events.map((e) => e.action_name), ['closed']);
  });

  it('confirms, resolves and reverts; the stamps of a state left are cleared', async () => {
    const [target] = await list('?severity=high');
    expectStatus(await api(`/vulnerabilities/${target.id}/confirm`, { method: 'POST' }), 201);
    const resolved = await api(`/vulnerabilities/${target.id}/resolve`, { method: 'POST', json: { comment: 'fixed' } });
    expectStatus(resolved, 201);
    assert.equal(resolved.body.state, 'resolved');
    assert.equal(resolved.body.confirmed_at, null);
    const reverted = await api(`/vulnerabilities/${target.id}/revert`, { method: 'POST' });
    assert.equal(reverted.body.state, 'detected');
    assert.equal(reverted.body.resolved_at, null);
    expectStatus(await api(`/vulnerabilities/${target.id}/revert`, { method: 'POST' }), 304);
  });

  it('refuses an unknown dismissal reason (400), a Developer (403: Maintainers move states), a non-member (404)', async () => {
    const [target] = await list('?severity=critical');
    expectStatus(await api(`/vulnerabilities/${target.id}/dismiss`, { method: 'POST', json: { dismissal_reason: 'because' } }), 400);
    const developer = await userWithRole(group.id, 30);
    expectStatus(await api(`/vulnerabilities/${target.id}`, { token: developer.token }), 200);
    expectStatus(await api(`/vulnerabilities/${target.id}/confirm`, { method: 'POST', token: developer.token }), 403);
    const reporter = await userWithRole(group.id, 20);
    expectStatus(await api(`/vulnerabilities/${target.id}`, { token: reporter.token }), 403);
    expectStatus(await api(`/projects/${project.id}/vulnerabilities`, { token: reporter.token }), 403);
    const stranger = await userWithRole(group.id, 0);
    expectStatus(await api(`/vulnerabilities/${target.id}`, { token: stranger.token }), 404);
    expectStatus(await api('/vulnerabilities/987654'), 404);
    assert.equal((await list('?severity=critical'))[0].state, 'detected');
  });
});

describe('GET /projects/:id/vulnerabilities', () => {
  it('filters by severity, state, report type and scanner, and pages', async () => {
    assert.deepEqual((await list('?state=dismissed')).map((v) => v.severity), ['medium']);
    assert.deepEqual((await list('?state[]=detected&state[]=dismissed&severity=critical,medium')).map((v) => v.severity), ['critical', 'medium']);
    assert.equal((await list('?report_type=dependency_scanning')).length, 0);
    assert.equal((await list('?scanner=semgrep')).length, 3);
    const page = await api(`/projects/${project.id}/vulnerabilities?per_page=2&page=2`);
    assert.equal(page.headers.get('x-total'), '3');
    assert.equal(page.body.length, 1);
    expectStatus(await api(`/projects/${project.id}/vulnerabilities?severity=urgent`), 400);
  });

  it('reads the list with the platform’s SDK (gitbeaker ProjectVulnerabilities)', async () => {
    const sdk = new Gitlab({ host: server.url, token: server.rootToken });
    const all = await sdk.ProjectVulnerabilities.all(project.id);
    assert.equal(all.length, 3);
    assert.ok(all.every((v) => v.project.id === project.id && typeof v.resolved_on_default_branch === 'boolean'));
  });
});

describe('a later default-branch pipeline defines the project’s data', () => {
  it('resolves what it no longer reports (dismissed ones stay dismissed), detects again what comes back, replaces the dependencies', async () => {
    const report = sast();
    const next = await newPipeline();
    // Only the critical finding is still there.
    const res = await upload(next, 'sast', JSON.stringify({ ...report, vulnerabilities: report.vulnerabilities.filter((v) => v.severity === 'Critical') }));
    expectStatus(res, 201);
    const all = await list();
    const bySeverity = Object.fromEntries(all.map((v) => [v.severity, v]));
    assert.equal(bySeverity.critical.state, 'detected');
    assert.equal(bySeverity.critical.resolved_on_default_branch, false);
    assert.equal(bySeverity.high.state, 'resolved');
    assert.equal(bySeverity.high.resolved_on_default_branch, true);
    assert.equal(bySeverity.medium.state, 'dismissed');
    assert.equal(bySeverity.medium.resolved_on_default_branch, true);
    const history = expectShape(vulnerabilityDetail, (await api(`/vulnerabilities/${bySeverity.high.id}`)).body).state_transitions;
    assert.equal(history.at(-1)?.author, null);
    assert.equal(history.at(-1)?.pipeline_id, next);

    // An older pipeline's upload no longer changes the project.
    const stale = await upload(next - 1, 'sast', fixture('gl-sast-report.json'));
    expectStatus(stale, 201);
    assert.equal(stale.body.applied, false);
    assert.equal((await list('?severity=high'))[0].state, 'resolved');

    const latest = await newPipeline();
    expectStatus(await upload(latest, 'sast', fixture('gl-sast-report.json')), 201);
    assert.equal((await list('?severity=high'))[0].state, 'detected');
    assert.equal((await list('?severity=medium'))[0].state, 'dismissed');

    expectStatus(await upload(latest, 'cyclonedx', fixture('gl-sbom-pip-1.6.cdx.json')), 201);
    const deps = await api(`/projects/${project.id}/dependencies`);
    assert.deepEqual(deps.body.map((d: { name: string; package_manager: string }) => [d.name, d.package_manager]), [['requests', 'pip']]);
  });
});

describe('/security/dashboard/projects', () => {
  it('adds, lists and removes the caller’s dashboard projects; refuses a project whose vulnerabilities they may not read', async () => {
    const added = await api('/security/dashboard/projects', { method: 'POST', json: { project_id: project.id } });
    expectStatus(added, 201);
    expectStatus(await api('/security/dashboard/projects', { method: 'POST', json: { project_id: project.id } }), 201);
    assert.deepEqual((await api('/security/dashboard/projects')).body.map((p: { id: number }) => p.id), [project.id]);
    const reporter = await userWithRole(group.id, 20);
    expectStatus(await api('/security/dashboard/projects', { method: 'POST', json: { project_id: project.id }, token: reporter.token }), 403);
    const stranger = await userWithRole(group.id, 0);
    expectStatus(await api('/security/dashboard/projects', { method: 'POST', json: { project_id: project.id }, token: stranger.token }), 404);
    expectStatus(await api(`/security/dashboard/projects/${project.id}`, { method: 'DELETE' }), 204);
    assert.deepEqual((await api('/security/dashboard/projects')).body, []);
    expectStatus(await api(`/security/dashboard/projects/${project.id}`, { method: 'DELETE' }), 404);
  });
});

describe('links of SBOM licenses', () => {
  it('stores and answers only http(s) license URLs: a javascript:, data: or vbscript: one is dropped (the SPDX page where the license has an id)', async () => {
    const scanned = await buildProject(group.id);
    const unsafe = ['javascript:alert(document.cookie)', 'JaVaScRiPt:alert(1)', ' javascript:alert(1)', 'java\tscript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'vbscript:msgbox(1)', '//evil.example/x'];
    const components = [
      ...unsafe.map((url, i) => ({ type: 'library', name: `named-${i}`, version: '1.0.0', purl: `pkg:npm/named-${i}@1.0.0`, licenses: [{ license: { name: 'Custom', url } }] })),
      { type: 'library', name: 'spdx', version: '1.0.0', purl: 'pkg:npm/spdx@1.0.0', licenses: [{ license: { id: 'MIT', url: 'javascript:alert(1)' } }] },
      { type: 'library', name: 'kept', version: '1.0.0', purl: 'pkg:npm/kept@1.0.0', licenses: [{ license: { name: 'Own', url: 'HTTPS://licenses.example/own' } }] },
    ];
    const bom = JSON.stringify({ bomFormat: 'CycloneDX', specVersion: '1.4', version: 1, components });
    expectStatus(await uploadReport(scanned.id, await mainPipeline(scanned.id), 'cyclonedx', bom), 201);
    const res = await api(`/projects/${scanned.id}/dependencies?per_page=100`);
    expectStatus(res, 200);
    const urls = Object.fromEntries(expectShape(z.array(dependency), res.body).map((d) => [d.name, d.licenses.map((l) => l.url)]));
    for (let i = 0; i < unsafe.length; i++) assert.deepEqual(urls[`named-${i}`], [null], unsafe[i]);
    assert.deepEqual(urls.spdx, ['https://spdx.org/licenses/MIT.html']);
    assert.deepEqual(urls.kept, ['HTTPS://licenses.example/own']);
    const stored = await server.running.db.selectFrom('dependencies').select('licenses').where('project_id', '=', scanned.id).execute();
    assert.ok(!stored.some((r) => /script:|data:|\/\/evil/i.test(r.licenses)), 'nothing but http(s) is stored');
  });

  it('answers a non-http(s) URL stored before the rule as null', async () => {
    const scanned = await buildProject(group.id);
    expectStatus(await uploadReport(scanned.id, await mainPipeline(scanned.id), 'cyclonedx', fixture('gl-sbom-npm.cdx.json')), 201);
    await server.running.db.updateTable('dependencies').set({ licenses: JSON.stringify([{ spdx_identifier: null, name: 'Old', url: 'javascript:alert(1)' }]) }).where('project_id', '=', scanned.id).execute();
    const res = await api(`/projects/${scanned.id}/dependencies`);
    expectStatus(res, 200);
    assert.deepEqual(res.body.map((d: { licenses: { url: string | null }[] }) => d.licenses[0].url), [null, null, null]);
  });
});

describe('GET /api/console/groups/:id/vulnerabilities', () => {
  it('lists the findings of every project of the group and its subgroups, each naming its project, with the project list’s filters (Developer)', async () => {
    const db = server.running.db;
    const top = await buildGroup();
    const sub = await buildGroup({ parent_id: top.id });
    const one = await buildProject(top.id);
    const two = await buildProject(sub.id);
    const elsewhere = await buildProject((await buildGroup()).id);
    await insertFindings(db, one.id, 3, { title: 'Finding of one' });
    await insertFindings(db, two.id, 4, { title: 'Finding of two', report_type: 'dependency_scanning', scanner_external_id: 'gemnasium' });
    await insertFindings(db, elsewhere.id, 2);
    const developer = await userWithRole(top.id, 30);

    const res = await api(`/api/console/groups/${top.id}/vulnerabilities?per_page=100`, { token: developer.token });
    expectStatus(res, 200);
    const listed = expectShape(z.array(vulnerability), res.body);
    assert.equal(res.headers.get('x-total'), '7');
    assert.deepEqual(new Set(listed.map((v) => v.project.id)), new Set([one.id, two.id]));
    assert.ok(listed.every((v) => v.title === (v.project.id === one.id ? 'Finding of one' : 'Finding of two')));
    assert.equal(listed.find((v) => v.project.id === two.id)?.project.full_path, `/${two.path_with_namespace}`);
    const levels = listed.map((v) => ['critical', 'high', 'medium', 'low', 'info', 'unknown'].indexOf(v.severity));
    assert.deepEqual(levels, [...levels].sort((a, b) => a - b), 'most severe first');

    const filtered = await api(`/api/console/groups/${top.id}/vulnerabilities?report_type=dependency_scanning&severity=critical,high`, { token: developer.token });
    expectStatus(filtered, 200);
    assert.equal(filtered.headers.get('x-total'), '2');
    assert.ok(filtered.body.every((v: { project: { id: number } }) => v.project.id === two.id));
    const bad = await api(`/api/console/groups/${top.id}/vulnerabilities?severity=catastrophic`, { token: developer.token });
    expectStatus(bad, 400);
    assert.deepEqual(bad.body, { message: { severity: { '0': ['does not have a valid value'] } } });
  });

  it('refuses a Reporter (403) and hides the group from a non-member (404)', async () => {
    const top = await buildGroup();
    const reporter = await userWithRole(top.id, 20);
    const stranger = await buildUser();
    expectStatus(await api(`/api/console/groups/${top.id}/vulnerabilities`, { token: reporter.token }), 403);
    expectStatus(await api(`/api/console/groups/${top.id}/vulnerabilities`, { token: stranger.token }), 404);
    expectStatus(await api(`/api/console/groups/${top.id}/vulnerabilities`, { token: null }), 401);
  });
});


describe('GET /api/console/security/vulnerabilities', () => {
  it('lists the findings of the projects on the caller’s security dashboard that they may read, with the filters', async () => {
    const db = server.running.db;
    const top = await buildGroup();
    const on = await buildProject(top.id);
    const off = await buildProject(top.id);
    await insertFindings(db, on.id, 6, { title: 'On the dashboard' });
    await insertFindings(db, off.id, 3, { title: 'Not on it' });
    const developer = await userWithRole(top.id, 30);
    expectStatus(await api('/security/dashboard/projects', { method: 'POST', token: developer.token, json: { project_id: on.id } }), 201);

    const res = await api('/api/console/security/vulnerabilities?per_page=100', { token: developer.token });
    expectStatus(res, 200);
    const listed = expectShape(z.array(vulnerability), res.body);
    assert.equal(res.headers.get('x-total'), '6');
    assert.ok(listed.every((v) => v.project.id === on.id && v.title === 'On the dashboard'));
    const severe = await api('/api/console/security/vulnerabilities?severity=critical,high', { token: developer.token });
    expectStatus(severe, 200);
    assert.equal(severe.headers.get('x-total'), '2');
    expectStatus(await api('/api/console/security/vulnerabilities?state=open', { token: developer.token }), 400);
    expectStatus(await api('/api/console/security/vulnerabilities', { token: null }), 401);
    // Another user's dashboard is theirs alone.
    const other = await userWithRole(top.id, 30);
    const theirs = await api('/api/console/security/vulnerabilities', { token: other.token });
    expectStatus(theirs, 200);
    assert.deepEqual(theirs.body, []);
  });
});
