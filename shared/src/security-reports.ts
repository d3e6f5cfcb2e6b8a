import { z } from './errors.ts';

/** The reports a CI job may upload to a pipeline: the platform's security report formats and CycloneDX SBOMs. */
export const SECURITY_REPORT_TYPES = ['sast', 'dependency_scanning', 'container_scanning', 'secret_detection', 'dast', 'cyclonedx'] as const;
export const securityReportType = z.enum(SECURITY_REPORT_TYPES);
export type SecurityReportType = z.infer<typeof securityReportType>;

/** The report types that carry findings (all but the SBOM). */
export type FindingReportType = Exclude<SecurityReportType, 'cyclonedx'>;

/** Form fields of POST /projects/:id/pipelines/:pipeline_id/reports (the file comes as multipart `file`). */
export const securityReportUploadBody = z.object({ report_type: securityReportType });

/** What an upload ingested: counts of findings or components (the same answer for a repeated upload). */
export const securityReportResult = z.object({
  id: z.number().int(),
  pipeline_id: z.number().int(),
  report_type: securityReportType,
  scanner: z.object({ id: z.string(), name: z.string() }).nullable(),
  schema_version: z.string().nullable(),
  findings_count: z.number().int(),
  components_count: z.number().int(),
  /** The pipeline is the project's latest on the default branch, so the report defined its vulnerabilities or dependencies. */
  applied: z.boolean(),
  created_at: z.string(),
});
export type SecurityReportResult = z.infer<typeof securityReportResult>;
