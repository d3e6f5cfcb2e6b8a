import type { CommitInfo } from '../services/branches.ts';
import { presentCommit } from './branches.ts';

/** A context commit: the commit's own fields. */
export function presentContextCommit(c: CommitInfo) {
  return {
    id: c.id,
    short_id: c.id.slice(0, 8),
    created_at: c.committedDate,
    parent_ids: c.parentIds,
    title: c.subject,
    message: c.message,
    author_name: c.authorName,
    author_email: c.authorEmail,
    authored_date: c.authoredDate,
    committer_name: c.committerName,
    committer_email: c.committerEmail,
    committed_date: c.committedDate,
  };
}

/** The answer of a create also names the trailers and the commit's page. */
export function presentCreatedContextCommit(c: CommitInfo, projectUrl: string) {
  const full = presentCommit(c, projectUrl);
  return { ...presentContextCommit(c), trailers: full.trailers, web_url: full.web_url };
}
