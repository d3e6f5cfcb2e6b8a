import { z } from './errors.ts';
import { boolParam, paginationQuery } from './params.ts';

/** A tag of a container repository (GET …/registry/repositories/:repository_id/tags). */
export const containerRepositoryTag = z.object({
  name: z.string(),
  path: z.string(),
  location: z.string(),
});
export type ContainerRepositoryTag = z.infer<typeof containerRepositoryTag>;

/**
 * One tag with its image (GET …/tags/:tag_name): the manifest's digest, the config's digest as
 * `revision` (its first 9 characters as `short_revision`), when the image was built and the
 * layers' size; the last four null for an index of images (a multi-platform tag).
 */
export const containerRepositoryTagDetails = containerRepositoryTag.extend({
  revision: z.string().nullable(),
  short_revision: z.string().nullable(),
  digest: z.string(),
  created_at: z.string().nullable(),
  total_size: z.number().int().nullable(),
});
export type ContainerRepositoryTagDetails = z.infer<typeof containerRepositoryTagDetails>;

/** A project's container repository, as the platform's Container registry API shows it. */
export const containerRepository = z.object({
  id: z.number().int(),
  name: z.string(),
  path: z.string(),
  project_id: z.number().int(),
  location: z.string(),
  created_at: z.string(),
  cleanup_policy_started_at: z.string().nullable(),
  status: z.string().nullable(),
  /** With `tags_count=true`. */
  tags_count: z.number().int().optional(),
  /** With `tags=true`. */
  tags: z.array(containerRepositoryTag).optional(),
});
export type ContainerRepository = z.infer<typeof containerRepository>;

export const containerRepositoryListQuery = paginationQuery.extend({
  tags: boolParam().optional(),
  tags_count: boolParam().optional(),
});
export type ContainerRepositoryListQuery = z.infer<typeof containerRepositoryListQuery>;

/**
 * A repository path as the registry names it (Distribution's reference grammar: lower-case
 * components separated by `/`), at most 255 characters: what the token service grants anything on.
 */
const REPOSITORY_PATH = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*$/;
export const isRepositoryPath = (path: string) => path.length <= 255 && REPOSITORY_PATH.test(path);

/**
 * GET /api/console/projects/:id/registry (the console's own): the registry's host, as
 * `docker login` takes it, and the project's image prefix; both null while no registry is
 * connected (GATEHOUSE_REGISTRY_URL unset).
 */
export const containerRegistryConnection = z.object({
  host: z.string().nullable(),
  image_prefix: z.string().nullable(),
});
export type ContainerRegistryConnection = z.infer<typeof containerRegistryConnection>;
