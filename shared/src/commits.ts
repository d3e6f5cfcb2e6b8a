import { z } from './errors.ts';
import { boolParam, datetimeParam, paginationQuery } from './params.ts';
import { commit } from './branches.ts';

export const commitStats = z.object({ additions: z.number().int(), deletions: z.number().int(), total: z.number().int() });

/** A commit of a list, with `stats` where `with_stats` asked for them. */
export const commitListItem = commit.extend({ stats: commitStats.optional() });

/** GET /projects/:id/repository/commits/:sha and the answer of a created commit. */
export const commitDetail = commit.extend({
  stats: commitStats.optional(),
  status: z.string().nullable(),
  project_id: z.number().int(),
  last_pipeline: z.null(),
});
export type CommitDetail = z.infer<typeof commitDetail>;

/** A repository path written by a client: relative, no `..` or empty parts, not inside `.git`. */
export const repositoryPath = z
  .string()
  .min(1)
  .max(4096)
  .refine((p) => !p.startsWith('/') && p.split('/').every((part) => part !== '' && part !== '.' && part !== '..') && !p.split('/').includes('.git'), 'should be a valid file path');

export const commitListQuery = paginationQuery.extend({
  ref_name: z.string().min(1).max(1024).optional(),
  since: datetimeParam().optional(),
  until: datetimeParam().optional(),
  path: z.string().min(1).max(4096).optional(),
  all: boolParam().optional(),
  with_stats: boolParam().optional(),
  first_parent: boolParam().optional(),
  order: z.enum(['default', 'topo']).optional(),
});
export type CommitListQuery = z.infer<typeof commitListQuery>;

export const commitGetQuery = z.object({ stats: boolParam().optional() });

export const commitAction = z.object({
  action: z.enum(['create', 'delete', 'move', 'update', 'chmod']),
  file_path: repositoryPath,
  previous_path: repositoryPath.optional(),
  content: z.string().max(50 * 1024 * 1024).optional(),
  encoding: z.enum(['text', 'base64']).optional(),
  last_commit_id: z.string().max(64).optional(),
  execute_filemode: boolParam().optional(),
});
export type CommitAction = z.infer<typeof commitAction>;

/** POST /projects/:id/repository/commits: one commit of several file changes. */
export const commitCreateBody = z.object({
  branch: z.string().min(1).max(255),
  commit_message: z.string().min(1).max(65536),
  start_branch: z.string().min(1).max(255).optional(),
  start_sha: z.string().regex(/^[0-9a-f]{40}$/, 'is invalid').optional(),
  actions: z.array(commitAction).min(1).max(1000),
  author_email: z.string().max(255).optional(),
  author_name: z.string().max(255).optional(),
  stats: boolParam().optional(),
  force: boolParam().optional(),
});
export type CommitCreateBody = z.infer<typeof commitCreateBody>;
