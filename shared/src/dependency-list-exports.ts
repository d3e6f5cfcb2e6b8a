import { z } from './errors.ts';
import { boolParam } from './params.ts';

/**
 * Export types and where each is allowed (spec: "Dependency list export"): dependency_list,
 * cyclonedx_1_6_json and csv for projects, json_array and csv for groups, sbom for pipelines.
 */
export const DEPENDENCY_EXPORT_TYPES = ['dependency_list', 'sbom', 'cyclonedx_1_6_json', 'json_array', 'csv'] as const;
export type DependencyExportType = (typeof DEPENDENCY_EXPORT_TYPES)[number];
export type DependencyExportable = 'projects' | 'groups' | 'pipelines';
export const DEPENDENCY_EXPORT_TYPES_BY_EXPORTABLE: Record<DependencyExportable, readonly DependencyExportType[]> = {
  projects: ['dependency_list', 'cyclonedx_1_6_json', 'csv'],
  groups: ['json_array', 'csv'],
  pipelines: ['sbom'],
};

/** A dependency list export (spec: "Dependency list export"). */
export const dependencyListExport = z.object({
  id: z.number().int(),
  status: z.enum(['created', 'running', 'finished', 'failed']),
  has_finished: z.boolean(),
  export_type: z.enum(DEPENDENCY_EXPORT_TYPES),
  send_email: z.boolean(),
  expires_at: z.string(),
  self: z.string(),
  download: z.string(),
});
export type DependencyListExport = z.infer<typeof dependencyListExport>;

export const dependencyListExportCreateBody = z.object({
  export_type: z.enum(DEPENDENCY_EXPORT_TYPES),
  send_email: boolParam().default(false),
});
export type DependencyListExportCreateBody = z.input<typeof dependencyListExportCreateBody>;

/** The CSV download's columns. */
export const DEPENDENCY_CSV_COLUMNS = ['Name', 'Version', 'Packager', 'Location', 'Licenses', 'Project'] as const;
