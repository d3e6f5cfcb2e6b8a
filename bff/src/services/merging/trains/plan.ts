/**
 * The merge train's rules as pure functions: given the cars of one target branch in train
 * order and the target's head, what to do next. The job that drives the train (trains/run.ts)
 * applies one step at a time (git and database) and asks again until there is nothing to do,
 * so every decision is made from what is stored, and a killed server resumes where it was.
 *
 * The rules, as the platform's trains and better where its trains are known to fail:
 * - each car's train ref is the merge of the target, every car ahead, and its own changes as
 *   they were when the car was added (approved); a car is rebuilt whenever what it was built on
 *   changed (the target or a car ahead moved or left the train);
 * - a push to a car's source branch takes the car off the train, wherever it stands (the
 *   platform's "source branch was updated" drop): nothing but the approved commit merges;
 * - at most `limit` cars have a pipeline at once; the others wait idle;
 * - only the car at the head merges, when its pipeline passed; a car whose pipeline passed
 *   early waits for the cars ahead;
 * - a car is dropped (failed pipeline, conflict) only once it is at the head: until then its
 *   failure may come from a car ahead, and if that car leaves, the car is rebuilt without it.
 */

export type PipelineOutcome = 'running' | 'success' | 'failed';

export interface CarState {
  id: number;
  /** The merge request's source head now ('' when the branch is gone). */
  sourceHead: string;
  /** The source commit the car was added with, the only one it may merge (null: a car older than that record). */
  approvedSha: string | null;
  /** What the car's train ref was built from (null: never built). */
  baseSha: string | null;
  sourceSha: string | null;
  trainSha: string | null;
  /** The build on baseSha conflicted. */
  conflict: boolean;
  pipeline: PipelineOutcome | null;
  status: string;
}

export type Step =
  | { kind: 'build'; car: CarState; base: string }
  | { kind: 'merge'; car: CarState; from: string }
  | { kind: 'drop'; car: CarState; reason: string }
  | { kind: 'idle'; car: CarState }
  | { kind: 'none' };

/** Built on `base` from the approved source commit: its pipeline (or conflict) still speaks for it. */
export const builtOn = (car: CarState, base: string) => car.baseSha === base && car.sourceSha === car.approvedSha && (car.trainSha !== null || car.conflict);

/** The platform's reason to drop a car whose source is no longer what was approved; undefined while it is. */
export const SOURCE_UPDATED = 'the source branch was updated';
export function sourceMoved(car: Pick<CarState, 'sourceHead' | 'approvedSha'>): string | undefined {
  if (!car.sourceHead) return 'the source branch no longer exists';
  if (car.approvedSha === null) return 'it was added before its approved commit was recorded; add it again';
  return car.sourceHead === car.approvedSha ? undefined : SOURCE_UPDATED;
}

export function nextStep(cars: CarState[], targetHead: string, limit: number): Step {
  let base = targetHead;
  for (const [i, car] of cars.entries()) {
    // The target already moved to the head car's train commit (a run stopped before recording the merge): record it.
    // It holds the approved commit only, so a push since does not undo it.
    if (i === 0 && car.trainSha !== null && car.trainSha === targetHead && car.pipeline === 'success') return { kind: 'merge', car, from: targetHead };
    const moved = sourceMoved(car);
    if (moved) return { kind: 'drop', car, reason: moved };
    if (i >= limit) {
      // Past the limit: no pipeline yet. A car pushed back there (the limit shrank) waits again.
      if (car.status !== 'idle') return { kind: 'idle', car };
      continue;
    }
    if (!builtOn(car, base)) return { kind: 'build', car, base };
    if (i === 0) {
      if (car.conflict) return { kind: 'drop', car, reason: 'the merge request has merge conflicts with the target branch' };
      if (car.pipeline === 'failed') return { kind: 'drop', car, reason: 'the pipeline of the merge train failed' };
      if (car.pipeline === 'success') return { kind: 'merge', car, from: targetHead };
    }
    // A car that conflicts where it stands is left out of the refs of the cars behind it.
    if (!car.conflict) base = car.trainSha!;
  }
  return { kind: 'none' };
}

/** The platform's pipeline statuses reduced to what the train acts on. */
export function outcomeOf(status: string | null | undefined): PipelineOutcome | null {
  if (!status) return null;
  if (status === 'success') return 'success';
  if (status === 'failed' || status === 'canceled' || status === 'skipped') return 'failed';
  return 'running';
}
