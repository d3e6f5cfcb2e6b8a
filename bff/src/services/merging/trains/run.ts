import { z } from 'zod';
import type { Db } from '../../../db/index.ts';
import type { GroupRow, MergeRequestRow, MergeTrainCarRow, ProjectRow, UserRow } from '../../../db/schema.ts';
import { jobTicket, type JobDeps } from '../../../queue/define.ts';
import { enqueue, workerId } from '../../../queue/queue.ts';
import { acquireLock, releaseLock, renewLock } from './lock.ts';
import { resolveCommit } from '../../git/branches.ts';
import { cancelPipeline, commitMeta, createPipeline, type PipelineScope } from '../../ci/pipelines.ts';
import { ensureRepository, DEFAULT_BRANCH } from '../../git/repositories.ts';
import { preparePush, writePush } from '../../git/push-events.ts';
import { WRITER_ADMIN } from '../../git/protected-refs.ts';
import { announce } from '../../notifier.ts';
import { gitText } from '../../git/git-run.ts';
import { isoPlus, nowIso } from '../../../util/time.ts';
import { bool } from '../../../util/rows.ts';
import { deleteRef, MergeConflict, mergeOf, swapRef, trainCommit } from './git-merge.ts';
import { nextStep, outcomeOf, SOURCE_UPDATED, sourceMoved, type CarState, type Step } from './plan.ts';
import { addSystemNote, checkMove, markMerged, PushRefused } from '../merge-records.ts';

/** The ref a car's train pipeline runs on, as the platform names it. */
export const trainRef = (iid: number) => `refs/merge-requests/${iid}/train`;
export const TRAIN_REF = /^refs\/merge-requests\/(\d+)\/train$/;

/** How long a run holds its train's lock without renewing it (it renews every third of this while it works). */
export const TRAIN_LOCK_MS = 10_000;

/** The work a train asks for: a run, one per project and target branch (run by jobs/merge-train.ts). */
export const mergeTrainTicket = jobTicket({ kind: 'merge_train', payload: z.object({ projectId: z.number().int(), targetBranch: z.string() }), maxAttempts: 20 });

/**
 * A run of a train, queued in the caller's transaction. Whichever instance runs it first takes
 * the train's lock in the database, so one run at a time moves a train across every instance;
 * a run that finds the lock held asks for another run soon (the holder wakes it when done, a
 * dead holder's lease runs out).
 */
export async function driveTrain(deps: JobDeps, projectId: number, targetBranch: string): Promise<void> {
  const key = trainKey(projectId, targetBranch);
  // A new event while this run works queues the next run (the key is free again).
  await deps.db.updateTable('jobs').set({ unique_key: null }).where('unique_key', '=', key).execute();
  await serialized(key, () => runLocked(deps, projectId, targetBranch));
}

const trainKey = (projectId: number, branch: string) => `merge_train:${projectId}:${branch}`;

/** Asks for a run of the train of `targetBranch`; runs already asked for and not started absorb it. */
export const kickTrain = (trx: Db, projectId: number, targetBranch: string, runAt?: string) =>
  enqueue(trx, mergeTrainTicket, { projectId, targetBranch }, { uniqueKey: trainKey(projectId, targetBranch), runAt });

/** A server starting asks for a run of every train with cars: work a killed instance left half done is taken up again. */
export async function resumeTrains(db: Db): Promise<void> {
  const trains = await db.selectFrom('merge_train_cars').select(['project_id', 'target_branch']).distinct().where('active_merge_request_id', 'is not', null).execute();
  for (const t of trains) await kickTrain(db, t.project_id, t.target_branch);
}

// One run per train at a time in this process: a second worker waits here rather than polling the lock.
const running = new Map<string, Promise<void>>();
async function serialized(key: string, fn: () => Promise<void>): Promise<void> {
  const before = running.get(key) ?? Promise.resolve();
  const mine = before.then(fn, fn);
  const settled = mine.catch(() => undefined);
  running.set(key, settled);
  try {
    await mine;
  } finally {
    if (running.get(key) === settled) running.delete(key);
  }
}

