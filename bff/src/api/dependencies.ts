import { z } from 'zod';
import { dependency, dependencyListQuery } from '../../../shared/src/dependencies.ts';
import { defineRoute } from '../http/route.ts';
import { pageRequest } from '../db/pagination.ts';
import { listDependencies, vulnerabilitiesOfPackages } from '../services/security/dependencies.ts';
import { canProject } from '../policies/index.ts';
import { presentDependency } from '../presenters/dependencies.ts';

export const dependencyRoutes = [
  defineRoute({
    method: 'get',
    path: '/projects/:id/dependencies',
    area: 'dependencies',
    summary: 'List a project’s dependencies: the components of its latest default-branch SBOMs, by name (package_manager: a list); their vulnerabilities shown to Developers (Reporter, or anyone for a public project)',
    auth: 'optional',
    load: 'project',
    permission: 'read_dependency',
    query: dependencyListQuery,
    response: z.array(dependency),
    handler: async (ctx) => {
      const page = await listDependencies(ctx.db, ctx.project.id, ctx.query, pageRequest(ctx.query));
      // As on the platform, only those who may read vulnerabilities see them here.
      const mayRead = canProject(ctx.actor, 'read_vulnerability', { project: ctx.project, group: ctx.group, level: ctx.level });
      const known = mayRead ? await vulnerabilitiesOfPackages(ctx.db, ctx.project.id, page.items.map((d) => d.name)) : new Map();
      return page.map((row) => ({ row, vulnerabilities: known.get(`${row.name}@${row.version ?? ''}`) ?? [] }));
    },
    present: (d, ctx) => presentDependency(d, { baseUrl: ctx.baseUrl, projectPath: ctx.project.path_with_namespace }),
  }),
];
