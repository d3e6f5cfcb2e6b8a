import type { RegistryUpstream, VirtualRegistry, VirtualRegistryUpstream, VirtualRegistryUpstreamDetail, VirtualRegistryUpstreamInRegistry } from '../../../shared/src/virtual-registries.ts';
import type { VirtualRegistryRegistryUpstreamRow, VirtualRegistryRow, VirtualRegistryUpstreamRow } from '../db/schema.ts';
import type { UpstreamLink } from '../services/registry/virtual-registries.ts';

export function presentVirtualRegistry(row: VirtualRegistryRow): VirtualRegistry {
  return {
    id: row.id,
    group_id: row.group_id,
    name: row.name,
    description: row.description,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** An upstream without its password, which is never shown (not even sealed). */
export function presentUpstream(row: VirtualRegistryUpstreamRow): VirtualRegistryUpstream {
  return {
    id: row.id,
    group_id: row.group_id,
    url: row.url,
    name: row.name,
    description: row.description,
    username: row.username,
    cache_validity_hours: row.cache_validity_hours,
    metadata_cache_validity_hours: row.metadata_cache_validity_hours,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

const presentLink = (link: UpstreamLink) => ({ id: link.id, registry_id: link.registry_id, position: link.position });

export const presentUpstreamInRegistry = ({ upstream, link }: { upstream: VirtualRegistryUpstreamRow; link: UpstreamLink }): VirtualRegistryUpstreamInRegistry => ({
  ...presentUpstream(upstream),
  registry_upstream: presentLink(link),
});

export const presentUpstreamDetail = ({ upstream, links }: { upstream: VirtualRegistryUpstreamRow; links: UpstreamLink[] }): VirtualRegistryUpstreamDetail => ({
  ...presentUpstream(upstream),
  registry_upstreams: links.map(presentLink),
});

/** An upstream's place in a registry, as the platform's registry_upstreams endpoints show it. */
export const presentRegistryUpstream = (row: VirtualRegistryRegistryUpstreamRow): RegistryUpstream => ({
  id: row.id,
  registry_id: row.registry_id,
  upstream_id: row.upstream_id,
  position: row.position,
});
