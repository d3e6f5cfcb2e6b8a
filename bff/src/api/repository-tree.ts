import { z } from 'zod';
import { treeEntry, treeQuery, type TreeEntry } from '../../../shared/src/repository-tree.ts';
import { defineRoute } from '../http/route.ts';
import { pageOfList, pageRequest } from '../db/pagination.ts';
import { listTree, type TreeItem } from '../services/git/repository-tree.ts';
import { withRepository } from './branches.ts';

const presentTreeEntry = (e: TreeItem): TreeEntry => ({ id: e.id, name: e.name, type: e.type, path: e.path, mode: e.mode });

export const repositoryTreeRoutes = [
  defineRoute({
    method: 'get',
    path: '/projects/:id/repository/tree',
    area: 'repository-tree',
    summary: 'List the files and folders of a folder (path) at a ref (the default branch by default), every level below with recursive',
    auth: 'optional',
    load: 'project',
    permission: 'download_code',
    ...withRepository,
    query: treeQuery,
    response: z.array(treeEntry),
    handler: async (ctx) => pageOfList(await listTree(ctx.repo.dir, ctx.query.ref ?? ctx.repo.defaultBranch, ctx.query.path, ctx.query.recursive ?? false), pageRequest(ctx.query)),
    present: presentTreeEntry,
  }),
];
