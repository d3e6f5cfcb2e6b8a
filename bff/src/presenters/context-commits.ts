import type { CommitInfo } from '../services/git/branches.ts';
import { presentCommit } from './branches.ts';

/** A context commit: the commit's own fields, without its trailers and page. */
export function presentContextCommit(c: CommitInfo) {
  const { trailers: _t, extended_trailers: _e, web_url: _w, ...fields } = presentCommit(c, '');
  return fields;
}

/** The answer of a create also names the trailers and the commit's page. */
export function presentCreatedContextCommit(c: CommitInfo, projectUrl: string) {
  const { extended_trailers: _e, ...fields } = presentCommit(c, projectUrl);
  return fields;
}
