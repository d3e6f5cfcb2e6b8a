import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline, Writable } from 'node:stream';
import { pipeline as piped } from 'node:stream/promises';
import { parseCsv as parse } from './csv-read.ts';
import * as CDX from '@cyclonedx/cyclonedx-library';
import { VULNERABILITY_CSV_COLUMNS } from '../../../../../shared/src/vulnerability-exports.ts';
import { contentStream, type Content } from './files.ts';
import { vulnerabilityCsv, dependencyCsv } from './csv.ts';
import { cycloneDxJson } from './cyclonedx.ts';
import { dependencyJson } from './json.ts';
import { vulnerabilityPdf } from './pdf.ts';
import type { DependencyExportRow, ExportTool, VulnerabilityExportRow } from './rows.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-writers-'));
const out = (name: string) => path.join(dir, name);

/** A writer's content, as the file store takes it (one stream), written to a file to read back. */
async function writeAtomically(file: string, content: Content): Promise<{ path: string; size: number }> {
  await piped(contentStream(content), fs.createWriteStream(file));
  return { path: file, size: fs.statSync(file).size };
}

/** Rows as the sources hand them on: in pages (of two here, so that every writer joins pages). */
async function* from<T>(rows: T[]) {
  for (let i = 0; i < rows.length; i += 2) yield rows.slice(i, i + 2);
}

const finding = (i: number, extra: Partial<VulnerabilityExportRow> = {}): VulnerabilityExportRow => ({
  id: i,
  group_name: 'Acme',
  project_name: 'Website',
  full_path: 'acme/website',
  tool: 'sast',
  scanner_name: 'Semgrep',
  status: 'detected',
  title: `Finding ${i}`,
  description: 'Uses "eval", on user input',
  additional_info: 'Do not',
  severity: 'critical',
  identifiers: [
    { type: 'cve', name: 'CVE-2024-0001' },
    { type: 'cwe', name: 'CWE-79' },
    { type: 'semgrep_id', name: 'js.eval' },
  ],
  detected_at: '2026-11-20T08:09:10.123Z',
  location: 'src/app.js:10-12',
  activity: '',
  comments: '',
  cvss_vectors: '',
  dismissal_reason: '',
  ...extra,
});

const component = (i: number, extra: Partial<DependencyExportRow> = {}): DependencyExportRow => ({
  id: i,
  name: `pkg-${i}`,
  version: `1.${i}.0`,
  packager: 'npm',
  location: 'package-lock.json',
  purl: `pkg:npm/pkg-${i}@1.${i}.0`,
  component_type: 'library',
  licenses: [{ spdx_identifier: 'MIT', name: 'MIT License', url: 'https://spdx.org/licenses/MIT.html' }],
  project_full_path: 'acme/website',
  ...extra,
});

describe('vulnerability CSV', () => {
  it("has the spec's columns in order, its date format, and one row per finding with CVE, CWE and other identifiers apart", async () => {
    const file = await writeAtomically(out('v.csv'), vulnerabilityCsv(from([finding(1), finding(2, { status: 'dismissed', dismissal_reason: 'false_positive', comments: 'line1\nline2' })])));
    const text = fs.readFileSync(file.path, 'utf8');
    const rows: string[][] = parse(text);
    assert.deepEqual(rows[0], [...VULNERABILITY_CSV_COLUMNS]);
    assert.equal(rows.length, 3);
    const byName = (r: string[]) => Object.fromEntries(rows[0].map((h, i) => [h, r[i]]));
    const first = byName(rows[1]);
    assert.equal(first['Detected At'], '2026-11-20 08:09:10 UTC');
    assert.equal(first.CVE, 'CVE-2024-0001');
    assert.equal(first.CWE, 'CWE-79');
    assert.equal(first['Other Identifiers'], 'js.eval');
    assert.equal(first.Details, 'Uses "eval", on user input');
    const second = byName(rows[2]);
    assert.equal(second['Dismissal Reason'], 'false_positive');
    assert.equal(second.Comments, 'line1\nline2');
    assert.equal(file.size, Buffer.byteLength(text));
  });
});

describe('a content stream', () => {
  it('fails with its source when the source fails halfway (the file store then publishes nothing)', async () => {
    async function* failing() {
      yield [finding(1)];
      throw new Error('database went away');
    }
    await assert.rejects(writeAtomically(out('broken.csv'), vulnerabilityCsv(failing())), /database went away/);
    await assert.rejects(writeAtomically(out('broken.pdf'), vulnerabilityPdf({ title: 't', generatedAt: '2026-11-20T00:00:00.000Z', counts: {}, pages: failing() })), /database went away/);
  });
});

