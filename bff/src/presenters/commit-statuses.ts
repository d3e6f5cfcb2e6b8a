import type { PipelineJobRow, UserRow } from '../db/schema.ts';
import type { CommitStatus } from '../../../shared/src/commit-statuses.ts';
import { presentUserBasic } from './users.ts';

export function presentCommitStatus(j: PipelineJobRow, ctx: { baseUrl: string; author: UserRow | null }): CommitStatus {
  return {
    id: j.id,
    sha: j.sha,
    ref: j.ref,
    status: j.status,
    name: j.name,
    target_url: j.target_url,
    description: j.description,
    created_at: j.created_at,
    started_at: j.started_at,
    finished_at: j.finished_at,
    allow_failure: j.allow_failure === 1,
    coverage: j.coverage,
    pipeline_id: j.pipeline_id,
    author: ctx.author ? presentUserBasic(ctx.author, ctx.baseUrl) : null,
  };
}
