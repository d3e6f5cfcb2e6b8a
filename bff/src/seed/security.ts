import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Db } from '../db/index.ts';
import type { ProjectRow, UserRow } from '../db/schema.ts';
import { ingestReport } from '../services/security/security-reports.ts';
import { transition } from '../services/security/vulnerabilities.ts';
import { nowIso } from '../util/time.ts';

const SCAN = (type: string) => ({
  analyzer: { id: 'semgrep', name: 'Semgrep', version: '5.2.0', vendor: { name: 'GitLab' } },
  scanner: { id: 'semgrep', name: 'Semgrep', version: '1.90.0', vendor: { name: 'GitLab' } },
  type,
  start_time: nowIso().slice(0, 19),
  end_time: nowIso().slice(0, 19),
  status: 'success',
});

/** [title, severity, CWE, file, line] */
const FINDINGS: [string, string, number, string, number][] = [
  ['SQL injection in search query', 'Critical', 89, 'src/search/query.js', 42],
  ['Cross-site scripting in comment rendering', 'High', 79, 'src/views/comments.jsx', 17],
  ['Use of MD5 for password hashing', 'High', 327, 'src/auth/hash.js', 8],
  ['Path traversal in file download', 'High', 22, 'src/files/download.js', 31],
  ['Hard-coded credentials', 'Medium', 798, 'config/dev.js', 3],
  ['Open redirect after sign-in', 'Medium', 601, 'src/auth/redirect.js', 12],
  ['Regular expression denial of service', 'Medium', 1333, 'src/util/validate.js', 5],
  ['Missing CSRF protection on form', 'Low', 352, 'src/views/settings.jsx', 54],
  ['Information exposure through error message', 'Low', 209, 'src/server/errors.js', 20],
  ['Insecure randomness for token', 'Info', 330, 'src/util/token.js', 2],
];

const COMPONENTS: [string, string, string][] = [
  ['express', '4.18.2', 'MIT'],
  ['react', '18.2.0', 'MIT'],
  ['react-dom', '18.2.0', 'MIT'],
  ['lodash', '4.17.20', 'MIT'],
  ['debug', '2.6.9', 'MIT'],
  ['jsonwebtoken', '8.5.1', 'MIT'],
  ['pg', '8.11.3', 'MIT'],
  ['ws', '7.4.5', 'MIT'],
  ['minimist', '1.2.5', 'MIT'],
  ['semver', '7.5.4', 'ISC'],
  ['axios', '0.21.1', 'MIT'],
  ['dompurify', '3.0.6', 'Apache-2.0'],
];

/**
 * A SAST report and an SBOM on the website's newest default-branch pipeline, ingested as a CI
 * job would upload them; one finding dismissed, one confirmed, so the report shows each state.
 */
export async function seedSecurity(db: Db, project: ProjectRow, people: UserRow[]): Promise<void> {
  const pipeline = await db.selectFrom('pipelines').selectAll().where('project_id', '=', project.id).where('ref', '=', project.default_branch ?? 'main').orderBy('id', 'desc').executeTakeFirst();
  if (!pipeline) return;
  const sast = {
    version: '15.1.4',
    scan: SCAN('sast'),
    vulnerabilities: FINDINGS.map(([name, severity, cwe, file, line], i) => ({
      id: `demo-${i}`,
      name,
      description: `${name} (CWE-${cwe}) found by static analysis.`,
      severity,
      solution: 'See the linked CWE entry for the usual fix.',
      identifiers: [
        { type: 'semgrep_id', name: `demo.rule-${cwe}`, value: `demo.rule-${cwe}` },
        { type: 'cwe', name: `CWE-${cwe}`, value: String(cwe), url: `https://cwe.mitre.org/data/definitions/${cwe}.html` },
      ],
      location: { file, start_line: line, end_line: line },
    })),
  };
  const sbom = {
    bomFormat: 'CycloneDX',
    specVersion: '1.4',
    version: 1,
    metadata: {
      tools: [{ vendor: 'GitLab', name: 'Gemnasium', version: '5.0.0' }],
      properties: [
        { name: 'gitlab:dependency_scanning:input_file:path', value: 'package-lock.json' },
        { name: 'gitlab:dependency_scanning:package_manager:name', value: 'npm' },
      ],
    },
    components: COMPONENTS.map(([name, version, license]) => ({ type: 'library', name, version, purl: `pkg:npm/${name}@${version}`, licenses: [{ license: { id: license } }] })),
  };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-seed-security-'));
  try {
    for (const [reportType, doc] of [['sast', sast], ['cyclonedx', sbom]] as const) {
      const file = path.join(dir, `${reportType}.json`);
      fs.writeFileSync(file, JSON.stringify(doc));
      await ingestReport(db, { project, pipeline, reportType, filePath: file, uploaderId: people[0]?.id ?? null });
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const found = await db.selectFrom('vulnerabilities').selectAll().where('project_id', '=', project.id).orderBy('id').execute();
  const [maintainer] = people;
  if (!maintainer) return;
  const hardCoded = found.find((v) => v.location_path === 'config/dev.js');
  if (hardCoded) await transition(db, hardCoded, { action: 'dismiss', actor: maintainer, dismissalReason: 'used_in_tests', comment: 'Development-only credentials for the local database.' });
  const sqli = found.find((v) => v.severity === 'critical');
  if (sqli) await transition(db, sqli, { action: 'confirm', actor: maintainer, comment: 'Reproduced on staging.' });
}
