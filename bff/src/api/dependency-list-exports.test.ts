import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import * as CDX from '@cyclonedx/cyclonedx-library';
import { DEPENDENCY_CSV_COLUMNS, dependencyListExport } from '../../../shared/src/dependency-list-exports.ts';
import { buildGroup, buildProject, buildUser, expectShape, expectStatus, request as api, startTestServer, userWithRole, type TestServer } from '../../test/harness.ts';
import { insertComponents } from '../../test/export-fixtures.ts';
import { mainPipeline, uploadReport } from '../../test/report-uploads.ts';
import { parseCsv } from '../services/security/exports/csv-read.ts';

const FIXTURES = new URL('../../test/fixtures/security/', import.meta.url);

let server: TestServer;
let group: { id: number };
let project: { id: number; path_with_namespace: string };
let pipelineId: number;
let developer: Awaited<ReturnType<typeof userWithRole>>;

before(async () => {
  server = await startTestServer();
  group = await buildGroup();
  project = await buildProject(group.id);
  developer = await userWithRole(group.id, 30);
  ({ pipelineId } = await insertComponents(server.running.db, project.id, 12));
});
after(async () => {
  await server.close();
});

const create = (on: string, json: object, token = developer.token) => api(`${on}/dependency_list_exports`, { method: 'POST', json, token });

/** Polls GET /dependency_list_exports/:id until 200 (202 while it is generated), then downloads it. */
async function download(id: number, token = developer.token) {
  const until = Date.now() + 20_000;
  for (;;) {
    const res = await api(`/dependency_list_exports/${id}`, { token });
    assert.ok(res.status === 200 || res.status === 202, res.text);
    const body = expectShape(dependencyListExport, res.body);
    assert.equal(body.has_finished, res.status === 200);
    if (res.status === 200) break;
    assert.ok(Date.now() < until, 'the export did not finish');
    await new Promise((r) => setTimeout(r, 50));
  }
  const file = await api(`/dependency_list_exports/${id}/download`, { token });
  expectStatus(file, 200);
  return file;
}

describe('POST /projects/:id/dependency_list_exports', () => {
  it('dependency_list: a JSON object listing the project’s dependencies (Developer)', async () => {
    const res = await create(`/projects/${project.id}`, { export_type: 'dependency_list' });
    expectStatus(res, 201);
    const made = expectShape(dependencyListExport, res.body);
    assert.equal(made.export_type, 'dependency_list');
    assert.equal(made.has_finished, false);
    assert.equal(made.send_email, false);
    assert.equal(made.self, `${server.url}/api/v4/dependency_list_exports/${made.id}`);
    assert.equal(made.download, `${made.self}/download`);
    const file = await download(made.id);
    assert.equal(file.headers.get('content-type'), 'application/json');
    assert.equal(file.body.dependencies.length, 12);
    assert.deepEqual(file.body.dependencies[0].licenses, [{ spdx_identifier: 'MIT', name: 'MIT License', url: 'https://spdx.org/licenses/MIT.html' }]);
    assert.equal(file.body.dependencies[0].packager, 'npm');
    assert.equal(file.body.dependencies[0].location.path, 'package-lock.json');
  });

  it('cyclonedx_1_6_json: a CycloneDX 1.6 document valid against the official schema', async () => {
    const res = await create(`/projects/${project.id}`, { export_type: 'cyclonedx_1_6_json' });
    expectStatus(res, 201);
    const file = await download(res.body.id);
    assert.equal(file.headers.get('content-type'), 'application/json');
    assert.equal(await new CDX.Validation.JsonStrictValidator(CDX.Spec.Version.v1dot6).validate(file.text), null);
    const bom = JSON.parse(file.text);
    assert.equal(bom.specVersion, '1.6');
    assert.equal(bom.components.length, 12);
    assert.equal(bom.components[0].purl, 'pkg:npm/package-0@1.0.0');
  });

  it('csv: one row per dependency under a header', async () => {
    const res = await create(`/projects/${project.id}`, { export_type: 'csv' });
    const rows = parseCsv((await download(res.body.id)).text);
    assert.deepEqual(rows[0], [...DEPENDENCY_CSV_COLUMNS]);
    assert.equal(rows.length, 13);
    assert.deepEqual(rows[1], ['package-0', '1.0.0', 'npm', 'package-lock.json', 'MIT', project.path_with_namespace]);
  });

  it('refuses an export type the project does not take, a Reporter (403) and a non-member (404)', async () => {
    const wrong = await create(`/projects/${project.id}`, { export_type: 'sbom' });
    expectStatus(wrong, 400);
    assert.match(JSON.stringify(wrong.body.message.export_type), /does not have a valid value/);
    expectStatus(await create(`/projects/${project.id}`, {}), 400);
    const reporter = await userWithRole(group.id, 20);
    expectStatus(await create(`/projects/${project.id}`, { export_type: 'csv' }, reporter.token), 403);
    expectStatus(await create(`/projects/${project.id}`, { export_type: 'csv' }, (await buildUser()).token), 404);
  });
});

