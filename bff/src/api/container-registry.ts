import { z } from 'zod';
import { containerRegistryConnection, containerRepository, containerRepositoryListQuery, containerRepositoryTag, containerRepositoryTagDetails } from '../../../shared/src/container-registry.ts';
import { acceptedMessage } from '../../../shared/src/group-export-import.ts';
import { paginationQuery } from '../../../shared/src/params.ts';
import { defineRoute, type RouteContext } from '../http/route.ts';
import { recordId } from '../http/params.ts';
import { pageOfList, pageRequest } from '../db/pagination.ts';
import type { Config } from '../config.ts';
import * as repositories from '../services/registry/repositories.ts';
import { signingKey } from '../services/registry/signing.ts';
import { isAdmin } from '../auth/actor.ts';
import { presentContainerRepository, presentContainerRepositoryTag, presentContainerRepositoryTagDetails } from '../presenters/container-registry.ts';

const area = 'container-registry';
const base = '/projects/:id/registry/repositories';

/** The connected registry, read with tokens of Gatehouse's own; none while GATEHOUSE_REGISTRY_URL is unset. */
const readerOf = (config: Config): repositories.RegistryReader | undefined =>
  config.registry && { url: config.registry.url, issuer: config.registry.issuer, key: signingKey(config.registry.keyPath) };

const withRepository = {
  params: { repository_id: recordId() },
  with: { repository: (ctx: RouteContext<unknown, unknown, { repository_id: number }, 'project'>) => repositories.getRepository(ctx.db, ctx.project.id, ctx.params.repository_id) },
};

/** Who deletes: an administrator (never stopped by a protection rule) or a member of the project's role. */
const deleterOf = (ctx: { actor: Parameters<typeof isAdmin>[0]; level: number }) => ({ admin: isAdmin(ctx.actor), role: ctx.level });

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
  defineRoute({
    method: 'get',
    path: `${base}/:repository_id/tags/:tag_name`,
    area,
    summary: 'A tag with its image as the registry holds it: digest, revision, creation date and size (Reporter, or anyone who sees a public project); 404 Tag Not Found',
    load: 'project',
    permission: 'read_container_image',
    params: { repository_id: recordId(), tag_name: z.string().min(1).max(255) },
    with: withRepository.with,
    response: containerRepositoryTagDetails,
    handler: async (ctx) => {
      const path = repositories.repositoryPath(ctx.project, ctx.repository.name);
      const image = await repositories.tagImage(readerOf(ctx.config), path, ctx.params.tag_name);
      return { path, tag: ctx.params.tag_name, image };
    },
    present: (t, ctx) => presentContainerRepositoryTagDetails(t.path, t.tag, t.image, ctx.config.registry?.url),
  }),
  defineRoute({
    method: 'delete',
    path: `${base}/:repository_id`,
    area,
    summary: 'Delete a container repository: every tag’s image from the registry, then the repository (202; Maintainer, unless a protection rule keeps deletes at its path for a higher role)',
    load: 'project',
    permission: 'admin_container_image',
    ...withRepository,
    status: 202,
    response: acceptedMessage,
    handler: async (ctx) => {
      await repositories.deleteRepository(ctx.db, readerOf(ctx.config), ctx.project, ctx.repository, deleterOf(ctx));
      return { message: '202 Accepted' };
    },
  }),
  defineRoute({
    method: 'delete',
    path: `${base}/:repository_id/tags/:tag_name`,
    area,
    summary: 'Delete a tag’s image from the registry (every tag naming the same image goes with it); 200 (Maintainer, unless a protection rule keeps deletes at its path for a higher role)',
    load: 'project',
    permission: 'destroy_container_image',
    params: { repository_id: recordId(), tag_name: z.string().min(1).max(255) },
    with: withRepository.with,
    status: 200,
    handler: (ctx) => repositories.deleteTag(ctx.db, readerOf(ctx.config), ctx.project, ctx.repository, ctx.params.tag_name, deleterOf(ctx)),
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
