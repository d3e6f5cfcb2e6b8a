/**
 * What an export reads, whatever tables it comes from (see sources.ts): the writers know these
 * shapes only.
 */
export interface VulnerabilityExportRow {
  id: number;
  group_name: string;
  project_name: string;
  /** The project's full path. */
  full_path: string;
  /** The report type (sast, dependency_scanning…). */
  tool: string;
  scanner_name: string;
  /** detected, confirmed, resolved or dismissed. */
  status: string;
  title: string;
  description: string;
  /** The solution or other text the scanner added. */
  additional_info: string;
  severity: string;
  /** Identifiers as the report gave them: type (cve, cwe, …) and name. */
  identifiers: { type: string; name: string }[];
  detected_at: string;
  /** The location as text: file and lines, image, URL. */
  location: string;
  /** State changes, oldest first, one a line. */
  activity: string;
  /** Comments written with state changes, one a line. */
  comments: string;
  cvss_vectors: string;
  dismissal_reason: string;
}

export interface DependencyExportRow {
  id: number;
  name: string;
  version: string;
  /** npm, maven, pypi… */
  packager: string;
  /** The file that declares it (lock file, manifest, image). */
  location: string;
  purl: string | null;
  /** library, application, container, … (CycloneDX component types). */
  component_type: string;
  licenses: { spdx_identifier: string | null; name: string; url: string | null }[];
  project_full_path: string;
}

/**
 * A tool named in an exported SBOM's metadata: Gatehouse, and the tools of the SBOMs it merges
 * (as security/sbom.ts keeps them with each report: a component or a service).
 */
export interface ExportTool {
  kind: 'component' | 'service';
  type?: string;
  group: string | null;
  name: string;
  version: string | null;
}

export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info', 'unknown'] as const;

/**
 * Rows as the sources read them: one bounded page (one keyset query) at a time. A writer
 * turns a page into one chunk of its file and asks for the next only when the file has taken
 * it, so at most a page or two is in memory whatever the size of the export.
 */
export type Pages<T> = AsyncIterable<readonly T[]>;
