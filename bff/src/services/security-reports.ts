import type { Db } from '../db/index.ts';
import type { PipelineRow, ProjectRow, SecurityReportRow } from '../db/schema.ts';
import type { SecurityReportType } from '../../../shared/src/security-reports.ts';

export interface ReportUpload {
  project: ProjectRow;
  pipeline: PipelineRow;
  reportType: SecurityReportType;
  /** The uploaded file on disk (streamed there; never held whole in memory). */
  filePath: string;
  uploaderId: number | null;
}

/**
 * Validates a report against its published schema and ingests it in one transaction: the
 * report row, and when its pipeline is the project's latest on the default branch, the
 * project's vulnerabilities (findings) or dependencies (components). A repeated upload of the
 * same file to the same pipeline answers the first upload's row and writes nothing.
 */
export async function ingestReport(db: Db, upload: ReportUpload): Promise<SecurityReportRow> {
  void db;
  void upload;
  throw new Error('not implemented yet');
}
