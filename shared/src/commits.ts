import { z } from './errors.ts';
import { boolParam, datetimeParam, intParam, paginationQuery } from './params.ts';
import { userBasic } from './users.ts';
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

/** GET /projects/:id/repository/commits/:sha/diff: `unidiff` adds the `---`/`+++` header lines to each patch. */
export const commitDiffQuery = paginationQuery.extend({ unidiff: boolParam().optional() });

/** GET /projects/:id/repository/commits/:sha/refs: branches, tags or both that contain the commit. */
export const commitRefsQuery = paginationQuery.extend({ type: z.enum(['branch', 'tag', 'all']).optional() });

/** A branch or tag by its name (the platform's BasicRef). */
export const basicRef = z.object({ type: z.enum(['branch', 'tag']), name: z.string() });
export type BasicRef = z.infer<typeof basicRef>;

/** POST /projects/:id/repository/commits/:sha/comments: a comment, on a line of the commit's diff where `path` and `line` name one. */
export const commitCommentBody = z
  .object({
    note: z.string().min(1).max(1_000_000),
    path: z.string().min(1).max(4096).optional(),
    line: intParam().optional(),
    line_type: z.enum(['new', 'old']).optional(),
  })
  .superRefine((b, ctx) => {
    if (b.path !== undefined && b.line === undefined) ctx.addIssue({ code: 'custom', path: ['line'], message: 'is missing' });
  });
export type CommitCommentBody = z.infer<typeof commitCommentBody>;

/** A comment on a commit (the platform's CommitNote): path, line and line_type only for one on a line of its diff. */
export const commitNote = z.object({
  note: z.string(),
  path: z.string().nullable(),
  line: z.number().int().nullable(),
  line_type: z.enum(['new', 'old']).nullable(),
  author: userBasic,
  created_at: z.string(),
});
export type CommitNote = z.infer<typeof commitNote>;
