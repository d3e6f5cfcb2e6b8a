import type { ContainerRepository, ContainerRepositoryTag, ContainerRepositoryTagDetails } from '../../../shared/src/container-registry.ts';
import type { ContainerRepositoryRow, ProjectRow } from '../db/schema.ts';
import { repositoryPath, type TagImage } from '../services/registry/repositories.ts';

/** A repository with its project and, where asked, the tags the registry holds. */
export interface RepositoryView {
  row: ContainerRepositoryRow;
  project: Pick<ProjectRow, 'path_with_namespace'>;
  tags?: string[];
  withTags: boolean;
  withCount: boolean;
}

/** Where an image is pulled from: the registry's host and port, then the path (just the path while no registry is connected). */
const locationOf = (registryUrl: string | undefined, path: string) => (registryUrl ? `${new URL(registryUrl).host}/${path}` : path);

export function presentContainerRepositoryTag(path: string, tag: string, registryUrl: string | undefined): ContainerRepositoryTag {
  return { name: tag, path: `${path}:${tag}`, location: `${locationOf(registryUrl, path)}:${tag}` };
}

export function presentContainerRepositoryTagDetails(path: string, tag: string, image: TagImage, registryUrl: string | undefined): ContainerRepositoryTagDetails {
  return { ...presentContainerRepositoryTag(path, tag, registryUrl), ...image, short_revision: image.revision && image.revision.slice(0, 9) };
}

export function presentContainerRepository(v: RepositoryView, registryUrl: string | undefined): ContainerRepository {
  const path = repositoryPath(v.project, v.row.name);
  return {
    id: v.row.id,
    name: v.row.name,
    path,
    project_id: v.row.project_id,
    location: locationOf(registryUrl, path),
    created_at: v.row.created_at,
    cleanup_policy_started_at: null,
    status: null,
    ...(v.withCount ? { tags_count: v.tags?.length ?? 0 } : {}),
    ...(v.withTags ? { tags: (v.tags ?? []).map((t) => presentContainerRepositoryTag(path, t, registryUrl)) } : {}),
  };
}
