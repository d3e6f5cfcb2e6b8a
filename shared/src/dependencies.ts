import { z } from './errors.ts';
import { paginationQuery, stringListParam } from './params.ts';
import { SEVERITIES } from './vulnerabilities.ts';

/** GET /projects/:id/dependencies: `package_manager` as a list (repeated or comma-separated). */
export const dependencyListQuery = paginationQuery.extend({
  package_manager: stringListParam().pipe(z.array(z.string().min(1).max(64)).max(30)).optional(),
});
export type DependencyListQuery = z.infer<typeof dependencyListQuery>;

export const dependencyLicense = z.object({ spdx_identifier: z.string().nullable(), name: z.string(), url: z.string().nullable() });

/** The platform's dependency shape, with the component's purl and type (ours, for the console and exports). */
export const dependency = z.object({
  name: z.string(),
  version: z.string().nullable(),
  package_manager: z.string().nullable(),
  dependency_file_path: z.string().nullable(),
  vulnerabilities: z.array(z.object({ name: z.string(), severity: z.enum(SEVERITIES), id: z.number().int(), url: z.string() })),
  licenses: z.array(dependencyLicense),
  purl: z.string().nullable(),
  component_type: z.string(),
});
export type Dependency = z.infer<typeof dependency>;
