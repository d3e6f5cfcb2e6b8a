import { z } from 'zod';
import { namespaceEntity, namespaceExistence, namespaceExistsQuery, namespaceListQuery } from '../../../shared/src/namespaces.ts';
import { defineRoute } from '../http/route.ts';
import { recordKey } from '../http/params.ts';
import { pageRequest } from '../db/pagination.ts';
import * as namespaces from '../services/groups/namespaces.ts';
import { presentNamespace } from '../presenters/namespaces.ts';

const area = 'namespaces';

export const namespaceRoutes = [
  defineRoute({
    method: 'get',
    path: '/namespaces',
    area,
    summary: 'List the namespaces the caller is a direct member of (administrators: every namespace); search, owned_only, top_level_only, full_path_search',
    query: namespaceListQuery,
    response: z.array(namespaceEntity),
    handler: async (ctx) => {
      const page = await namespaces.listNamespaces(ctx.db, ctx.actor, ctx.query, pageRequest(ctx.query));
      const levels = await namespaces.levelsIn(ctx.db, ctx.actor, page.items);
      return page.mapAsync(async (groups) => {
        const shown = [];
        for (const group of groups) {
          const counts = namespaces.administers(ctx.actor, group, levels.get(group.id) ?? 0) ? await namespaces.namespaceCounts(ctx.db, group) : undefined;
          shown.push({ group, counts });
        }
        return shown;
      });
    },
    present: ({ group, counts }, ctx) => presentNamespace(group, ctx.baseUrl, counts),
  }),
  defineRoute({
    method: 'get',
    path: '/namespaces/:id',
    area,
    summary: 'Get a namespace by ID or URL-encoded full path',
    params: { id: recordKey('Namespace') },
    response: namespaceEntity,
    handler: async (ctx) => {
      const { group, level } = await namespaces.findNamespace(ctx.db, ctx.actor, ctx.params.id);
      return { group, counts: namespaces.administers(ctx.actor, group, level) ? await namespaces.namespaceCounts(ctx.db, group) : undefined };
    },
    present: ({ group, counts }, ctx) => presentNamespace(group, ctx.baseUrl, counts),
  }),
  defineRoute({
    method: 'get',
    path: '/namespaces/:path/exists',
    area,
    summary: 'Whether a namespace path is taken among the children of parent_id (top-level without it), with a free path suggested',
    params: { path: z.string().min(1).max(255) },
    query: namespaceExistsQuery,
    response: namespaceExistence,
    handler: async (ctx) => namespaces.namespaceExists(ctx.db, ctx.params.path, ctx.query.parent_id),
  }),
];
