import type { ConsoleExport } from '../../../shared/src/exports.ts';
import type { ExportRow } from '../db/schema.ts';
import { exportFileName } from '../services/security/exports/names.ts';
import { vulnerabilityExportUrl } from './vulnerability-exports.ts';
import { dependencyListExportUrl } from './dependency-list-exports.ts';
import { exportFilters } from '../services/security/exports/sources.ts';

export function presentConsoleExport(row: ExportRow, ctx: { baseUrl: string }): ConsoleExport {
  const self = row.kind === 'vulnerability' ? vulnerabilityExportUrl(ctx.baseUrl, row.id) : dependencyListExportUrl(ctx.baseUrl, row.id);
  return {
    id: row.id,
    kind: row.kind,
    format: row.format,
    status: row.status,
    error: row.error,
    project_id: row.project_id,
    group_id: row.group_id,
    pipeline_id: row.pipeline_id,
    file_name: exportFileName(row, ''),
    file_size: row.file_size,
    send_email: row.send_email === 1,
    created_at: row.created_at,
    started_at: row.started_at,
    finished_at: row.finished_at,
    expires_at: row.expires_at,
    download: `${self}/download`,
    filters: row.kind === 'vulnerability' ? exportFilters(row) : null,
  };
}