async function runLocked(deps: JobDeps, projectId: number, target: string): Promise<void> {
  const { db } = deps;
  const key = trainKey(projectId, target);
  const holder = workerId();
  const attempt = await acquireLock(db, key, holder, TRAIN_LOCK_MS);
  if (!attempt.held) {
    // Another run (here or in another instance) moves this train: look again when it should be done.
    const soon = isoPlus(1000);
    await kickTrain(db, projectId, target, attempt.until < soon ? attempt.until : soon);
    return;
  }
  let lost = false;
  const renewal = setInterval(() => {
    renewLock(db, key, holder, TRAIN_LOCK_MS).then(
      (still) => (lost ||= !still),
      () => undefined,
    );
  }, TRAIN_LOCK_MS / 3);
  try {
    await runTrain(deps, projectId, target, () => {
      if (lost) throw new Error(`lost the lock of ${key}: another run drives the train now`);
    });
  } finally {
    clearInterval(renewal);
    await releaseLock(db, key, holder);
    // A run that found the lock held waits for it: it may go now.
    await db.updateTable('jobs').set({ run_at: nowIso() }).where('unique_key', '=', key).where('state', '=', 'pending').execute();
  }
}

interface TrainContext {
  deps: JobDeps;
  db: Db;
  dir: string;
  project: ProjectRow;
  group: GroupRow;
  baseUrl: string;
  target: string;
}

/** The cars still on the train, in train order. */
export const activeCars = (db: Db, projectId: number, target: string) =>
  db
    .selectFrom('merge_train_cars')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('target_branch', '=', target)
    .where('active_merge_request_id', 'is not', null)
    .orderBy('sequence')
    .orderBy('id')
    .execute();

/** Applies the train's steps until there is nothing left to do now (bounded: a run never spins). */
export async function runTrain(deps: JobDeps, projectId: number, target: string, stillHeld: () => void = () => undefined): Promise<void> {
  const { db } = deps;
  const project = await db.selectFrom('projects').selectAll().where('id', '=', projectId).executeTakeFirst();
  if (!project) return;
  const group = await db.selectFrom('groups').selectAll().where('id', '=', project.namespace_id).executeTakeFirstOrThrow();
  const dir = await ensureRepository(deps.db, deps.config.repositoriesDir, project);
  const ctx: TrainContext = { deps, db, dir, project, group, baseUrl: deps.config.externalUrl ?? deps.instanceUrl, target };
  for (let i = 0; i < 1000; i++) {
    stillHeld();
    await promoteScheduled(ctx);
    const { cars, step, mrs } = await plan(ctx);
    if (step.kind === 'none') return;
    const row = cars.find((c) => c.id === step.car.id)!;
    stillHeld();
    await apply(ctx, step, row, mrs.get(row.merge_request_id)!);
  }
}

/**
 * Scheduled cars (auto_merge) whose merge request's pipeline on the approved source commit passed
 * join the train; one whose source branch got a push since leaves it instead.
 */
async function promoteScheduled(ctx: TrainContext): Promise<void> {
  const scheduled = await ctx.db
    .selectFrom('merge_train_cars')
    .selectAll()
    .where('project_id', '=', ctx.project.id)
    .where('target_branch', '=', ctx.target)
    .where('scheduled', '=', 1)
    .where('active_merge_request_id', 'is not', null)
    .execute();
  for (const car of scheduled) {
    const mr = await ctx.db.selectFrom('merge_requests').selectAll().where('id', '=', car.merge_request_id).executeTakeFirstOrThrow();
    const head = (await resolveCommit(ctx.dir, `refs/heads/${mr.source_branch}`)) ?? '';
    const moved = sourceMoved({ sourceHead: head, approvedSha: car.approved_sha });
    if (moved) {
      await dropCar(ctx, car, mr, moved, await pusherOf(ctx, mr.source_branch, head));
      continue;
    }
    const pipeline = await ctx.db
      .selectFrom('pipelines')
      .select('status')
      .where('project_id', '=', ctx.project.id)
      .where('sha', '=', car.approved_sha!)
      .where('ref', '=', mr.source_branch)
      .orderBy('id', 'desc')
      .executeTakeFirst();
    if (pipeline?.status !== 'success') continue;
    await ctx.db.transaction().execute(async (trx) => {
      const sequence = await nextSequence(trx, ctx.project.id, ctx.target);
      await trx.updateTable('merge_train_cars').set({ scheduled: 0, sequence, status: 'idle', updated_at: nowIso() }).where('id', '=', car.id).where('scheduled', '=', 1).execute();
    });
  }
}

