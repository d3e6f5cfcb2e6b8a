import type { MergeTrain, MergeTrainStatus } from '../../../shared/src/merge-trains.ts';
import type { CarView } from '../services/merging/merge-trains.ts';
import { bool } from '../util/rows.ts';
import { presentUserBasic } from './users.ts';
import { pipelineWebUrl } from './pipelines.ts';

/** A merge train car in the platform's shape, then what the console shows of it. */
export function presentMergeTrain(v: CarView, ctx: { baseUrl: string; projectUrl: string }): MergeTrain {
  const { car, mr, pipeline } = v;
  return {
    id: car.id,
    merge_request: {
      id: mr.id,
      iid: mr.iid,
      project_id: mr.project_id,
      title: mr.title,
      description: mr.description,
      state: mr.state as MergeTrain['merge_request']['state'],
      created_at: mr.created_at,
      updated_at: mr.updated_at,
      web_url: `${ctx.projectUrl}/-/merge_requests/${mr.iid}`,
    },
    user: v.user ? presentUserBasic(v.user, ctx.baseUrl) : null,
    pipeline: pipeline
      ? {
          id: pipeline.id,
          iid: pipeline.iid,
          project_id: pipeline.project_id,
          sha: pipeline.sha,
          ref: pipeline.ref,
          status: pipeline.status as NonNullable<MergeTrain['pipeline']>['status'],
          source: pipeline.source,
          created_at: pipeline.created_at,
          updated_at: pipeline.updated_at,
          web_url: pipelineWebUrl(ctx.projectUrl, pipeline),
        }
      : null,
    created_at: car.created_at,
    updated_at: car.updated_at,
    target_branch: car.target_branch,
    status: car.status as MergeTrainStatus,
    merged_at: car.merged_at,
    duration: car.duration,
    position: v.position,
    dropped_reason: car.dropped_reason,
    scheduled: bool(car.scheduled) && car.active_merge_request_id !== null,
    stuck: v.stuck,
    author: v.author ? presentUserBasic(v.author, ctx.baseUrl) : null,
    pipeline_started_at: car.pipeline_started_at,
    finished_at: car.finished_at,
  };
}
