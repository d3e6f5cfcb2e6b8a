import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ContainerRegistryConnection, ContainerRepository, ContainerRepositoryTagDetails } from '../../../shared/src/container-registry.ts';
import type { RegistryProtectionRule, RegistryProtectionRuleCreateBody, RegistryProtectionRuleUpdateBody } from '../../../shared/src/container-registry-protection.ts';
import { consoleApi, data, page, v4, type MutationOptions, type Page } from './client.ts';

/*
 * A project's container registry: whether one is connected (the console's own endpoint), the
 * repositories pushed to it with their tags, and the Maintainers' protection rules.
 */

export const containerRegistryKeys = {
  all: ['container-registry'] as const,
  project: (projectId: number) => [...containerRegistryKeys.all, projectId] as const,
  connection: (projectId: number) => [...containerRegistryKeys.project(projectId), 'connection'] as const,
  repositories: (projectId: number, query: { page?: number }) => [...containerRegistryKeys.project(projectId), 'repositories', query] as const,
  tag: (projectId: number, repositoryId: number, tag: string) => [...containerRegistryKeys.project(projectId), 'tag', repositoryId, tag] as const,
  rules: (projectId: number) => [...containerRegistryKeys.project(projectId), 'rules'] as const,
};

const path = (projectId: number) => ({ id: String(projectId) });
const rulePath = (projectId: number, ruleId: number) => ({ ...path(projectId), protection_rule_id: String(ruleId) });

/** The registry's host and the project's image prefix, both null while no registry is connected. */
export function useRegistryConnection(projectId: number) {
  return useQuery({
    queryKey: containerRegistryKeys.connection(projectId),
    queryFn: ({ signal }): Promise<ContainerRegistryConnection> => data(consoleApi.GET('/projects/{id}/registry', { params: { path: path(projectId) }, signal })),
    staleTime: 5 * 60_000,
  });
}

/** The project's repositories, each with the tags the registry holds. */
export function useContainerRepositories(projectId: number, query: { page?: number }, enabled = true) {
  return useQuery({
    queryKey: containerRegistryKeys.repositories(projectId, query),
    queryFn: ({ signal }): Promise<Page<ContainerRepository>> =>
      page(v4.GET('/projects/{id}/registry/repositories', { params: { path: path(projectId), query: { tags: true, per_page: 20, ...query } }, signal })),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** One tag with its image (digest, size, build date), read from the registry: every cell of a tag's row reads this one request. */
export function useContainerTag(projectId: number, repositoryId: number, tag: string) {
  return useQuery({
    queryKey: containerRegistryKeys.tag(projectId, repositoryId, tag),
    queryFn: ({ signal }): Promise<ContainerRepositoryTagDetails> =>
      data(
        v4.GET('/projects/{id}/registry/repositories/{repository_id}/tags/{tag_name}', {
          params: { path: { ...path(projectId), repository_id: String(repositoryId), tag_name: tag } },
          signal,
        }),
      ),
    // A tag's image changes only by a push, which the repositories' list is read again for.
    staleTime: 60_000,
  });
}

/**
 * Deletes a tag's image from the registry (every tag naming the same image goes with it); the
 * repositories' tags and the tag's details are read again.
 */
export function useDeleteContainerTag(projectId: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: ({ repositoryId, tag }: { repositoryId: number; tag: string }) =>
      data(v4.DELETE('/projects/{id}/registry/repositories/{repository_id}/tags/{tag_name}', { params: { path: { ...path(projectId), repository_id: String(repositoryId), tag_name: tag } } })),
    onSettled: () => qc.invalidateQueries({ queryKey: containerRegistryKeys.project(projectId) }),
  });
}

export function useProtectionRules(projectId: number, enabled = true) {
  return useQuery({
    queryKey: containerRegistryKeys.rules(projectId),
    queryFn: ({ signal }): Promise<RegistryProtectionRule[]> => data(v4.GET('/projects/{id}/registry/protection/repository/rules', { params: { path: path(projectId) }, signal })),
    enabled,
  });
}

/** Adds a rule (`id` null) or changes one: the PATCH sends every field, an empty string unsetting a level. */
export function useSaveProtectionRule(projectId: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: ({ id, body }: { id: null; body: RegistryProtectionRuleCreateBody } | { id: number; body: RegistryProtectionRuleUpdateBody }) =>
      id === null
        ? data(v4.POST('/projects/{id}/registry/protection/repository/rules', { params: { path: path(projectId) }, body }))
        : data(v4.PATCH('/projects/{id}/registry/protection/repository/rules/{protection_rule_id}', { params: { path: rulePath(projectId, id) }, body })),
    onSettled: () => qc.invalidateQueries({ queryKey: containerRegistryKeys.rules(projectId) }),
  });
}

export function useDeleteProtectionRule(projectId: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: (id: number) => data(v4.DELETE('/projects/{id}/registry/protection/repository/rules/{protection_rule_id}', { params: { path: rulePath(projectId, id) } })),
    onSettled: () => qc.invalidateQueries({ queryKey: containerRegistryKeys.rules(projectId) }),
  });
}
