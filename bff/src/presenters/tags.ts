import type { Tag } from '../../../shared/src/tags.ts';
import type { TagInfo } from '../services/git/tags.ts';
import { presentCommit } from './branches.ts';

/** A tag; releases are not kept here (never set); protected when a protected tag names it (`isProtected`). */
export function presentTag(t: TagInfo, projectUrl: string, isProtected = false): Tag {
  return {
    name: t.name,
    message: t.message,
    target: t.target,
    commit: presentCommit(t.commit, projectUrl),
    release: null,
    protected: isProtected,
    created_at: t.createdAt,
  };
}
