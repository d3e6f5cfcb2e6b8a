import type { CommitDetail } from '../../../shared/src/commits.ts';
import type { CommitWithStats } from '../services/git/commits.ts';
import { presentCommit } from './branches.ts';

/** A commit of a list: `stats` only where they were read (`with_stats`). */
export function presentCommitListItem(c: CommitWithStats, projectUrl: string) {
  return { ...presentCommit(c, projectUrl), ...(c.stats ? { stats: { ...c.stats } } : {}) };
}

/** One commit: no pipelines run here, so `status` and `last_pipeline` are null. */
export function presentCommitDetail(c: CommitWithStats, project: { id: number }, projectUrl: string): CommitDetail {
  return { ...presentCommitListItem(c, projectUrl), status: null, project_id: project.id, last_pipeline: null };
}
