/**
 * The merge train's rules as pure functions: given the cars of one target branch in train
 * order and the target's head, what to do next. The job that drives the train (trains/run.ts)
 * applies one step at a time (git and database) and asks again until there is nothing to do,
 * so every decision is made from what is stored, and a killed server resumes where it was.
 *
 * The rules, as the platform's trains and better where its trains are known to fail:
 * - each car's train ref is the merge of the target, every car ahead, and its own changes;
 *   a car is (re)built whenever what it was built on changed (the target or a car ahead
 *   moved, left the train, or its source branch got a push);
 * - at most `limit` cars have a pipeline at once; the others wait idle;
 * - only the car at the head merges, when its pipeline passed; a car whose pipeline passed
 *   early waits for the cars ahead;
 * - a car is dropped (failed pipeline, conflict) only once it is at the head: until then its
 *   failure may come from a car ahead, and if that car leaves, the car is rebuilt without it.
 */

export type PipelineOutcome = 'running' | 'success' | 'failed';

export interface CarState {
  id: number;
  /** The merge request's source head now. */
  sourceHead: string;
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

/** Built on `base` from the current source head: its pipeline (or conflict) still speaks for it. */
export const builtOn = (car: CarState, base: string) => car.baseSha === base && car.sourceSha === car.sourceHead && (car.trainSha !== null || car.conflict);

export function nextStep(cars: CarState[], targetHead: string, limit: number): Step {
  let base = targetHead;
  for (const [i, car] of cars.entries()) {
    if (i >= limit) {
      // Past the limit: no pipeline yet. A car pushed back there (the limit shrank) waits again.
      if (car.status !== 'idle') return { kind: 'idle', car };
      continue;
    }
    // The target already moved to the head car's train commit (a run stopped before recording the merge): record it.
    if (i === 0 && car.trainSha !== null && car.trainSha === targetHead && car.pipeline === 'success') return { kind: 'merge', car, from: targetHead };
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
