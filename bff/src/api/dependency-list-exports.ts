import { dependencyListExport, dependencyListExportCreateBody } from '../../../shared/src/dependency-list-exports.ts';
import { defineRoute, allowed } from '../http/route.ts';
import { recordId } from '../http/params.ts';
import { findDependencyListExport, requestDependencyListExport } from '../services/dependency-list-exports.ts';
import { forbidden, notFound } from '../services/errors.ts';
import { findProject } from '../services/projects.ts';
import { projectAccessLevel } from '../services/access.ts';
import { presentDependencyListExport } from '../presenters/dependency-list-exports.ts';
import { sendExport, sendExportFile } from './exports.ts';

const area = 'dependency-list-exports';
const exportId = { params: { id: recordId('Dependency List Export') } };

export const dependencyListExportRoutes = [
  defineRoute({
    method: 'post',
    path: '/projects/:id/dependency_list_exports',
    area,
    summary: "Export the project's dependency list (dependency_list, cyclonedx_1_6_json or csv)",
    load: 'project',
    permission: 'read_dependency',
    body: dependencyListExportCreateBody,
    response: dependencyListExport,
    handler: async ({ db, actor, project, body }) => requestDependencyListExport(db, actor.user!.id, 'projects', { project_id: project.id }, body),
    present: presentDependencyListExport,
  }),
  defineRoute({
    method: 'post',
    path: '/groups/:id/dependency_list_exports',
    area,
    summary: 'Export the dependencies of every project of the group and its subgroups (json_array or csv)',
    load: 'group',
    permission: 'read_dependency',
    body: dependencyListExportCreateBody,
    response: dependencyListExport,
    handler: async ({ db, actor, group, body }) => requestDependencyListExport(db, actor.user!.id, 'groups', { group_id: group.id }, body),
    present: presentDependencyListExport,
  }),
  defineRoute({
    method: 'post',
    path: '/pipelines/:id/dependency_list_exports',
    area,
    summary: "Export a pipeline's bill of materials (sbom: CycloneDX 1.4)",
    params: { id: recordId('Pipeline') },
    body: dependencyListExportCreateBody,
    response: dependencyListExport,
    errors: [403],
    handler: async ({ db, actor, params, body }) => {
      // A pipeline is read through its project: unreadable ones answer 404 like missing ones.
      const pipeline = await db.selectFrom('pipelines').select(['id', 'project_id']).where('id', '=', params.id).executeTakeFirst();
      const found = pipeline && (await findProject(db, String(pipeline.project_id)));
      if (!pipeline || !found) throw notFound('Pipeline');
      const subject = { actor, ...found, level: await projectAccessLevel(db, actor.user?.id, found.project, found.group) };
      if (!allowed('read_pipeline', subject)) throw notFound('Pipeline');
      if (!allowed('read_dependency', subject)) throw forbidden();
      return requestDependencyListExport(db, actor.user!.id, 'pipelines', { pipeline_id: pipeline.id }, body);
    },
    present: presentDependencyListExport,
  }),
  defineRoute({
    method: 'get',
    path: '/dependency_list_exports/:id',
    area,
    summary: 'Get one of your dependency list exports (202 while it is generated, 200 when ready)',
    ...exportId,
    response: dependencyListExport,
    handler: async (ctx) => {
      const row = await findDependencyListExport(ctx.db, ctx.params.id, ctx.actor.user!.id);
      return sendExport(ctx.res, row, presentDependencyListExport(row, ctx));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/dependency_list_exports/:id/download',
    area,
    summary: 'Download one of your finished dependency list exports (404 until it is finished)',
    ...exportId,
    handler: async (ctx) => sendExportFile(ctx.db, ctx.res, await findDependencyListExport(ctx.db, ctx.params.id, ctx.actor.user!.id), 'Dependency List Export'),
  }),
];