/**
 * Who moved a source branch to `head`: the author of the push recorded for it (the platform
 * names the pusher in its drop note); null when there is none (a deletion, or not yet recorded).
 */
async function pusherOf(ctx: TrainContext, branch: string, head: string): Promise<UserRow | null> {
  if (!head) return null;
  const pushes = await ctx.db
    .selectFrom('events')
    .select(['author_id', 'push_data'])
    .where('project_id', '=', ctx.project.id)
    .where('action_name', '=', 'pushed')
    .orderBy('id', 'desc')
    .limit(50)
    .execute();
  const push = pushes.find((e) => {
    const data = e.push_data ? (JSON.parse(e.push_data) as { ref?: string; ref_type?: string; commit_to?: string }) : {};
    return data.ref_type === 'branch' && data.ref === branch && data.commit_to === head;
  });
  return userOf(ctx.db, push?.author_id ?? null);
}

export async function nextSequence(trx: Db, projectId: number, target: string): Promise<number> {
  const last = await trx.selectFrom('merge_train_cars').select((eb) => eb.fn.max('sequence').as('s')).where('project_id', '=', projectId).where('target_branch', '=', target).executeTakeFirst();
  return Number(last?.s ?? 0) + 1;
}

async function plan(ctx: TrainContext) {
  const cars = (await activeCars(ctx.db, ctx.project.id, ctx.target)).filter((c) => !bool(c.scheduled));
  const mrs = new Map<number, MergeRequestRow>();
  const pipelines = new Map<number, string>();
  if (cars.length) {
    const rows = await ctx.db.selectFrom('merge_requests').selectAll().where('id', 'in', cars.map((c) => c.merge_request_id)).execute();
    for (const r of rows) mrs.set(r.id, r);
    const ids = cars.map((c) => c.pipeline_id).filter((p): p is number => p !== null);
    if (ids.length) for (const p of await ctx.db.selectFrom('pipelines').select(['id', 'status']).where('id', 'in', ids).execute()) pipelines.set(p.id, p.status);
  }
  // Every branch head in one git call: a plan reads them all, and a train runs many plans.
  const heads = await branchHeads(ctx.dir);
  const targetHead = heads.get(ctx.target);
  const states: CarState[] = [];
  for (const c of cars) {
    const mr = mrs.get(c.merge_request_id)!;
    states.push({
      id: c.id,
      sourceHead: heads.get(mr.source_branch) ?? '',
      approvedSha: c.approved_sha,
      baseSha: c.base_sha,
      sourceSha: c.source_sha,
      trainSha: c.train_ref_sha,
      conflict: bool(c.conflict),
      pipeline: c.pipeline_id === null ? null : outcomeOf(pipelines.get(c.pipeline_id)),
      status: c.status,
    });
  }
  const step: Step = targetHead ? nextStep(states, targetHead, ctx.project.merge_trains_cars_limit) : { kind: 'none' };
  return { cars, step, mrs };
}

async function branchHeads(dir: string): Promise<Map<string, string>> {
  const out = await gitText(dir, ['for-each-ref', '--format=%(objectname) %(refname:lstrip=2)', 'refs/heads']);
  return new Map(out.split('\n').filter(Boolean).map((line) => [line.slice(41), line.slice(0, 40)]));
}

const pipelineScope = (ctx: TrainContext): PipelineScope => ({ project: ctx.project, group: ctx.group, baseUrl: ctx.baseUrl });
const userOf = async (db: Db, id: number | null): Promise<UserRow | null> => (id === null ? null : ((await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst()) ?? null));

