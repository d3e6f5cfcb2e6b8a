import { z } from 'zod';
import { containerRegistryConnection, containerRepository, containerRepositoryListQuery, containerRepositoryTag } from '../../../shared/src/container-registry.ts';
import { paginationQuery } from '../../../shared/src/params.ts';
import { defineRoute, type RouteContext } from '../http/route.ts';
import { recordId } from '../http/params.ts';
import { pageOfList, pageRequest } from '../db/pagination.ts';
import type { Config } from '../config.ts';
import * as repositories from '../services/registry/repositories.ts';
import { signingKey } from '../services/registry/signing.ts';
import { presentContainerRepository, presentContainerRepositoryTag } from '../presenters/container-registry.ts';

const area = 'container-registry';
const base = '/projects/:id/registry/repositories';

/** The connected registry, read with tokens of Gatehouse's own; none while GATEHOUSE_REGISTRY_URL is unset. */
const readerOf = (config: Config): repositories.RegistryReader | undefined =>
  config.registry && { url: config.registry.url, issuer: config.registry.issuer, key: signingKey(config.registry.keyPath) };

const withRepository = {
  params: { repository_id: recordId() },
  with: { repository: (ctx: RouteContext<unknown, unknown, { repository_id: number }, 'project'>) => repositories.getRepository(ctx.db, ctx.project.id, ctx.params.repository_id) },
};

export const containerRegistryRoutes = [
  defineRoute({
    method: 'get',
    path: base,
    area,
    summary: 'List the project’s container repositories (those a push was granted to), with their tags from the registry when `tags` or `tags_count` (Reporter, or anyone who sees a public project)',
    load: 'project',
    permission: 'read_container_image',
    query: containerRepositoryListQuery,
    response: z.array(containerRepository),
    handler: async (ctx) => {
      const reader = readerOf(ctx.config);
      const withTags = ctx.query.tags === true;
      const withCount = ctx.query.tags_count === true;
      const page = await repositories.listRepositories(ctx.db, ctx.project.id, pageRequest(ctx.query));
      return page.mapAsync((rows) =>
        Promise.all(
          rows.map(async (row) => ({
            row,
            project: ctx.project,
            withTags,
            withCount,
            tags: withTags || withCount ? await repositories.registryTags(reader, repositories.repositoryPath(ctx.project, row.name)) : undefined,
          })),
        ),
      );
    },
    present: (v, ctx) => presentContainerRepository(v, ctx.config.registry?.url),
  }),
  defineRoute({
    method: 'get',
    path: `${base}/:repository_id/tags`,
    area,
    summary: 'List a container repository’s tags, as the registry holds them, by name (Reporter, or anyone who sees a public project)',
    load: 'project',
    permission: 'read_container_image',
    ...withRepository,
    query: paginationQuery,
    response: z.array(containerRepositoryTag),
    handler: async (ctx) => {
      const path = repositories.repositoryPath(ctx.project, ctx.repository.name);
      const tags = await repositories.registryTags(readerOf(ctx.config), path);
      return pageOfList(
        tags.map((tag) => ({ path, tag })),
        pageRequest(ctx.query),
      );
    },
    present: (t, ctx) => presentContainerRepositoryTag(t.path, t.tag, ctx.config.registry?.url),
  }),
];

/** The console's Container registry screen: whether a registry is connected, and where its images go. */
export const containerRegistryConsoleRoutes = [
  defineRoute({
    mount: 'console',
    method: 'get',
    path: '/projects/:id/registry',
    area: 'console',
    summary: 'Whether a container registry is connected: its host, as `docker login` takes it, and the project’s image prefix; both null while none is (Reporter, or anyone who sees a public project)',
    load: 'project',
    permission: 'read_container_image',
    response: containerRegistryConnection,
    handler: async ({ config, project }) => {
      const host = config.registry ? new URL(config.registry.url).host : null;
      return { host, image_prefix: host && `${host}/${repositories.repositoryPath(project, '')}` };
    },
  }),
];
