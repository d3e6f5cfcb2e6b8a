import type { DependencyRow } from '../db/schema.ts';
import type { Dependency } from '../../../shared/src/dependencies.ts';
import type { Severity } from '../../../shared/src/vulnerabilities.ts';
import { httpUrl } from '../../../shared/src/links.ts';

export interface DependencyView {
  row: DependencyRow;
  vulnerabilities: { id: number; title: string; severity: string }[];
}

/** The platform's dependency: name, version, package manager, file, licenses, known vulnerabilities. */
export function presentDependency(d: DependencyView, s: { baseUrl: string; projectPath: string }): Dependency {
  return {
    name: d.row.name,
    version: d.row.version,
    package_manager: d.row.package_manager,
    dependency_file_path: d.row.input_file_path,
    vulnerabilities: d.vulnerabilities.map((v) => ({ name: v.title, severity: v.severity as Severity, id: v.id, url: `${s.baseUrl}/${s.projectPath}/-/security/vulnerabilities/${v.id}` })),
    // Rows stored before only http(s) links were kept answer any other as null.
    licenses: (JSON.parse(d.row.licenses) as Dependency['licenses']).map((l) => ({ ...l, url: httpUrl(l.url) })),
    purl: d.row.purl,
    component_type: d.row.component_type,
  };
}
