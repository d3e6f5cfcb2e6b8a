import { z } from './errors.ts';
import { boolParam, paginationQuery } from './params.ts';

export const treeEntry = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(['tree', 'blob', 'commit']),
  path: z.string(),
  mode: z.string(),
});
export type TreeEntry = z.infer<typeof treeEntry>;

/** GET /projects/:id/repository/tree: a folder (`path`) at a ref (default branch by default), `recursive` for every level. */
export const treeQuery = paginationQuery.extend({
  ref: z.string().min(1).max(1024).optional(),
  path: z.string().max(4096).optional(),
  recursive: boolParam().optional(),
});
export type TreeQuery = z.infer<typeof treeQuery>;
