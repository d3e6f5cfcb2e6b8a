import { dependencyListExport, dependencyListExportCreateBody } from '../../../shared/src/dependency-list-exports.ts';
import { recordId } from '../http/params.ts';
import { findDependencyListExport, requestDependencyListExport } from '../services/security/dependency-list-exports.ts';
import { presentDependencyListExport } from '../presenters/dependency-list-exports.ts';
import { makeExportRoutes } from './exports.ts';

const routes = makeExportRoutes({
  area: 'dependency-list-exports',
  record: 'Dependency List Export',
  path: '/dependency_list_exports',
  body: dependencyListExportCreateBody,
  response: dependencyListExport,
  find: findDependencyListExport,
  present: presentDependencyListExport,
  summaries: {
    get: 'Get one of your dependency list exports (202 while it is generated, 200 when ready)',
    download: 'Download one of your finished dependency list exports (404 until it is finished)',
  },
});

export const dependencyListExportRoutes = [
  routes.create({
    path: '/projects/:id/dependency_list_exports',
    summary: "Export the project's dependency list (dependency_list, cyclonedx_1_6_json or csv)",
    load: 'project',
    permission: 'read_dependency',
    request: async ({ db, actor, project, body }) => requestDependencyListExport(db, actor.user!.id, 'projects', { project_id: project.id }, body),
  }),
  routes.create({
    path: '/groups/:id/dependency_list_exports',
    summary: 'Export the dependencies of every project of the group and its subgroups (json_array or csv)',
    load: 'group',
    permission: 'read_dependency',
    request: async ({ db, actor, group, body }) => requestDependencyListExport(db, actor.user!.id, 'groups', { group_id: group.id }, body),
  }),
  routes.create({
    path: '/pipelines/:id/dependency_list_exports',
    summary: "Export a pipeline's bill of materials (sbom: CycloneDX 1.4)",
    load: 'pipeline',
    permission: 'read_dependency',
    params: { id: recordId('Pipeline') },
    errors: [403],
    request: async ({ db, actor, pipeline, body }) => requestDependencyListExport(db, actor.user!.id, 'pipelines', { pipeline_id: pipeline.id }, body),
  }),
  ...routes.own,
];
