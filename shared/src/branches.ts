import { z } from './errors.ts';
import { paginationQuery } from './params.ts';

/** A commit as the platform shows it in branches, tags and the commits API. */
export const commit = z.object({
  id: z.string(),
  short_id: z.string(),
  created_at: z.string(),
  parent_ids: z.array(z.string()),
  title: z.string(),
  message: z.string(),
  author_name: z.string(),
  author_email: z.string(),
  authored_date: z.string(),
  committer_name: z.string(),
  committer_email: z.string(),
  committed_date: z.string(),
  trailers: z.record(z.string(), z.string()),
  extended_trailers: z.record(z.string(), z.array(z.string())),
  web_url: z.string(),
});
export type Commit = z.infer<typeof commit>;

export const branch = z.object({
  name: z.string(),
  merged: z.boolean(),
  protected: z.boolean(),
  default: z.boolean(),
  developers_can_push: z.boolean(),
  developers_can_merge: z.boolean(),
  can_push: z.boolean(),
  web_url: z.string(),
  commit,
});
export type Branch = z.infer<typeof branch>;

/** GET /projects/:id/repository/branches: `search` (^ and $ anchor it) or `regex` (RE2). */
export const branchListQuery = paginationQuery.extend({
  search: z.string().max(255).optional(),
  regex: z.string().max(255).optional(),
});

/** POST /projects/:id/repository/branches: a new branch at `ref` (a branch, tag or commit SHA). */
export const branchCreateBody = z.object({
  branch: z.string().min(1).max(255),
  ref: z.string().min(1).max(255),
});