async function apply(ctx: TrainContext, step: Exclude<Step, { kind: 'none' }>, car: MergeTrainCarRow, mr: MergeRequestRow): Promise<void> {
  const { db } = ctx;
  const now = nowIso();
  if (step.kind === 'idle') {
    await retirePipeline(ctx, car);
    await db.updateTable('merge_train_cars').set({ status: 'idle', base_sha: null, source_sha: null, train_ref_sha: null, conflict: 0, pipeline_id: null, updated_at: now }).where('id', '=', car.id).execute();
    return;
  }
  if (step.kind === 'drop') return dropCar(ctx, car, mr, step.reason, step.reason === SOURCE_UPDATED ? await pusherOf(ctx, mr.source_branch, step.car.sourceHead) : null);
  // Built from what was approved, never from whatever the branch holds by now.
  if (step.kind === 'build') return buildCar(ctx, car, mr, step.base, car.approved_sha!);
  // merge: the target moves to the car's train commit only if it is still where the car was built.
  await db.updateTable('merge_train_cars').set({ status: 'merging', updated_at: now }).where('id', '=', car.id).execute();
  const user = (await userOf(db, car.user_id)) ?? (await userOf(db, mr.author_id));
  // The car was built on the target as it was (its train commit's first parent): that is what the push moved from.
  const update = { before: car.base_sha!, after: car.train_ref_sha!, ref: `refs/heads/${ctx.target}` };
  // The train's own move: who may merge was checked when the car joined.
  const to = { db, dir: ctx.dir, baseUrl: ctx.baseUrl, project: ctx.project, group: ctx.group, user, role: WRITER_ADMIN };
  // Already moved by a run that stopped before recording it (killed): only the record is left to write.
  if (step.from !== car.train_ref_sha) {
    // Looked at again right before the move: a push since the plan takes the car off instead.
    const head = (await resolveCommit(ctx.dir, `refs/heads/${mr.source_branch}`)) ?? '';
    const moved = sourceMoved({ sourceHead: head, approvedSha: car.approved_sha });
    if (moved) return dropCar(ctx, car, mr, moved, await pusherOf(ctx, mr.source_branch, head));
    // The commit the target moves to is exactly the approved source merged on what the car was built on.
    if (!(await mergeOf(ctx.dir, update.after, update.before, car.approved_sha!))) return dropCar(ctx, car, mr, 'its train commit is not the merge of the approved commit');
    try {
      await checkMove(to, update);
    } catch (e) {
      if (e instanceof PushRefused) return dropCar(ctx, car, mr, `the push rule refused the merge: ${e.message}`);
      throw e;
    }
    // The target moved meanwhile: the next plan rebuilds the car on it.
    if (!(await swapRef(ctx.dir, update.ref, update.after, step.from, 'merge train'))) return;
    if (ctx.deps.config.trainPauseMs) await new Promise((r) => setTimeout(r, ctx.deps.config.trainPauseMs));
  }
  // The push, the car and the merge request are recorded in one transaction: a run killed before
  // its commit records them all on the next run (the target is then at the train commit), never twice.
  const prepared = await preparePush(to, [update]);
  const mergedAt = nowIso();
  const recorded = await db.transaction().execute(async (trx) => {
    const res = await trx
      .updateTable('merge_train_cars')
      .set({ status: 'merged', active_merge_request_id: null, merged_at: mergedAt, finished_at: mergedAt, duration: Math.round((Date.parse(mergedAt) - Date.parse(car.created_at)) / 1000), updated_at: mergedAt })
      .where('id', '=', car.id)
      .where('active_merge_request_id', 'is not', null)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) return false;
    if (prepared) await writePush(trx, to, prepared);
    await markMerged(trx, { project: ctx.project, group: ctx.group, baseUrl: ctx.baseUrl }, mr, { user, mergeCommitSha: car.train_ref_sha!, squashCommitSha: null });
    return true;
  });
  if (recorded && prepared) await announce('pushRecorded', { pushed: to, refs: prepared.refs });
  await deleteRef(ctx.dir, trainRef(mr.iid));
}