describe('CycloneDX', () => {
  for (const version of ['1.4', '1.6'] as const) {
    it(`${version} passes the official JSON schema validation and has the spec's fields`, async () => {
      const file = await writeAtomically(
        out(`bom-${version}.json`),
        cycloneDxJson({
          version,
          serialNumber: 'urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79',
          timestamp: new Date('2026-11-20T00:00:00Z'),
          author: { name: 'Root', email: 'root@example.com' },
          properties: [{ name: 'gatehouse:project_id', value: '1' }],
          pages: from([component(1), component(2, { licenses: [{ spdx_identifier: null, name: 'Custom licence', url: null }] }), component(3, { purl: null, licenses: [] })]),
        }),
      );
      const text = fs.readFileSync(file.path, 'utf8');
      const validator = new CDX.Validation.JsonStrictValidator(version === '1.4' ? CDX.Spec.Version.v1dot4 : CDX.Spec.Version.v1dot6);
      assert.equal(await validator.validate(text), null);
      const bom = JSON.parse(text);
      assert.equal(bom.bomFormat, 'CycloneDX');
      assert.equal(bom.specVersion, version);
      assert.equal(bom.version, 1);
      assert.equal(bom.serialNumber, 'urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79');
      assert.deepEqual(bom.metadata.authors, [{ name: 'Root', email: 'root@example.com' }]);
      assert.deepEqual(bom.metadata.properties, [{ name: 'gatehouse:project_id', value: '1' }]);
      if (version === '1.4') assert.deepEqual(bom.metadata.tools, [{ vendor: 'Gatehouse', name: 'Gatehouse', version: '1.0.0' }]);
      else assert.deepEqual(bom.metadata.tools, { components: [{ type: 'application', group: 'Gatehouse', name: 'Gatehouse', version: '1.0.0' }] });
      assert.equal(bom.components.length, 3);
      const [c1, c2] = bom.components;
      assert.equal(c1.name, 'pkg-1');
      assert.equal(c1.version, '1.1.0');
      assert.equal(c1.type, 'library');
      assert.equal(c1.purl, 'pkg:npm/pkg-1@1.1.0');
      assert.deepEqual(c1.licenses, [{ license: { id: 'MIT', url: 'https://spdx.org/licenses/MIT.html' } }]);
      assert.deepEqual(c2.licenses, [{ license: { name: 'Custom licence' } }]);
    });
  }
});

describe('CycloneDX metadata.tools', () => {
  const tools: ExportTool[] = [
    { kind: 'component', type: 'application', group: 'GitLab', name: 'Gemnasium', version: '5.0.0' },
    { kind: 'component', type: 'application', group: 'Gatehouse', name: 'Gatehouse', version: '1.0.0' },
    { kind: 'service', group: 'Acme', name: 'SBOM service', version: null },
    { kind: 'component', type: 'not-a-type', group: null, name: 'Syft', version: '1.0' },
    { kind: 'component', type: 'application', group: 'GitLab', name: 'Gemnasium', version: '5.0.0' },
  ];
  const write = async (version: '1.4' | '1.6') => {
    const file = await writeAtomically(out(`tools-${version}.json`), cycloneDxJson({ version, serialNumber: 'urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79', timestamp: new Date(), author: { name: 'R', email: 'r@example.com' }, properties: [], tools, pages: from([component(1)]) }));
    const text = fs.readFileSync(file.path, 'utf8');
    const validator = new CDX.Validation.JsonStrictValidator(version === '1.4' ? CDX.Spec.Version.v1dot4 : CDX.Spec.Version.v1dot6);
    assert.equal(await validator.validate(text), null);
    return JSON.parse(text).metadata.tools;
  };
  it('1.6: components and services, Gatehouse first, each tool once, an unknown type an application', async () => {
    assert.deepEqual(await write('1.6'), {
      components: [
        { type: 'application', group: 'Gatehouse', name: 'Gatehouse', version: '1.0.0' },
        { type: 'application', group: 'GitLab', name: 'Gemnasium', version: '5.0.0' },
        { type: 'application', name: 'Syft', version: '1.0' },
      ],
      services: [{ group: 'Acme', name: 'SBOM service' }],
    });
  });
  it('1.4: the legacy list, vendor for group', async () => {
    assert.deepEqual(await write('1.4'), [
      { vendor: 'Gatehouse', name: 'Gatehouse', version: '1.0.0' },
      { vendor: 'GitLab', name: 'Gemnasium', version: '5.0.0' },
      { name: 'Syft', version: '1.0' },
      { vendor: 'Acme', name: 'SBOM service' },
    ]);
  });
});

