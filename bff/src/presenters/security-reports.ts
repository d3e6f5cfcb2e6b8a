import type { SecurityReportRow } from '../db/schema.ts';
import type { SecurityReportResult, SecurityReportType } from '../../../shared/src/security-reports.ts';

export function presentSecurityReport(r: SecurityReportRow): SecurityReportResult {
  return {
    id: r.id,
    pipeline_id: r.pipeline_id,
    report_type: r.report_type as SecurityReportType,
    scanner: r.scanner_external_id ? { id: r.scanner_external_id, name: r.scanner_name ?? r.scanner_external_id } : null,
    schema_version: r.schema_version,
    findings_count: r.findings_count,
    components_count: r.components_count,
    applied: r.applied === 1,
    created_at: r.created_at,
  };
}
