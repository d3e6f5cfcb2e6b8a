import { z } from 'zod';
import { projectCreateBody, projectDetailQuery, projectLanguages, projectListQuery, projectSimple, projectSummary, projectUpdateBody } from '../../../shared/src/projects.ts';
import { settingsChanged } from '../services/merging/merge-trains.ts';
import { defineRoute } from '../http/route.ts';
import { pageRequest } from '../db/pagination.ts';
import { groupToCreateIn } from '../services/groups/groups.ts';
import * as projects from '../services/groups/projects.ts';
import { ensureRepository, removeRepository } from '../services/git/repositories.ts';
import { pointHead } from '../services/git/default-branch.ts';
import { resolveCommit } from '../services/git/branches.ts';
import { repositoryLanguages } from '../services/git/languages.ts';
import { withRepository } from './branches.ts';
import { initialBranchOf, initializeWithReadme } from '../services/groups/project-init.ts';
import { presentProject, presentProjectSimple } from '../presenters/projects.ts';

const area = 'projects';

export const projectRoutes = [
  defineRoute({
    method: 'get',
    path: '/projects',
    area,
    summary: 'List projects visible to the caller',
    auth: 'optional',
    query: projectListQuery,
    response: z.array(z.union([projectSummary, projectSimple])),
    handler: async (ctx) => {
      const page = await projects.listProjects(ctx.db, ctx.actor, ctx.query, pageRequest(ctx.query));
      const namespaces = await projects.namespacesOf(ctx.db, page.items);
      return page.map((project) => ({ project, namespace: namespaces.get(project.namespace_id)! }));
    },
    present: ({ project, namespace }, ctx) =>
      (ctx.query.simple ? presentProjectSimple : presentProject)(project, namespace, ctx.baseUrl, ctx.config.repositoriesDir),
  }),
  defineRoute({
    method: 'get',
    path: '/projects/:id',
    area,
    summary: 'Get a project',
    auth: 'optional',
    load: 'project',
    query: projectDetailQuery,
    response: projectSummary,
    handler: async (ctx) => ({ project: ctx.project, group: ctx.group }),
    present: ({ project, group }, ctx) => presentProject(project, group, ctx.baseUrl, ctx.config.repositoriesDir),
  }),
  defineRoute({
    method: 'post',
    path: '/projects',
    area,
    summary: 'Create a project in a group (namespace_id); initialize_with_readme commits a README.md on default_branch',
    body: projectCreateBody,
    response: projectSummary,
    handler: async (ctx) => {
      const namespace = await groupToCreateIn(ctx.db, ctx.actor, ctx.body.namespace_id, 'create_project', 'namespace_id');
      if (!ctx.body.initialize_with_readme) return { project: await projects.createProject(ctx.db, ctx.actor.user!, namespace, ctx.body), namespace };
      const branch = await initialBranchOf(ctx.db, namespace, ctx.body.default_branch);
      let project = await projects.createProject(ctx.db, ctx.actor.user!, namespace, { ...ctx.body, default_branch: branch });
      await initializeWithReadme({ db: ctx.db, repositoriesDir: ctx.config.repositoriesDir, baseUrl: ctx.baseUrl }, project, namespace, ctx.actor.user!, branch);
      project = (await projects.findProject(ctx.db, String(project.id)))!.project;
      return { project, namespace };
    },
    present: ({ project, namespace }, ctx) => presentProject(project, namespace, ctx.baseUrl, ctx.config.repositoriesDir),
  }),
  defineRoute({
    method: 'get',
    path: '/projects/:id/languages',
    area,
    summary: 'The languages of the default branch’s files, each a percentage of their bytes (two decimals), largest first',
    auth: 'optional',
    load: 'project',
    permission: 'read_project',
    ...withRepository,
    response: projectLanguages,
    handler: async (ctx) => {
      const tip = await resolveCommit(ctx.repo.dir, `refs/heads/${ctx.repo.defaultBranch}`);
      return tip ? repositoryLanguages(ctx.repo.dir, tip) : {};
    },
  }),
  defineRoute({
    method: 'put',
    path: '/projects/:id',
    area,
    summary: 'Edit a project’s settings (Maintainer): name, description, visibility, features, default branch (an existing branch, else 400), merge method, merge trains and merge checks (pipelines must succeed, squash option, source branch removal)',
    load: 'project',
    permission: 'admin_project',
    body: projectUpdateBody,
    response: projectSummary,
    handler: async (ctx) => {
      const dir = ctx.body.default_branch !== undefined ? await ensureRepository(ctx.db, ctx.config.repositoriesDir, ctx.project) : undefined;
      if (dir) await projects.requireBranch(dir, ctx.body.default_branch!);
      const project = await projects.updateProject(ctx.db, ctx.project, ctx.group, ctx.body);
      // A clone checks out the default branch, as on the platform (its change_head).
      if (dir) await pointHead(dir, ctx.body.default_branch!);
      await settingsChanged(ctx.db, project);
      return { project, group: ctx.group };
    },
    present: ({ project, group }, ctx) => presentProject(project, group, ctx.baseUrl, ctx.config.repositoriesDir),
  }),
  defineRoute({
    method: 'delete',
    path: '/projects/:id',
    area,
    summary: 'Delete a project',
    load: 'project',
    permission: 'remove_project',
    status: 202,
    response: z.object({ message: z.string() }),
    handler: async (ctx) => {
      await projects.deleteProject(ctx.db, ctx.project, ctx.group);
      removeRepository(ctx.config.repositoriesDir, ctx.project);
      return { message: '202 Accepted' };
    },
  }),
];