describe('dependency lists as JSON and CSV', () => {
  it('dependency_list is an object with a dependencies list; json_array a flat array', async () => {
    const obj = JSON.parse(fs.readFileSync((await writeAtomically(out('d.json'), dependencyJson(from([component(1), component(2)]), 'object'))).path, 'utf8'));
    assert.deepEqual(Object.keys(obj), ['dependencies']);
    assert.equal(obj.dependencies.length, 2);
    assert.equal(obj.dependencies[1].name, 'pkg-2');
    assert.equal(obj.dependencies[1].location.path, 'package-lock.json');
    const arr = JSON.parse(fs.readFileSync((await writeAtomically(out('a.json'), dependencyJson(from([]), 'array'))).path, 'utf8'));
    assert.deepEqual(arr, []);
    const csv: string[][] = parse(fs.readFileSync((await writeAtomically(out('d.csv'), dependencyCsv(from([component(1)])))).path, 'utf8'));
    assert.deepEqual(csv[1], ['pkg-1', '1.1.0', 'npm', 'package-lock.json', 'MIT', 'acme/website']);
  });
});

describe('vulnerability PDF', () => {
  it('is a PDF document with a page per screenful of findings', async () => {
    const rows = Array.from({ length: 120 }, (_, i) => finding(i + 1));
    const file = await writeAtomically(out('v.pdf'), vulnerabilityPdf({ title: 'acme/website', generatedAt: '2026-11-20T00:00:00.000Z', counts: { critical: 120 }, pages: from(rows) }));
    const bytes = fs.readFileSync(file.path);
    assert.equal(bytes.subarray(0, 5).toString(), '%PDF-');
    const pages = (bytes.toString('latin1').match(/\/Type \/Page\b/g) ?? []).length;
    assert.ok(pages > 3, `expected several pages, got ${pages}`);
  });
});


describe('every writer, with a file that takes nothing', () => {
  const PAGES = 200;
  /** Pages of 500 rows (as the sources' pages, more than a stream buffer holds), counting how many the writer asked for. */
  const counted = <T>(row: (i: number) => T) => {
    const state = { pulled: 0 };
    const pages = (async function* () {
      for (let p = 0; p < PAGES; p++) {
        state.pulled += 1;
        yield Array.from({ length: 500 }, (_, i) => row(p * 500 + i + 1));
      }
    })();
    return { state, pages };
  };
  const writers: [string, () => { state: { pulled: number }; content: Content }][] = [
    ['vulnerability CSV', () => { const c = counted((i) => finding(i)); return { state: c.state, content: vulnerabilityCsv(c.pages) }; }],
    ['vulnerability PDF', () => { const c = counted((i) => finding(i)); return { state: c.state, content: vulnerabilityPdf({ title: 't', generatedAt: '2026-11-20T00:00:00.000Z', counts: {}, pages: c.pages }) }; }],
    ['dependency CSV', () => { const c = counted((i) => component(i)); return { state: c.state, content: dependencyCsv(c.pages) }; }],
    ['dependency JSON', () => { const c = counted((i) => component(i)); return { state: c.state, content: dependencyJson(c.pages, 'object') }; }],
    ['CycloneDX', () => { const c = counted((i) => component(i)); return { state: c.state, content: cycloneDxJson({ version: '1.6', serialNumber: 'urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79', timestamp: new Date(), author: { name: 'R', email: 'r@example.com' }, properties: [], pages: c.pages }) }; }],
  ];
  for (const [name, make] of writers) {
    it(`${name} reads a few pages ahead, not the whole export`, async () => {
      const { state, content } = make();
      // A file that never finishes its first write: all a writer may do is fill its buffers.
      const stalled = new Writable({ highWaterMark: 1, write: () => undefined });
      const streams = [content.source, ...(content.through ?? []), stalled];
      pipeline(streams, () => undefined);
      await new Promise((r) => setTimeout(r, 500));
      assert.ok(state.pulled >= 1, 'the writer started');
      assert.ok(state.pulled <= 10, `${state.pulled} of ${PAGES} pages were read into memory`);
      for (const s of streams) s.destroy();
    });
  }
});
