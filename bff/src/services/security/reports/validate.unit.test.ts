import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { FindingReportType } from '../../../../../shared/src/security-reports.ts';
import { securityReportErrors } from './validate.ts';

/**
 * Our restatement of the platform's report schemas (./schemas) against the facts of the
 * published security-report-schemas 15.x (checked against 15.2.1): for each place where the
 * two differed, a report the published schema accepts and one it refuses. A case names the
 * published rule it restates.
 */
type Report = Record<string, any>;

const tool = (id: string) => ({ id, name: id, version: '1.0.0', vendor: { name: 'Vendor' } });
const scan = (type: string, extra: Report = {}) => ({ analyzer: tool('analyzer'), scanner: tool('scanner'), type, start_time: '2026-11-20T10:00:00', end_time: '2026-11-20T10:01:00', status: 'success', ...extra });
const identifiers = [{ type: 'cwe', name: 'CWE-89', value: '89' }];
const dependency = () => ({ package: { name: 'lodash' }, version: '4.17.20' });

/** The smallest valid report of each type: one finding. */
const base: Record<FindingReportType, () => Report> = {
  sast: () => ({ version: '15.2.1', scan: scan('sast'), vulnerabilities: [{ id: 'v1', identifiers, location: { file: 'app.js', start_line: 1 } }] }),
  dependency_scanning: () => ({ version: '15.2.1', scan: scan('dependency_scanning'), vulnerabilities: [{ id: 'v1', identifiers, location: { file: 'package-lock.json', dependency: dependency() } }] }),
  container_scanning: () => ({ version: '15.2.1', scan: scan('container_scanning'), vulnerabilities: [{ id: 'v1', identifiers, location: { dependency: dependency(), operating_system: 'debian:12', image: 'registry.example.com/app:1' } }] }),
  secret_detection: () => ({ version: '15.2.1', scan: scan('secret_detection'), vulnerabilities: [{ id: 'v1', identifiers, location: { file: '.env', commit: { sha: 'abc123' } } }] }),
  dast: () => ({ version: '15.2.1', scan: scan('dast', { scanned_resources: [{ method: 'GET', url: 'https://app.example.com/', type: 'url' }] }), vulnerabilities: [{ id: 'v1', identifiers, location: { hostname: 'https://app.example.com', path: '/' } }] }),
};

interface Case {
  rule: string;
  type: FindingReportType;
  change: (r: Report) => void;
  accepted: boolean;
}

const finding = (r: Report) => r.vulnerabilities[0] as Report;
const V3 = 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H';
const V2 = 'AV:N/AC:L/Au:N/C:P/I:P/A:P';
const detail = (item: Report) => ({ evidence: { name: 'Evidence', ...item } });

