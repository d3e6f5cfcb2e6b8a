import type { Tag } from '../../../shared/src/tags.ts';
import type { TagInfo } from '../services/git/tags.ts';
import { presentCommit } from './branches.ts';

/** A tag; releases and protected tags are not kept here, so neither is ever set. */
export function presentTag(t: TagInfo, projectUrl: string): Tag {
  return {
    name: t.name,
    message: t.message,
    target: t.target,
    commit: presentCommit(t.commit, projectUrl),
    release: null,
    protected: false,
    created_at: t.createdAt,
  };
}
