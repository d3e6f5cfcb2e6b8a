import { z } from 'zod';
import {
  registryCacheSummary,
  registryUpstream,
  registryUpstreamPositionBody,
  upstreamCreateBody,
  upstreamListQuery,
  upstreamTestBody,
  upstreamTestResult,
  upstreamUpdateBody,
  virtualRegistry,
  virtualRegistryCreateBody,
  virtualRegistryUpdateBody,
  virtualRegistryUpstream,
  virtualRegistryUpstreamDetail,
  virtualRegistryUpstreamInRegistry,
} from '../../../shared/src/virtual-registries.ts';
import { defineRoute, type RouteContext } from '../http/route.ts';
import { recordId } from '../http/params.ts';
import { pageOfList, pageRequest } from '../db/pagination.ts';
import { paginationQuery } from '../../../shared/src/params.ts';
import type { GroupRow } from '../db/schema.ts';
import { canGroup } from '../policies/index.ts';
import { findGroupWithLevel } from '../services/groups/groups.ts';
import * as registries from '../services/registry/virtual-registries.ts';
import { badRequest, forbidden, notFound } from '../util/errors.ts';
import { presentRegistryUpstream, presentUpstream, presentUpstreamDetail, presentUpstreamInRegistry, presentVirtualRegistry } from '../presenters/virtual-registries.ts';

/** The spec's slug for the area (endpoints.tsv), as the files are named. */
const area = 'virtual-registries';
const groupBase = '/groups/:id/-/virtual_registries/packages/maven';
const base = '/virtual_registries/packages/maven';

type Action = 'read_virtual_registry' | 'admin_virtual_registry';
type ById = RouteContext<unknown, unknown, { id: number }>;

/**
 * A registry or an upstream is named by its own id, not its group's: the route loads it, then
 * its group and the caller's role there. A group the caller may not see answers 404 as a
 * missing record does; one they see without the role answers 403.
 */
async function inGroup(ctx: ById, groupId: number, action: Action, what: string): Promise<{ group: GroupRow; level: number }> {
  const found = await findGroupWithLevel(ctx.db, String(groupId), ctx.actor.user?.id);
  if (!found || !canGroup(ctx.actor, 'read_group', found)) throw notFound(what);
  if (!canGroup(ctx.actor, action, found)) throw forbidden();
  return found;
}

const registryById = (action: Action) => ({
  params: { id: recordId('Registry') },
  with: {
    found: async (ctx: ById) => {
      const registry = await registries.findRegistry(ctx.db, ctx.params.id);
      return { registry, ...(await inGroup(ctx, registry.group_id, action, 'Registry')) };
    },
  },
});

const upstreamById = (action: Action) => ({
  params: { id: recordId('Upstream') },
  with: {
    found: async (ctx: ById) => {
      const upstream = await registries.findUpstream(ctx.db, ctx.params.id);
      return { upstream, ...(await inGroup(ctx, upstream.group_id, action, 'Upstream')) };
    },
  },
});

/** A registry's place for an upstream: the upstream's group decides, as on the platform. */
const registryUpstreamById = (action: Action) => ({
  params: { id: recordId('Registry upstream') },
  with: {
    found: async (ctx: ById) => {
      const link = await registries.findRegistryUpstream(ctx.db, ctx.params.id);
      const upstream = await registries.findUpstream(ctx.db, link.upstream_id);
      return { link, ...(await inGroup(ctx, upstream.group_id, action, 'Registry upstream')) };
    },
  },
});

