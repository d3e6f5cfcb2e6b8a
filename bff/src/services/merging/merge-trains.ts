import type { Db } from '../../db/index.ts';
import type { MergeTrainCarRow, PipelineRow, ProjectRow, UserRow } from '../../db/schema.ts';
import { offsetPage, type Page, type PageRequest } from '../../db/pagination.ts';
import type { MergeSettings, MergeSettingsBody, MergeTrainAddBody, MergeTrainListQuery } from '../../../../shared/src/merge-trains.ts';
import { updateProject } from '../groups/projects.ts';
import { nowIso } from '../../util/time.ts';
import { bool } from '../../util/rows.ts';
import { badRequest, conflict, forbidden, notFound, unauthorized } from '../../util/errors.ts';
import { resolveCommit } from '../git/branches.ts';
import { mayMergeUnder, protectionsFor, type WriterRole } from '../git/protected-refs.ts';
import { DEFAULT_BRANCH } from '../git/repositories.ts';
import { usersById } from '../access/users.ts';
import { activeCars, dropCar, kickTrain, nextSequence } from './trains/run.ts';
import type { MergeRequestRow } from '../../db/schema.ts';
import type { GroupRow } from '../../db/schema.ts';

/** A car with what its presenter names: its merge request and author, who added it, its pipeline, its place. */
export interface CarView {
  car: MergeTrainCarRow;
  mr: MergeRequestRow;
  author: UserRow | null;
  user: UserRow | null;
  pipeline: PipelineRow | null;
  position: number | null;
  /** An active car whose pipeline has not moved for this long is shown as stuck. */
  stuck: boolean;
}

/** A train pipeline that has not moved for this long is stuck: nothing reports on it. */
export const STUCK_AFTER_MS = 30 * 60_000;

export function requireTrains(project: ProjectRow): void {
  if (!bool(project.merge_trains_enabled)) throw forbidden('Merge trains are not enabled for this project');
}

async function views(db: Db, cars: MergeTrainCarRow[]): Promise<CarView[]> {
  if (!cars.length) return [];
  const mrs = new Map((await db.selectFrom('merge_requests').selectAll().where('id', 'in', cars.map((c) => c.merge_request_id)).execute()).map((m) => [m.id, m]));
  const pipelineIds = cars.map((c) => c.pipeline_id).filter((p): p is number => p !== null);
  const pipelines = new Map(pipelineIds.length ? (await db.selectFrom('pipelines').selectAll().where('id', 'in', pipelineIds).execute()).map((p) => [p.id, p]) : []);
  const users = await usersById(db, [...cars.map((c) => c.user_id), ...[...mrs.values()].map((m) => m.author_id)]);
  // Positions within each active queue (by target branch), scheduled cars not counted.
  const positions = new Map<number, number>();
  for (const branch of new Set(cars.filter((c) => c.active_merge_request_id !== null).map((c) => c.target_branch))) {
    const queue = (await activeCars(db, cars[0].project_id, branch)).filter((c) => !bool(c.scheduled));
    queue.forEach((c, i) => positions.set(c.id, i + 1));
  }
  const now = Date.now();
  return cars.map((car) => {
    const mr = mrs.get(car.merge_request_id)!;
    const pipeline = car.pipeline_id === null ? null : (pipelines.get(car.pipeline_id) ?? null);
    const active = car.active_merge_request_id !== null && !bool(car.scheduled);
    const lastMove = Date.parse(pipeline?.updated_at ?? car.updated_at);
    const moving = !pipeline || !['success', 'failed', 'canceled', 'skipped'].includes(pipeline.status);
    return {
      car,
      mr,
      author: mr.author_id === null ? null : (users.get(mr.author_id) ?? null),
      user: car.user_id === null ? null : (users.get(car.user_id) ?? null),
      pipeline,
      position: positions.get(car.id) ?? null,
      stuck: active && moving && now - lastMove > STUCK_AFTER_MS,
    };
  });
}

/** The project's cars (or one target branch's): `active` on the train, `complete` merged, `dropped` left unmerged (Gatehouse's). */
export async function listCars(db: Db, project: ProjectRow, q: MergeTrainListQuery & { target_branch?: string }, page: PageRequest): Promise<Page<CarView>> {
  let query = db.selectFrom('merge_train_cars').selectAll().where('project_id', '=', project.id);
  if (q.target_branch !== undefined) query = query.where('target_branch', '=', q.target_branch);
  if (q.scope === 'active') query = query.where('active_merge_request_id', 'is not', null);
  if (q.scope === 'complete') query = query.where('status', 'in', ['merged', 'skip_merged']);
  if (q.scope === 'dropped') query = query.where('dropped_reason', 'is not', null);
  // Train order within a branch is the sequence; ids follow it.
  query = query.orderBy('id', q.sort ?? 'desc');
  return (await offsetPage(db, query, page)).mapAsync((cars) => views(db, cars));
}

