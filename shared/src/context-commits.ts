import { z } from './errors.ts';

/** A merge request context commit (a commit the merge request names besides its own). */
export const contextCommit = z.object({
  id: z.string(),
  short_id: z.string(),
  created_at: z.string(),
  parent_ids: z.array(z.string()).nullable(),
  title: z.string(),
  message: z.string(),
  author_name: z.string(),
  author_email: z.string(),
  authored_date: z.string(),
  committer_name: z.string(),
  committer_email: z.string(),
  committed_date: z.string(),
});
/** The answer of a create also carries the trailers and the commit's web_url. */
export const createdContextCommit = contextCommit.extend({
  trailers: z.record(z.string(), z.string()),
  web_url: z.string(),
});

export const contextCommitsBody = z.object({
  commits: z.array(z.string().min(1).max(64)).min(1).max(100),
});
