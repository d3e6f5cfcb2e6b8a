import type { PipelineJobRow, PipelineRow, UserRow } from '../db/schema.ts';
import { detailedStatusOf, type Job, type Pipeline, type PipelineBasic, type PipelineStatus } from '../../../shared/src/pipelines.ts';
import type { PipelineView } from '../services/ci/pipelines.ts';
import { presentUserBasic } from './users.ts';

const status = (row: { status: string }) => row.status as PipelineStatus;
export const pipelineWebUrl = (projectUrl: string, p: Pick<PipelineRow, 'id'>) => `${projectUrl}/-/pipelines/${p.id}`;

/** The pipeline's own fields of a list item (the platform's PipelineBasic). */
function basicFields(p: PipelineRow, projectUrl: string) {
  return {
    id: p.id,
    iid: p.iid,
    project_id: p.project_id,
    sha: p.sha,
    ref: p.ref,
    status: status(p),
    source: p.source,
    created_at: p.created_at,
    updated_at: p.updated_at,
    web_url: pipelineWebUrl(projectUrl, p),
  };
}

export function presentPipelineBasic(v: PipelineView, ctx: { baseUrl: string; projectUrl: string }): PipelineBasic {
  const p = v.pipeline;
  return {
    ...basicFields(p, ctx.projectUrl),
    user: v.user ? presentUserBasic(v.user, ctx.baseUrl) : null,
    started_at: p.started_at,
    finished_at: p.finished_at,
    duration: p.duration,
  };
}

export function presentPipeline(v: PipelineView, ctx: { baseUrl: string; projectUrl: string }): Pipeline {
  const p = v.pipeline;
  return {
    ...presentPipelineBasic(v, ctx),
    before_sha: p.before_sha,
    tag: p.tag === 1,
    yaml_errors: null,
    committed_at: p.committed_at,
    queued_duration: p.queued_duration,
    coverage: p.coverage,
    detailed_status: detailedStatusOf(status(p), new URL(pipelineWebUrl(ctx.projectUrl, p)).pathname),
    archived: false,
  };
}

const seconds = (from: string | null, to: string | null) => (from ? Math.round(((to ? Date.parse(to) : Date.now()) - Date.parse(from)) / 10) / 100 : null);

/** A job as GET …/pipelines/:pipeline_id/jobs shows it; an external one links to its CI. */
export function presentJob(j: PipelineJobRow, ctx: { baseUrl: string; projectUrl: string; pipeline: PipelineRow; user: UserRow | null }): Job {
  const p = ctx.pipeline;
  return {
    id: j.id,
    status: status(j),
    stage: j.stage,
    name: j.name,
    ref: j.ref,
    tag: p.tag === 1,
    coverage: j.coverage,
    allow_failure: j.allow_failure === 1,
    created_at: j.created_at,
    started_at: j.started_at,
    finished_at: j.finished_at,
    erased_at: null,
    duration: seconds(j.started_at, j.finished_at),
    queued_duration: j.started_at ? seconds(j.created_at, j.started_at) : null,
    user: ctx.user ? presentUserBasic(ctx.user, ctx.baseUrl) : null,
    commit: { id: j.sha, short_id: j.sha.slice(0, 8) },
    pipeline: basicFields(p, ctx.projectUrl),
    web_url: `${ctx.projectUrl}/-/jobs/${j.id}`,
    target_url: j.target_url,
    description: j.description,
    ...(j.status === 'failed' ? { failure_reason: 'api_failure' } : {}),
    artifacts: [],
    tag_list: [],
    runner: null,
    archived: false,
  };
}
