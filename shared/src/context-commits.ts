import { z } from './errors.ts';
import { commit } from './branches.ts';

/** A merge request context commit (a commit the merge request names besides its own): a commit's fields without trailers and web_url. */
export const contextCommit = commit.omit({ trailers: true, extended_trailers: true, web_url: true }).extend({ parent_ids: z.array(z.string()).nullable() });
/** The answer of a create also carries the trailers and the commit's web_url. */
export const createdContextCommit = contextCommit.extend({ trailers: commit.shape.trailers, web_url: z.string() });

export const contextCommitsBody = z.object({
  commits: z.array(z.string().min(1).max(64)).min(1).max(100),
});
