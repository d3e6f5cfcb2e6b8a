import type { Db } from '../../../db/index.ts';
import type { PipelineRow } from '../../../db/schema.ts';
import { onSourcePipelineSucceeded } from '../auto-merge.ts';
import { kickTrain, TRAIN_REF } from './run.ts';

/**
 * What moves a train from outside it, announced in the mover's transaction: a pipeline that
 * moved, a push. Each only asks for a run of the train concerned; the run decides from what is
 * stored (a car whose source got a push is taken off there, not here, so that a merge under way
 * is never undone half-way).
 */

/**
 * A pipeline's status changed (called from refreshPipeline, in its transaction): a train
 * pipeline moves its train; a passing pipeline of a source branch lets scheduled cars join.
 */
export async function onPipelineMoved(trx: Db, pipeline: PipelineRow): Promise<void> {
  if (TRAIN_REF.test(pipeline.ref)) {
    const car = await trx.selectFrom('merge_train_cars').select(['target_branch']).where('pipeline_id', '=', pipeline.id).executeTakeFirst();
    if (car) await kickTrain(trx, pipeline.project_id, car.target_branch);
    return;
  }
  if (pipeline.status !== 'success' || pipeline.tag) return;
  await onSourcePipelineSucceeded(trx, pipeline.project_id, pipeline.ref);
  const scheduled = await trx
    .selectFrom('merge_train_cars')
    .innerJoin('merge_requests', 'merge_requests.id', 'merge_train_cars.merge_request_id')
    .select('merge_train_cars.target_branch')
    .where('merge_train_cars.project_id', '=', pipeline.project_id)
    .where('merge_train_cars.scheduled', '=', 1)
    .where('merge_train_cars.active_merge_request_id', 'is not', null)
    .where('merge_requests.source_branch', '=', pipeline.ref)
    .execute();
  for (const branch of new Set(scheduled.map((c) => c.target_branch))) await kickTrain(trx, pipeline.project_id, branch);
}

/** Branches moved by a push (called from recordPush, in its transaction): a car whose source moved leaves its train, cars on a moved target are rebuilt. */
export async function onBranchesPushed(trx: Db, projectId: number, refs: { ref: string }[]): Promise<void> {
  const branches = refs.map((r) => r.ref).filter((r) => r.startsWith('refs/heads/')).map((r) => r.slice('refs/heads/'.length));
  if (!branches.length) return;
  const cars = await trx
    .selectFrom('merge_train_cars')
    .innerJoin('merge_requests', 'merge_requests.id', 'merge_train_cars.merge_request_id')
    .select('merge_train_cars.target_branch')
    .where('merge_train_cars.project_id', '=', projectId)
    .where('merge_train_cars.active_merge_request_id', 'is not', null)
    .where((eb) => eb.or([eb('merge_requests.source_branch', 'in', branches), eb('merge_train_cars.target_branch', 'in', branches)]))
    .execute();
  for (const branch of new Set(cars.map((c) => c.target_branch))) await kickTrain(trx, projectId, branch);
}
