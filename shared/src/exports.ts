import { z } from './errors.ts';
import { boolParam, intParam, paginationQuery } from './params.ts';
import { SEVERITIES, VULNERABILITY_STATES } from './vulnerabilities.ts';

/**
 * The console's view of the caller's own exports (both kinds) on the Exports screen: not part
 * of the platform API, which has no list of exports.
 */
export const consoleExport = z.object({
  id: z.number().int(),
  kind: z.enum(['vulnerability', 'dependency_list']),
  format: z.string(),
  status: z.enum(['created', 'running', 'finished', 'failed']),
  error: z.string().nullable(),
  project_id: z.number().int().nullable(),
  group_id: z.number().int().nullable(),
  pipeline_id: z.number().int().nullable(),
  file_name: z.string(),
  file_size: z.number().int().nullable(),
  send_email: z.boolean(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  expires_at: z.string(),
  download: z.string(),
  /** The report filters a vulnerability export was asked with (none: every finding); null for dependency lists. */
  filters: z
    .object({
      severity: z.array(z.enum(SEVERITIES)).optional(),
      state: z.array(z.enum(VULNERABILITY_STATES)).optional(),
      report_type: z.array(z.string()).optional(),
      scanner: z.array(z.string()).optional(),
    })
    .nullable(),
});
export type ConsoleExport = z.infer<typeof consoleExport>;

/** Whose exports: of a project, of a group, or of the security dashboard (none set). */
export const consoleExportListQuery = paginationQuery.extend({
  project_id: intParam().optional(),
  group_id: intParam().optional(),
  dashboard: boolParam().optional(),
});

/** Whose Exports screen asks: a project's, a group's, or (neither) the security dashboard's. */
export const exportSettingsQuery = z.object({
  project_id: intParam().optional(),
  group_id: intParam().optional(),
});

/** What the Exports screen needs to know of the instance (the PDF flag as it is for the scope asked about). */
export const exportSettings = z.object({
  pdf_export_enabled: z.boolean(),
  email_configured: z.boolean(),
});
