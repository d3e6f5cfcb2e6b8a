import type { z } from 'zod';
import type { dependencyListExport, DependencyExportType } from '../../../shared/src/dependency-list-exports.ts';
import type { ExportRow } from '../db/schema.ts';

export const dependencyListExportUrl = (baseUrl: string, id: number) => `${baseUrl}/api/v4/dependency_list_exports/${id}`;

export function presentDependencyListExport(row: ExportRow, ctx: { baseUrl: string }): z.output<typeof dependencyListExport> {
  const self = dependencyListExportUrl(ctx.baseUrl, row.id);
  return {
    id: row.id,
    status: row.status,
    has_finished: row.status === 'finished',
    export_type: row.format as DependencyExportType,
    send_email: row.send_email === 1,
    expires_at: row.expires_at,
    self,
    download: `${self}/download`,
  };
}
