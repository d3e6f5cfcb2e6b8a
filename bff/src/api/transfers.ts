import { groupTransferBody, projectTransferBody } from '../../../shared/src/transfers.ts';
import { groupDetail } from '../../../shared/src/groups.ts';
import { projectSummary } from '../../../shared/src/projects.ts';
import { defineRoute } from '../http/route.ts';
import { findGroupWithLevel } from '../services/groups/groups.ts';
import { canGroup } from '../policies/index.ts';
import { notFound } from '../util/errors.ts';
import { namespaceForTransfer, transferGroup, transferProject } from '../services/groups/transfer.ts';
import { presentProject } from '../presenters/projects.ts';
import { presentGroupDetail } from '../presenters/groups.ts';

/** Moving a project to another group, and a group under another parent (or to the top level), as the platform's API. */
export const transferRoutes = [
  defineRoute({
    method: 'put',
    path: '/projects/:id/transfer',
    area: 'projects',
    summary:
      'Transfer a project to another namespace (id or full path) the caller may create projects in (Owner of the project). 400 with the platform’s reason: already there, a project with the same name or path there, no permission there, images in its container registry',
    load: 'project',
    permission: 'change_namespace',
    body: projectTransferBody,
    response: projectSummary,
    errors: [400, 404],
    handler: async (ctx) => {
      const target = await namespaceForTransfer(ctx.db, ctx.actor, ctx.body.namespace);
      return transferProject(ctx.db, ctx.actor, { project: ctx.project, group: ctx.group, level: ctx.level }, target);
    },
    present: ({ project, group }, ctx) => presentProject(project, group, ctx.baseUrl, ctx.config.repositoriesDir),
  }),
  defineRoute({
    method: 'post',
    path: '/groups/:id/transfer',
    area: 'groups',
    summary:
      'Transfer a group under a new parent group (group_id), or make a subgroup top-level (no group_id); Owner of the group, and allowed to create subgroups in the parent (or top-level groups). Subgroups’ and projects’ paths follow. 400 “Transfer failed: …” with the platform’s reason',
    load: 'group',
    permission: 'admin_group',
    body: groupTransferBody,
    response: groupDetail,
    errors: [400, 404],
    handler: async (ctx) => {
      let target = null;
      if (ctx.body.group_id != null) {
        target = (await findGroupWithLevel(ctx.db, String(ctx.body.group_id), ctx.actor.user?.id)) ?? null;
        if (!target || !canGroup(ctx.actor, 'read_group', target)) throw notFound('Group');
      }
      return transferGroup(ctx.db, ctx.actor, ctx.group, target);
    },
    present: (group, ctx) => presentGroupDetail(group, ctx.baseUrl, { showSettings: true, projects: [], sharedProjects: [] }),
  }),
];
