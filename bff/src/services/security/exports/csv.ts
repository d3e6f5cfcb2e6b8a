import { stringify } from 'csv-stringify/sync';
import { VULNERABILITY_CSV_COLUMNS } from '../../../../../shared/src/vulnerability-exports.ts';
import { DEPENDENCY_CSV_COLUMNS } from '../../../../../shared/src/dependency-list-exports.ts';
import { textChunks, type Content } from './files.ts';
import type { DependencyExportRow, Pages, VulnerabilityExportRow } from './rows.ts';

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

/**
 * The first characters that make a spreadsheet read a cell as a formula (`=HYPERLINK(…)`,
 * `+cmd|' /C calc'!A0`): the platform's CSV builder checks `=`, `+`, `-`, `@` and `;`; a tab
 * and a carriage return start one too (OWASP's list).
 */
const FORMULA_START = /^[=+\-@;\t\r]/;

/**
 * A cell as a spreadsheet may open it: one that would start a formula is prefixed with a `'`,
 * as the platform's CSV builder does, so it is shown as the text it is. Everything else is kept.
 */
export const spreadsheetSafe = (cell: string) => (FORMULA_START.test(cell) ? `'${cell}` : cell);

/**
 * A CSV file of pages of rows, and the one way the product writes CSV: the header line, then
 * each page as one chunk of lines (csv-stringify quotes as RFC 4180), every cell made
 * spreadsheet-safe, the next page read only when the file took this one.
 */
export function csvFile<T>(pages: Pages<T>, header: readonly string[], record: (row: T) => string[]): Content {
  return {
    source: textChunks(
      (async function* () {
        yield stringify([header.map(spreadsheetSafe)]);
        for await (const page of pages) if (page.length) yield stringify(page.map((row) => record(row).map(spreadsheetSafe)));
      })(),
    ),
  };
}

export const vulnerabilityCsv = (pages: Pages<VulnerabilityExportRow>) => csvFile(pages, VULNERABILITY_CSV_COLUMNS, vulnerabilityCsvRecord);
export const dependencyCsv = (pages: Pages<DependencyExportRow>) => csvFile(pages, DEPENDENCY_CSV_COLUMNS, dependencyCsvRecord);
