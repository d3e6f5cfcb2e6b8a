import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import { VULNERABILITY_CSV_COLUMNS } from '../../../shared/src/vulnerability-exports.ts';
import { DEPENDENCY_CSV_COLUMNS } from '../../../shared/src/dependency-list-exports.ts';
import type { Content } from './files.ts';
import type { DependencyExportRow, VulnerabilityExportRow } from './rows.ts';

/** The spec's date format of the CSV: YYYY-MM-DD hh:mm:ss UTC. */
export const csvDate = (iso: string) => (iso ? `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC` : '');

const ids = (row: VulnerabilityExportRow, type: string) =>
  row.identifiers
    .filter((i) => i.type.toLowerCase() === type)
    .map((i) => i.name)
    .join(', ');
const others = (row: VulnerabilityExportRow) =>
  row.identifiers
    .filter((i) => !['cve', 'cwe'].includes(i.type.toLowerCase()))
    .map((i) => i.name)
    .join(', ');

/** One vulnerability as the spec's columns, in its order. */
export const vulnerabilityCsvRecord = (r: VulnerabilityExportRow): string[] => [
  r.group_name,
  r.project_name,
  r.tool,
  r.scanner_name,
  r.status,
  r.title,
  r.description,
  r.additional_info,
  r.severity,
  ids(r, 'cve'),
  ids(r, 'cwe'),
  others(r),
  csvDate(r.detected_at),
  r.location,
  r.activity,
  r.comments,
  r.full_path,
  r.cvss_vectors,
  r.dismissal_reason,
];

export const dependencyCsvRecord = (r: DependencyExportRow): string[] => [
  r.name,
  r.version,
  r.packager,
  r.location,
  r.licenses.map((l) => l.spdx_identifier ?? l.name).join(', '),
  r.project_full_path,
];

/** A CSV stream of rows: header first, each row as it comes (csv-stringify quotes as RFC 4180). */
function csvOf<T>(rows: AsyncIterable<T>, header: readonly string[], record: (row: T) => string[]): Content {
  const records = Readable.from(
    (async function* () {
      for await (const row of rows) yield record(row);
    })(),
  );
  return { source: records, through: [stringify({ header: true, columns: [...header] })] };
}

export const vulnerabilityCsv = (rows: AsyncIterable<VulnerabilityExportRow>) => csvOf(rows, VULNERABILITY_CSV_COLUMNS, vulnerabilityCsvRecord);
export const dependencyCsv = (rows: AsyncIterable<DependencyExportRow>) => csvOf(rows, DEPENDENCY_CSV_COLUMNS, dependencyCsvRecord);