export async function carOf(db: Db, mr: MergeRequestRow): Promise<CarView> {
  const car =
    (await db.selectFrom('merge_train_cars').selectAll().where('active_merge_request_id', '=', mr.id).executeTakeFirst()) ??
    (await db.selectFrom('merge_train_cars').selectAll().where('merge_request_id', '=', mr.id).orderBy('id', 'desc').executeTakeFirst());
  if (!car) throw notFound('Merge Train');
  return (await views(db, [car]))[0];
}

export interface Adder {
  db: Db;
  dir: string;
  project: ProjectRow;
  user: UserRow;
  /** Their role: the target's protection must admit them to merge (or push). */
  role: WriterRole;
}

/**
 * Adds the merge request to its target branch's train: at once (201), or with auto_merge when
 * its own pipeline has not passed yet, scheduled to join when it does (202). 400 when `sha` is
 * not the source head, 409 when it cannot be merged as it stands or is on a train already.
 */
export async function addToTrain(a: Adder, mr: MergeRequestRow, body: MergeTrainAddBody): Promise<{ view: CarView; scheduled: boolean }> {
  const { db, project } = a;
  requireTrains(project);
  if (mr.state !== 'opened') throw conflict(`Merge request is ${mr.state}`);
  if (bool(mr.draft)) throw conflict('Merge request is a draft');
  const source = await resolveCommit(a.dir, `refs/heads/${mr.source_branch}`);
  if (!source) throw conflict('The source branch does not exist');
  if (!(await resolveCommit(a.dir, `refs/heads/${mr.target_branch}`))) throw conflict('The target branch does not exist');
  if (body.sha !== undefined && body.sha !== source) throw badRequest('Failed to merge: sha does not match the head of the source branch');
  const { rules } = await protectionsFor(db, a.dir, project, mr.target_branch, project.default_branch ?? DEFAULT_BRANCH);
  if (!mayMergeUnder(rules, a.role)) throw unauthorized('you may not merge into the protected branch');
  const autoMerge = body.auto_merge ?? body.when_pipeline_succeeds ?? false;
  const headPipeline = await db.selectFrom('pipelines').select('status').where('project_id', '=', project.id).where('sha', '=', source).where('ref', '=', mr.source_branch).orderBy('id', 'desc').executeTakeFirst();
  const scheduled = autoMerge && headPipeline !== undefined && headPipeline.status !== 'success';
  if (headPipeline && ['failed', 'canceled'].includes(headPipeline.status)) throw conflict('The pipeline of the merge request failed');
  const id = await db.transaction().execute(async (trx) => {
    const now = nowIso();
    const inserted = await trx
      .insertInto('merge_train_cars')
      .values({
        project_id: project.id,
        merge_request_id: mr.id,
        active_merge_request_id: mr.id,
        target_branch: mr.target_branch,
        user_id: a.user.id,
        status: 'idle',
        scheduled: scheduled ? 1 : 0,
        squash: body.squash ?? bool(mr.squash) ? 1 : 0,
        sequence: await nextSequence(trx, project.id, mr.target_branch),
        pipeline_id: null,
        base_sha: null,
        source_sha: null,
        train_ref_sha: null,
        // What the caller saw and approved: the only source commit this car will merge.
        approved_sha: source,
        dropped_reason: null,
        pipeline_started_at: null,
        merged_at: null,
        finished_at: null,
        duration: null,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await kickTrain(trx, project.id, mr.target_branch);
    return inserted.id;
  });
  const car = await db.selectFrom('merge_train_cars').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  return { view: (await views(db, [car]))[0], scheduled };
}

/** Takes the merge request off its train (cancel auto-merge); the cars behind it are rebuilt without it. */
export async function removeFromTrain(ctx: { db: Db; dir: string; project: ProjectRow; group: GroupRow; baseUrl: string }, mr: MergeRequestRow, by: UserRow): Promise<void> {
  const car = await ctx.db.selectFrom('merge_train_cars').selectAll().where('active_merge_request_id', '=', mr.id).executeTakeFirst();
  if (!car) throw conflict('The merge request is not on a merge train');
  await dropCar(ctx, car, mr, `${by.username} removed it`, by);
}

export const settingsOf = (p: ProjectRow): MergeSettings => ({
  merge_method: p.merge_method as MergeSettings['merge_method'],
  merge_trains_enabled: bool(p.merge_trains_enabled),
  merge_trains_skip_train_allowed: bool(p.merge_trains_skip_train_allowed),
  merge_trains_cars_limit: p.merge_trains_cars_limit,
});

export async function updateSettings(db: Db, project: ProjectRow, namespace: GroupRow, body: MergeSettingsBody): Promise<MergeSettings> {
  const updated = await updateProject(db, project, namespace, body);
  await settingsChanged(db, updated);
  return settingsOf(updated);
}

/** After a change of the project's merge settings: a larger limit lets waiting cars start. */
export async function settingsChanged(db: Db, project: ProjectRow): Promise<void> {
  for (const t of await db.selectFrom('merge_train_cars').select('target_branch').distinct().where('project_id', '=', project.id).where('active_merge_request_id', 'is not', null).execute()) {
    await kickTrain(db, project.id, t.target_branch);
  }
}
