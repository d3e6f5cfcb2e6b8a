import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  RegistryCacheSummary,
  UpstreamCreateBody,
  UpstreamTestBody,
  UpstreamTestResult,
  UpstreamUpdateBody,
  VirtualRegistry,
  VirtualRegistryCreateBody,
  VirtualRegistryUpstreamInRegistry,
} from '../../../shared/src/virtual-registries.ts';
import { MAX_REGISTRIES_PER_GROUP, MAX_UPSTREAMS_PER_REGISTRY } from '../../../shared/src/virtual-registries.ts';
import { consoleApi, data, v4, type MutationOptions } from './client.ts';

/*
 * A top-level group's Maven virtual registries: the registries, each one's upstreams in the
 * order the pull-through asks them, their cache (the console's own count), and the writes.
 * A group holds at most 20 registries and a registry 20 upstreams: one page of 20 holds them all.
 */

export const virtualRegistryKeys = {
  all: ['virtual-registries'] as const,
  group: (groupId: number) => [...virtualRegistryKeys.all, 'group', groupId] as const,
  registry: (registryId: number) => [...virtualRegistryKeys.all, 'registry', registryId] as const,
  upstreams: (registryId: number) => [...virtualRegistryKeys.registry(registryId), 'upstreams'] as const,
  cache: (registryId: number) => [...virtualRegistryKeys.registry(registryId), 'cache'] as const,
};

const id = (n: number) => ({ id: String(n) });

export function useVirtualRegistries(groupId: number, enabled = true) {
  return useQuery({
    queryKey: virtualRegistryKeys.group(groupId),
    queryFn: ({ signal }): Promise<VirtualRegistry[]> =>
      data(v4.GET('/groups/{id}/-/virtual_registries/packages/maven/registries', { params: { path: id(groupId), query: { per_page: MAX_REGISTRIES_PER_GROUP } }, signal })),
    enabled,
  });
}

export function useVirtualRegistry(registryId: number) {
  return useQuery({
    queryKey: virtualRegistryKeys.registry(registryId),
    queryFn: ({ signal }): Promise<VirtualRegistry> => data(v4.GET('/virtual_registries/packages/maven/registries/{id}', { params: { path: id(registryId) }, signal })),
  });
}

/** The registry's upstreams in the order the pull-through asks them. */
export function useRegistryUpstreams(registryId: number) {
  return useQuery({
    queryKey: virtualRegistryKeys.upstreams(registryId),
    queryFn: ({ signal }): Promise<VirtualRegistryUpstreamInRegistry[]> =>
      data(v4.GET('/virtual_registries/packages/maven/registries/{id}/upstreams', { params: { path: id(registryId), query: { per_page: MAX_UPSTREAMS_PER_REGISTRY } }, signal })),
  });
}

/** How many files each upstream's cache holds, and their bytes. */
export function useRegistryCache(registryId: number) {
  return useQuery({
    queryKey: virtualRegistryKeys.cache(registryId),
    queryFn: ({ signal }): Promise<RegistryCacheSummary> => data(consoleApi.GET('/virtual_registries/packages/maven/registries/{id}/cache', { params: { path: id(registryId) }, signal })),
  });
}

/** Creates a registry in the group (`id` null) or renames one. */
export function useSaveRegistry(groupId: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: ({ registryId, body }: { registryId: number | null; body: VirtualRegistryCreateBody }) =>
      registryId === null
        ? data(v4.POST('/groups/{id}/-/virtual_registries/packages/maven/registries', { params: { path: id(groupId) }, body }))
        : data(v4.PATCH('/virtual_registries/packages/maven/registries/{id}', { params: { path: id(registryId) }, body })),
    onSuccess: (saved: VirtualRegistry) => qc.setQueryData(virtualRegistryKeys.registry(saved.id), saved),
    onSettled: () => qc.invalidateQueries({ queryKey: virtualRegistryKeys.group(groupId) }),
  });
}

export function useDeleteRegistry(groupId: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: (registryId: number) => data(v4.DELETE('/virtual_registries/packages/maven/registries/{id}', { params: { path: id(registryId) } })),
    onSuccess: (_done, registryId) => qc.removeQueries({ queryKey: virtualRegistryKeys.registry(registryId) }),
    onSettled: () => qc.invalidateQueries({ queryKey: virtualRegistryKeys.group(groupId) }),
  });
}

export function usePurgeRegistryCache(registryId: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: () => data(v4.DELETE('/virtual_registries/packages/maven/registries/{id}/cache', { params: { path: id(registryId) } })),
    onSettled: () => qc.invalidateQueries({ queryKey: virtualRegistryKeys.cache(registryId) }),
  });
}

/** Adds an upstream to the registry, last in its order (`upstreamId` null), or changes one. */
export function useSaveUpstream(registryId: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: (change: { upstreamId: null; body: UpstreamCreateBody } | { upstreamId: number; body: UpstreamUpdateBody }) =>
      change.upstreamId === null
        ? data(v4.POST('/virtual_registries/packages/maven/registries/{id}/upstreams', { params: { path: id(registryId) }, body: change.body }))
        : data(v4.PATCH('/virtual_registries/packages/maven/upstreams/{id}', { params: { path: id(change.upstreamId) }, body: change.body })),
    onSettled: () => Promise.all([qc.invalidateQueries({ queryKey: virtualRegistryKeys.upstreams(registryId) }), qc.invalidateQueries({ queryKey: virtualRegistryKeys.cache(registryId) })]),
  });
}

export function useDeleteUpstream(registryId: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: (upstreamId: number) => data(v4.DELETE('/virtual_registries/packages/maven/upstreams/{id}', { params: { path: id(upstreamId) } })),
    onSettled: () => Promise.all([qc.invalidateQueries({ queryKey: virtualRegistryKeys.upstreams(registryId) }), qc.invalidateQueries({ queryKey: virtualRegistryKeys.cache(registryId) })]),
  });
}

/** Moves an upstream to a place in the registry's order (`linkId`: its registry_upstream's id). */
export function useMoveUpstream(registryId: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: ({ linkId, position }: { linkId: number; position: number }) =>
      data(v4.PATCH('/virtual_registries/packages/maven/registry_upstreams/{id}', { params: { path: id(linkId) }, body: { position } })),
    onSettled: () => Promise.all([qc.invalidateQueries({ queryKey: virtualRegistryKeys.upstreams(registryId) }), qc.invalidateQueries({ queryKey: virtualRegistryKeys.cache(registryId) })]),
  });
}

/** Tests a URL with the credentials typed in a form (before saving them): the group's test endpoint. */
export function useTestConnection(groupId: number, options: MutationOptions = {}) {
  return useMutation({
    ...options,
    mutationFn: (body: UpstreamTestBody): Promise<UpstreamTestResult> =>
      data(v4.POST('/groups/{id}/-/virtual_registries/packages/maven/upstreams/test', { params: { path: id(groupId) }, body })),
  });
}

/** Tests a saved upstream with the credentials Gatehouse keeps. */
export function useTestUpstream(options: MutationOptions = {}) {
  return useMutation({
    ...options,
    mutationFn: (upstreamId: number): Promise<UpstreamTestResult> => data(v4.GET('/virtual_registries/packages/maven/upstreams/{id}/test', { params: { path: id(upstreamId) } })),
  });
}