describe('POST /groups/:id/dependency_list_exports', () => {
  it('json_array: the dependencies of every project below the group in one flat array', async () => {
    const sub = await buildGroup({ parent_id: group.id });
    const other = await buildProject(sub.id);
    await insertComponents(server.running.db, other.id, 3);
    const res = await create(`/groups/${group.id}`, { export_type: 'json_array' });
    expectStatus(res, 201);
    const file = await download(res.body.id);
    assert.ok(Array.isArray(file.body));
    assert.equal(file.body.length, 12 + 3);
    assert.deepEqual([...new Set(file.body.map((d: { project: { full_path: string } }) => d.project.full_path))].sort(), [project.path_with_namespace, other.path_with_namespace].sort());
    expectStatus(await create(`/groups/${group.id}`, { export_type: 'dependency_list' }), 400);
  });
});

describe('POST /pipelines/:id/dependency_list_exports', () => {
  it('sbom: the pipeline’s CycloneDX 1.4 bill of materials with the spec’s fields, valid against the official schema', async () => {
    const res = await create(`/pipelines/${pipelineId}`, { export_type: 'sbom' });
    expectStatus(res, 201);
    const file = await download(res.body.id);
    assert.equal(await new CDX.Validation.JsonStrictValidator(CDX.Spec.Version.v1dot4).validate(file.text), null);
    const bom = JSON.parse(file.text);
    assert.deepEqual([bom.bomFormat, bom.specVersion, bom.version], ['CycloneDX', '1.4', 1]);
    assert.match(bom.serialNumber, /^urn:uuid:[0-9a-f-]{36}$/);
    assert.deepEqual(bom.metadata.tools, [{ vendor: 'Gatehouse', name: 'Gatehouse', version: '1.0.0' }]);
    assert.equal(bom.metadata.authors[0].email, `${developer.user.username}@example.com`);
    assert.ok(bom.metadata.properties.some((p: { name: string; value: string }) => p.name === 'gatehouse:pipeline_id' && p.value === String(pipelineId)));
    assert.equal(bom.components.length, 12);
    assert.deepEqual(Object.keys(bom.components[0]).sort(), ['bom-ref', 'licenses', 'name', 'purl', 'type', 'version']);
    assert.deepEqual(bom.components[0].licenses, [{ license: { id: 'MIT', url: 'https://spdx.org/licenses/MIT.html' } }]);
  });

  it('answers 404 for a pipeline the caller may not see or that does not exist, 403 without read_dependency', async () => {
    expectStatus(await create(`/pipelines/${pipelineId}`, { export_type: 'sbom' }, (await buildUser()).token), 404);
    const reporter = await userWithRole(group.id, 20);
    expectStatus(await create(`/pipelines/${pipelineId}`, { export_type: 'sbom' }, reporter.token), 403);
    const missing = await create('/pipelines/987654321', { export_type: 'sbom' });
    expectStatus(missing, 404);
    assert.deepEqual(missing.body, { message: '404 Pipeline Not Found' });
    expectStatus(await create(`/pipelines/${pipelineId}`, { export_type: 'csv' }), 400);
  });
});