/** A new train ref for the car (its approved source commit merged on `base`) and a new pipeline on it; a conflict is recorded instead. */
async function buildCar(ctx: TrainContext, car: MergeTrainCarRow, mr: MergeRequestRow, base: string, approved: string): Promise<void> {
  const { db } = ctx;
  if (car.pipeline_id !== null) {
    // What it was built on changed: the old pipeline no longer speaks for it.
    await db.updateTable('merge_train_cars').set({ status: 'stale', updated_at: nowIso() }).where('id', '=', car.id).execute();
    await retirePipeline(ctx, car);
  }
  const user = (await userOf(db, car.user_id)) ?? (await userOf(db, mr.author_id));
  const who = { name: user?.name ?? 'Gatehouse', email: user?.email ?? 'noreply@gatehouse.local' };
  const message = `Merge branch '${mr.source_branch}' into '${ctx.target}'\n\n${mr.title}\n\nSee merge request ${ctx.project.path_with_namespace}!${mr.iid}`;
  let sha: string;
  try {
    sha = await trainCommit(ctx.dir, base, approved, message, who);
  } catch (e) {
    if (!(e instanceof MergeConflict)) throw e;
    await db
      .updateTable('merge_train_cars')
      .set({ status: 'stale', base_sha: base, source_sha: approved, train_ref_sha: null, conflict: 1, pipeline_id: null, updated_at: nowIso() })
      .where('id', '=', car.id)
      .execute();
    return;
  }
  const ref = trainRef(mr.iid);
  const current = (await resolveCommit(ctx.dir, ref)) ?? '';
  await swapRef(ctx.dir, ref, sha, current, 'merge train');
  const meta = await commitMeta(ctx.dir, sha);
  await db.transaction().execute(async (trx) => {
    const pipeline = await createPipeline(trx, pipelineScope(ctx), { ref, tag: false, source: 'merge_request_event', user, commit: meta });
    const now = nowIso();
    await trx
      .updateTable('merge_train_cars')
      .set({ status: 'fresh', base_sha: base, source_sha: approved, train_ref_sha: sha, conflict: 0, pipeline_id: pipeline.id, pipeline_started_at: now, updated_at: now })
      .where('id', '=', car.id)
      .execute();
  });
}

/** The car's pipeline, if still moving, is canceled: nothing will act on it. */
async function retirePipeline(ctx: TrainContext, car: MergeTrainCarRow): Promise<void> {
  if (car.pipeline_id === null) return;
  const pipeline = await ctx.db.selectFrom('pipelines').selectAll().where('id', '=', car.pipeline_id).executeTakeFirst();
  if (pipeline && outcomeOf(pipeline.status) === 'running') await cancelPipeline(ctx.db, pipelineScope(ctx), pipeline);
}

/** The car leaves the train unmerged, its reason kept on it and written as a system note on the merge request. */
export async function dropCar(ctx: Pick<TrainContext, 'db' | 'dir' | 'project' | 'group' | 'baseUrl'> & { deps?: JobDeps }, car: MergeTrainCarRow, mr: MergeRequestRow, reason: string, by?: UserRow | null): Promise<void> {
  if (car.pipeline_id !== null) await retirePipeline(ctx as TrainContext, car);
  const now = nowIso();
  await ctx.db.transaction().execute(async (trx) => {
    // Off the train: idle again, with the reason it left (once: a car merged or dropped meanwhile stays as it is).
    const left = await trx
      .updateTable('merge_train_cars')
      .set({ status: 'idle', active_merge_request_id: null, dropped_reason: reason, finished_at: now, updated_at: now })
      .where('id', '=', car.id)
      .where('active_merge_request_id', 'is not', null)
      .executeTakeFirst();
    if (Number(left.numUpdatedRows) === 0) return;
    // Every car behind it was built on top of it: stale until rebuilt.
    await trx
      .updateTable('merge_train_cars')
      .set({ status: 'stale', updated_at: now })
      .where('project_id', '=', car.project_id)
      .where('target_branch', '=', car.target_branch)
      .where('active_merge_request_id', 'is not', null)
      .where('sequence', '>', car.sequence)
      .where('status', '=', 'fresh')
      .execute();
    await addSystemNote(trx, ctx.project, mr, by ?? null, `removed this merge request from the merge train because ${reason}`);
    await kickTrain(trx, car.project_id, car.target_branch);
  });
  await deleteRef(ctx.dir, trainRef(mr.iid));
}

export const defaultBranchOf = (p: ProjectRow) => p.default_branch ?? DEFAULT_BRANCH;