export const virtualRegistryRoutes = [
  defineRoute({
    method: 'get',
    path: `${groupBase}/registries`,
    area,
    summary: 'List a top-level group’s Maven virtual registries (at most 20, paged by 20); 400 for a subgroup (Guest)',
    load: 'group',
    permission: 'read_virtual_registry',
    query: paginationQuery,
    response: z.array(virtualRegistry),
    handler: async (ctx) => pageOfList(await registries.listRegistries(ctx.db, ctx.group), pageRequest(ctx.query)),
    present: presentVirtualRegistry,
  }),
  defineRoute({
    method: 'post',
    path: `${groupBase}/registries`,
    area,
    summary: 'Create a Maven virtual registry in a top-level group (name, description; at most 20 a group); 400 for a subgroup (Maintainer)',
    load: 'group',
    permission: 'admin_virtual_registry',
    body: virtualRegistryCreateBody,
    response: virtualRegistry,
    handler: async (ctx) => registries.createRegistry(ctx.db, ctx.group, ctx.body),
    present: presentVirtualRegistry,
  }),
  defineRoute({
    method: 'get',
    path: `${base}/registries/:id`,
    area,
    summary: 'Get a Maven virtual registry (Guest of its group)',
    ...registryById('read_virtual_registry'),
    response: virtualRegistry,
    handler: async (ctx) => ctx.found.registry,
    present: presentVirtualRegistry,
  }),
  defineRoute({
    method: 'patch',
    path: `${base}/registries/:id`,
    area,
    summary: 'Change a Maven virtual registry’s name (required) and description (Maintainer of its group)',
    ...registryById('admin_virtual_registry'),
    body: virtualRegistryUpdateBody,
    response: virtualRegistry,
    handler: async (ctx) => registries.updateRegistry(ctx.db, ctx.found.registry, ctx.body),
    present: presentVirtualRegistry,
  }),
  defineRoute({
    method: 'delete',
    path: `${base}/registries/:id`,
    area,
    summary: 'Delete a Maven virtual registry, the upstreams no other registry uses and their cache (Maintainer of its group)',
    ...registryById('admin_virtual_registry'),
    handler: async (ctx) => registries.deleteRegistry(ctx.db, ctx.files, ctx.found.registry),
  }),
  defineRoute({
    method: 'delete',
    path: `${base}/registries/:id/cache`,
    area,
    summary: 'Empty the cache of the registry’s exclusive upstreams (Maintainer of its group)',
    ...registryById('admin_virtual_registry'),
    handler: async (ctx) => registries.purgeRegistryCache(ctx.db, ctx.files, ctx.found.registry),
  }),
  defineRoute({
    method: 'get',
    path: `${groupBase}/upstreams`,
    area,
    summary: 'List a top-level group’s upstream registries (upstream_name: a part of the name, any case); 400 for a subgroup (Guest)',
    load: 'group',
    permission: 'read_virtual_registry',
    query: upstreamListQuery,
    response: z.array(virtualRegistryUpstream),
    handler: async (ctx) => registries.listGroupUpstreams(ctx.db, ctx.group, ctx.query, pageRequest(ctx.query)),
    present: presentUpstream,
  }),
  defineRoute({
    method: 'post',
    path: `${groupBase}/upstreams/test`,
    area,
    summary: 'Test the connection to an upstream: a HEAD request of a test path with the credentials given, through the outbound guard; success, or the reason (401, 403, 5XX, a network failure) (Maintainer)',
    load: 'group',
    permission: 'admin_virtual_registry',
    body: upstreamTestBody,
    status: 200,
    response: upstreamTestResult,
    handler: async (ctx) => {
      registries.assertTopLevel(ctx.group);
      return registries.testConnection(await registries.reachSettings(ctx.db, ctx.config.virtualRegistry.timeoutMs), ctx.body);
    },
  }),
  defineRoute({
    method: 'get',
    path: `${base}/registries/:id/upstreams`,
    area,
    summary: 'List a registry’s upstreams in the order it asks them, each with its place (registry_upstream) (Guest of its group)',
    ...registryById('read_virtual_registry'),
    query: paginationQuery,
    response: z.array(virtualRegistryUpstreamInRegistry),
    handler: async (ctx) => pageOfList(await registries.listRegistryUpstreams(ctx.db, ctx.found.registry), pageRequest(ctx.query)),
    present: presentUpstreamInRegistry,
  }),
  defineRoute({
    method: 'post',
    path: `${base}/registries/:id/upstreams`,
    area,
    summary: 'Add an upstream to a registry, last in its order: url, username and password (both or neither), name, description, cache validity hours (24) (Maintainer of its group)',
    ...registryById('admin_virtual_registry'),
    body: upstreamCreateBody,
    response: virtualRegistryUpstreamInRegistry,
    handler: async (ctx) => registries.createUpstream(ctx.db, ctx.vault, ctx.found.registry, ctx.body),
    present: presentUpstreamInRegistry,
  }),
  defineRoute({
    method: 'get',
    path: `${base}/upstreams/:id`,
    area,
    summary: 'Get an upstream, with its place in each registry that uses it (Guest of its group)',
    ...upstreamById('read_virtual_registry'),
    response: virtualRegistryUpstreamDetail,
    handler: async (ctx) => ({ upstream: ctx.found.upstream, links: await registries.upstreamLinks(ctx.db, ctx.found.upstream.id) }),
    present: presentUpstreamDetail,
  }),
  defineRoute({
    method: 'patch',
    path: `${base}/upstreams/:id`,
    area,
    summary: 'Change an upstream: url, name, description, username, password, cache validity hours (at least one) (Maintainer of its group)',
    ...upstreamById('admin_virtual_registry'),
    body: upstreamUpdateBody,
    response: virtualRegistryUpstream,
    handler: async (ctx) => registries.updateUpstream(ctx.db, ctx.vault, ctx.found.upstream, ctx.body),
    present: presentUpstream,
  }),
  defineRoute({
    method: 'delete',
    path: `${base}/upstreams/:id`,
    area,
    summary: 'Delete an upstream and its cache; in each registry that used it, the upstreams after it move up one place (Maintainer of its group)',
    ...upstreamById('admin_virtual_registry'),
    handler: async (ctx) => registries.deleteUpstream(ctx.db, ctx.files, ctx.found.upstream),
  }),
  defineRoute({
    method: 'get',
    path: `${base}/upstreams/:id/test`,
    area,
    summary: 'Test the connection to a saved upstream with the credentials it keeps: a HEAD request of a file its cache holds (else a test path); success, or the reason (Guest of its group)',
    ...upstreamById('read_virtual_registry'),
    response: upstreamTestResult,
    handler: async (ctx) => registries.testUpstream(ctx.db, ctx.vault, await registries.reachSettings(ctx.db, ctx.config.virtualRegistry.timeoutMs), ctx.found.upstream),
  }),
  defineRoute({
    method: 'patch',
    path: `${base}/registry_upstreams/:id`,
    area,
    summary: 'Move an upstream to a place (1 to 20) in its registry’s order; past the last is the last, the upstreams between move by one (Maintainer of its group)',
    ...registryUpstreamById('admin_virtual_registry'),
    body: registryUpstreamPositionBody,
    status: 200,
    response: registryUpstream,
    handler: async (ctx) => {
      if (ctx.body.position === undefined) throw badRequest('position is missing');
      return registries.moveUpstream(ctx.db, ctx.found.link, ctx.body.position);
    },
    present: presentRegistryUpstream,
  }),
];

/**
 * The console's reading of a registry's cache: how many files each upstream's cache holds and
 * their bytes. Under /api/console: the platform lists cache entries a page at a time, which would
 * take every page to add up. Whoever may read the registry may read it.
 */
export const virtualRegistryConsoleRoutes = [
  defineRoute({
    mount: 'console',
    method: 'get',
    path: `${base}/registries/:id/cache`,
    area,
    summary: 'How many files the cache of each of the registry’s upstreams holds and their bytes, and the totals (Guest of its group)',
    ...registryById('read_virtual_registry'),
    response: registryCacheSummary,
    handler: async (ctx) => registries.registryCacheSummary(ctx.db, ctx.found.registry),
  }),
];