describe('GET /dependency_list_exports/:id/download', () => {
  it('is the author’s only: 404 to anyone else, and 404 while it is not finished', async () => {
    const res = await create(`/projects/${project.id}`, { export_type: 'csv' });
    await download(res.body.id);
    const maintainer = await userWithRole(group.id, 40);
    expectStatus(await api(`/dependency_list_exports/${res.body.id}`, { token: maintainer.token }), 404);
    expectStatus(await api(`/dependency_list_exports/${res.body.id}/download`, { token: maintainer.token }), 404);
    await server.running.db.updateTable('exports').set({ status: 'running' }).where('id', '=', res.body.id).execute();
    expectStatus(await api(`/dependency_list_exports/${res.body.id}`, { token: developer.token }), 202);
    const early = await api(`/dependency_list_exports/${res.body.id}/download`, { token: developer.token });
    expectStatus(early, 404);
    assert.deepEqual(early.body, { message: '404 Dependency List Export Not Found' });
  });

  it('is refused (403) to an author removed from the project’s group or moved below Developer, for a project, a group and a pipeline export', async () => {
    const author = await userWithRole(group.id, 30);
    const made: number[] = [];
    for (const [on, export_type] of [[`/projects/${project.id}`, 'csv'], [`/groups/${group.id}`, 'json_array'], [`/pipelines/${pipelineId}`, 'sbom']]) {
      const res = await create(on, { export_type }, author.token);
      expectStatus(res, 201);
      await download(res.body.id, author.token);
      made.push(res.body.id as number);
    }
    const statuses = async () => Promise.all(made.flatMap((id) => [`/dependency_list_exports/${id}`, `/dependency_list_exports/${id}/download`].map(async (path) => (await api(path, { token: author.token })).status)));
    expectStatus(await api(`/groups/${group.id}/members/${author.user.id}`, { method: 'PUT', json: { access_level: 20 } }), 200);
    assert.deepEqual(await statuses(), [403, 403, 403, 403, 403, 403]);
    expectStatus(await api(`/groups/${group.id}/members/${author.user.id}`, { method: 'DELETE' }), 204);
    assert.deepEqual(await statuses(), [403, 403, 403, 403, 403, 403]);
  });
});

describe('metadata.tools of a CycloneDX export', () => {
  it('names Gatehouse and, once each, the tools of the SBOMs it merges, in the form of its spec version (legacy list in 1.4, components and services in 1.6)', async () => {
    const scanned = await buildProject(group.id);
    const pipeline = await mainPipeline(scanned.id);
    // A 1.4 SBOM with the legacy list (GitLab's Gemnasium), and a 1.6 one with components and services, Gemnasium again among them.
    expectStatus(await uploadReport(scanned.id, pipeline, 'cyclonedx', fs.readFileSync(new URL('gl-sbom-npm.cdx.json', FIXTURES), 'utf8')), 201);
    const modern = {
      bomFormat: 'CycloneDX',
      specVersion: '1.6',
      version: 1,
      metadata: {
        tools: {
          components: [
            { type: 'application', group: 'Aqua Security', name: 'Trivy', version: '0.50.0' },
            { type: 'application', group: 'GitLab', name: 'Gemnasium', version: '5.0.0' },
          ],
          services: [{ group: 'Acme', name: 'SBOM service', version: '2' }],
        },
      },
      components: [{ type: 'library', name: 'requests', version: '2.31.0', purl: 'pkg:pypi/requests@2.31.0' }],
    };
    expectStatus(await uploadReport(scanned.id, pipeline, 'cyclonedx', JSON.stringify(modern)), 201);

    const legacy = await download((await create(`/pipelines/${pipeline}`, { export_type: 'sbom' })).body.id);
    assert.equal(await new CDX.Validation.JsonStrictValidator(CDX.Spec.Version.v1dot4).validate(legacy.text), null);
    assert.deepEqual(JSON.parse(legacy.text).metadata.tools, [
      { vendor: 'Gatehouse', name: 'Gatehouse', version: '1.0.0' },
      { vendor: 'GitLab', name: 'Gemnasium', version: '5.0.0' },
      { vendor: 'Aqua Security', name: 'Trivy', version: '0.50.0' },
      { vendor: 'Acme', name: 'SBOM service', version: '2' },
    ]);

    const current = await download((await create(`/projects/${scanned.id}`, { export_type: 'cyclonedx_1_6_json' })).body.id);
    assert.equal(await new CDX.Validation.JsonStrictValidator(CDX.Spec.Version.v1dot6).validate(current.text), null);
    const bom = JSON.parse(current.text);
    assert.deepEqual(bom.metadata.tools, {
      components: [
        { type: 'application', group: 'Gatehouse', name: 'Gatehouse', version: '1.0.0' },
        { type: 'application', group: 'GitLab', name: 'Gemnasium', version: '5.0.0' },
        { type: 'application', group: 'Aqua Security', name: 'Trivy', version: '0.50.0' },
      ],
      services: [{ group: 'Acme', name: 'SBOM service', version: '2' }],
    });
    assert.equal(bom.components.length, 4);
  });
});