const cases: Case[] = [
  // Vulnerabilities have no confidence in 15.x: any value passes; severity keeps its enum.
  { rule: 'confidence is not constrained', type: 'sast', change: (r) => (finding(r).confidence = 'Whatever'), accepted: true },
  { rule: 'severity is one of Info … Critical', type: 'sast', change: (r) => (finding(r).severity = 'Whatever'), accepted: false },
  // identifiers: at least one, no upper bound.
  { rule: 'identifiers may be many', type: 'sast', change: (r) => (finding(r).identifiers = Array.from({ length: 25 }, (_, i) => ({ type: 'cwe', name: `CWE-${i}`, value: String(i) }))), accepted: true },
  { rule: 'identifiers has at least one', type: 'sast', change: (r) => (finding(r).identifiers = []), accepted: false },
  // Tool ids: any non-empty text; only the analyzer's url must be http(s).
  { rule: 'a scanner id is any non-empty text', type: 'sast', change: (r) => (r.scan.scanner.id = 'my.scanner/v2'), accepted: true },
  { rule: 'a scanner id is not empty', type: 'sast', change: (r) => (r.scan.scanner.id = ''), accepted: false },
  { rule: "the scanner's url is any text", type: 'sast', change: (r) => (r.scan.scanner.url = 'scanner.example.com'), accepted: true },
  { rule: "the analyzer's url is http(s)", type: 'sast', change: (r) => (r.scan.analyzer.url = 'analyzer.example.com'), accepted: false },
  // The report's schema is a URI.
  { rule: 'schema is an http(s) URI', type: 'sast', change: (r) => (r.schema = 'https://gitlab.com/security-report-schemas/-/raw/v15.2.1/dist/sast-report-format.json'), accepted: true },
  { rule: 'schema is not a bare file name', type: 'sast', change: (r) => (r.schema = 'sast-report-format.json'), accepted: false },
  // Scan messages and options.
  { rule: 'a scan message has text', type: 'sast', change: (r) => (r.scan.messages = [{ level: 'warn', value: 'Took long' }]), accepted: true },
  { rule: 'a scan message is not empty', type: 'sast', change: (r) => (r.scan.messages = [{ level: 'warn', value: '' }]), accepted: false },
  { rule: 'a scan option has a name and a value', type: 'sast', change: (r) => (r.scan.options = [{ name: 'DS_MAX_DEPTH', value: 2, source: 'env_variable' }, { name: 'SECURE_LOG_LEVEL', value: null }]), accepted: true },
  { rule: 'a scan option without a value', type: 'sast', change: (r) => (r.scan.options = [{ name: 'DS_MAX_DEPTH' }]), accepted: false },
  { rule: "a scan option's source is one of argument, file, env_variable, other", type: 'sast', change: (r) => (r.scan.options = [{ name: 'DS_MAX_DEPTH', value: 2, source: 'cli' }]), accepted: false },
  { rule: 'an observability event names its event', type: 'sast', change: (r) => (r.scan.observability = { events: [{ property: 'x' }] }), accepted: false },
  // CVSS vectors follow the v2 or v3.x grammar.
  { rule: 'CVSS vectors of version 3.1 and 2', type: 'sast', change: (r) => (finding(r).cvss_vectors = [{ vendor: 'NVD', vector: V3 }, { vendor: 'NVD', vector: V2 }]), accepted: true },
  { rule: 'a CVSS vector of 16 characters that is no vector', type: 'sast', change: (r) => (finding(r).cvss_vectors = [{ vendor: 'NVD', vector: 'not-a-cvss-vector' }]), accepted: false },
  { rule: 'a CVSS 3 vector with an unknown metric value', type: 'sast', change: (r) => (finding(r).cvss_vectors = [{ vendor: 'NVD', vector: V3.replace('AV:N', 'AV:Q') }]), accepted: false },
  // Details: named items whose type says what they hold.
  {
    rule: 'details of known kinds',
    type: 'sast',
    change: (r) =>
      (finding(r).details = {
        ...detail({ type: 'text', value: 'seen' }),
        where: { name: 'Where', type: 'file-location', file_name: 'app.js', line_start: 3, line_end: 4 },
        flows: { name: 'Flows', type: 'code-flows', items: [[{ type: 'code-flow-node', node_type: 'source', file_location: { type: 'file-location', file_name: 'a.js', line_start: 1 } }]] },
        more: { name: 'More', type: 'list', items: [{ type: 'url', href: 'https://example.com' }, { type: 'value', value: 3 }] },
      }),
    accepted: true,
  },
  { rule: 'a detail of an unknown kind', type: 'sast', change: (r) => (finding(r).details = detail({ type: 'picture', value: 'x' })), accepted: false },
  { rule: 'a file-location detail without its first line', type: 'sast', change: (r) => (finding(r).details = detail({ type: 'file-location', file_name: 'app.js' })), accepted: false },
  { rule: 'a named detail without its name', type: 'sast', change: (r) => (finding(r).details = { evidence: { type: 'text', value: 'seen' } }), accepted: false },
  // Tracking and flags.
  { rule: 'source tracking with signatures', type: 'sast', change: (r) => (finding(r).tracking = { type: 'source', items: [{ file: 'app.js', start_line: 1, end_line: 1, signatures: [{ algorithm: 'hash', value: 'abc' }] }] }), accepted: true },
  { rule: 'a tracking item without signatures', type: 'sast', change: (r) => (finding(r).tracking = { type: 'source', items: [{ file: 'app.js', signatures: [] }] }), accepted: false },
  { rule: 'a likely-false-positive flag', type: 'sast', change: (r) => (finding(r).flags = [{ type: 'flagged-as-likely-false-positive', origin: 'ai', description: 'test code' }]), accepted: true },
  { rule: 'a flag of another type', type: 'sast', change: (r) => (finding(r).flags = [{ type: 'flagged-as-true-positive', origin: 'ai', description: 'x' }]), accepted: false },
  { rule: 'a raw source extract is text', type: 'sast', change: (r) => (finding(r).raw_source_code_extract = 42), accepted: false },
  // Dependencies: a package and its version; the package's name may be empty.
  { rule: "a dependency's package name may be empty", type: 'dependency_scanning', change: (r) => (finding(r).location.dependency.package.name = ''), accepted: true },
  { rule: 'a dependency has a version', type: 'dependency_scanning', change: (r) => delete finding(r).location.dependency.version, accepted: false },
  { rule: 'dependency_files is not part of 15.x', type: 'dependency_scanning', change: (r) => (r.dependency_files = [{ path: 'package-lock.json' }]), accepted: true },
  { rule: 'a container dependency has a version', type: 'container_scanning', change: (r) => delete finding(r).location.dependency.version, accepted: false },
  // Container scanning: its registry variant, the default branch image's length.
  { rule: 'a registry scan is a container scan', type: 'container_scanning', change: (r) => (r.scan.type = 'container_scanning_for_registry'), accepted: true },
  { rule: 'a container report is not a SAST one', type: 'container_scanning', change: (r) => (r.scan.type = 'sast'), accepted: false },
  { rule: 'default_branch_image has at most 255 characters', type: 'container_scanning', change: (r) => (finding(r).location.default_branch_image = `registry.example.com/${'a'.repeat(250)}`), accepted: false },
  // DAST: API fuzzing reports, any kind of scanned resource, evidence and assets.
  { rule: 'an API fuzzing report is a DAST report', type: 'dast', change: (r) => (r.scan.type = 'api_fuzzing'), accepted: true },
  { rule: 'a scanned resource of any kind', type: 'dast', change: (r) => (r.scan.scanned_resources[0].type = 'api-operation'), accepted: true },
  { rule: 'a scanned resource has a URL', type: 'dast', change: (r) => (r.scan.scanned_resources[0].url = ''), accepted: false },
  {
    rule: 'evidence with a request, a response and supporting messages',
    type: 'dast',
    change: (r) =>
      (finding(r).evidence = {
        summary: 'leaked',
        source: { id: 'assert:StatusCode', name: 'Status Code' },
        request: { headers: [{ name: 'Accept', value: '*/*' }], method: 'GET', url: 'https://app.example.com/' },
        response: { headers: [], reason_phrase: 'OK', status_code: 200 },
        supporting_messages: [{ name: 'Recorded' }],
      }),
    accepted: true,
  },
  { rule: 'an evidence request without headers', type: 'dast', change: (r) => (finding(r).evidence = { request: { method: 'GET', url: 'https://app.example.com/' } }), accepted: false },
  { rule: 'an evidence response with a textual status', type: 'dast', change: (r) => (finding(r).evidence = { response: { headers: [], reason_phrase: 'OK', status_code: '200' } }), accepted: false },
  { rule: 'an asset of a known type', type: 'dast', change: (r) => (finding(r).assets = [{ type: 'postman', name: 'Collection', url: 'https://example.com/c.json' }]), accepted: true },
  { rule: 'an asset of another type', type: 'dast', change: (r) => (finding(r).assets = [{ type: 'zip', name: 'Archive', url: 'https://example.com/a.zip' }]), accepted: false },
];

describe('security report schemas (15.x)', () => {
  for (const type of Object.keys(base) as FindingReportType[]) {
    it(`accept the smallest ${type} report`, () => assert.deepEqual(securityReportErrors(type, base[type]()), []));
  }
  for (const c of cases) {
    it(`${c.accepted ? 'accept' : 'refuse'} ${c.type}: ${c.rule}`, () => {
      const report = base[c.type]();
      c.change(report);
      const errors = securityReportErrors(c.type, report);
      if (c.accepted) assert.deepEqual(errors, []);
      else assert.ok(errors.length > 0, 'the report was accepted');
    });
  }
  it('accept the SAST report the tests and the end-to-end tests upload', () => {
    const fixture = JSON.parse(fs.readFileSync(new URL('../../../../test/fixtures/security/gl-sast-report.json', import.meta.url), 'utf8'));
    assert.deepEqual(securityReportErrors('sast', fixture), []);
  });
});
