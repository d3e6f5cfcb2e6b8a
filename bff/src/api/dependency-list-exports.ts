import { dependencyListExport, dependencyListExportCreateBody } from '../../../shared/src/dependency-list-exports.ts';
import { allowed } from '../http/route.ts';
import { recordId } from '../http/params.ts';
import { findDependencyListExport, requestDependencyListExport } from '../services/security/dependency-list-exports.ts';
import { forbidden, notFound } from '../util/errors.ts';
import { findProject } from '../services/groups/projects.ts';
import { projectAccessLevel } from '../policies/access.ts';
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
    params: { id: recordId('Pipeline') },
    errors: [403],
    request: async ({ db, actor, params, body }) => {
      // A pipeline is read through its project: unreadable ones answer 404 like missing ones.
      const pipeline = await db.selectFrom('pipelines').select(['id', 'project_id']).where('id', '=', params.id).executeTakeFirst();
      const found = pipeline && (await findProject(db, String(pipeline.project_id)));
      if (!pipeline || !found) throw notFound('Pipeline');
      const subject = { actor, ...found, level: await projectAccessLevel(db, actor.user?.id, found.project, found.group) };
      if (!allowed('read_pipeline', subject)) throw notFound('Pipeline');
      if (!allowed('read_dependency', subject)) throw forbidden();
      return requestDependencyListExport(db, actor.user!.id, 'pipelines', { pipeline_id: pipeline.id }, body);
    },
  }),
  ...routes.own,
];
