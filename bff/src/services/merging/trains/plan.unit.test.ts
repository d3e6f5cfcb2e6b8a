import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { nextStep, outcomeOf, SOURCE_UPDATED, type CarState } from './plan.ts';

const car = (id: number, over: Partial<CarState> = {}): CarState => ({
  id,
  sourceHead: `src${id}`,
  approvedSha: `src${id}`,
  baseSha: null,
  sourceSha: null,
  trainSha: null,
  conflict: false,
  pipeline: null,
  status: 'idle',
  ...over,
});
/** A car built on `base` with train commit `t<id>`. */
const built = (id: number, base: string, pipeline: CarState['pipeline'] = 'running', over: Partial<CarState> = {}) =>
  car(id, { baseSha: base, sourceSha: `src${id}`, trainSha: `t${id}`, pipeline, status: 'fresh', ...over });

describe('merge train plan', () => {
  it('builds the head car on the target, then each car on the one ahead', () => {
    assert.deepEqual(nextStep([car(1), car(2)], 'main0', 20), { kind: 'build', car: car(1), base: 'main0' });
    const step = nextStep([built(1, 'main0'), car(2)], 'main0', 20);
    assert.equal(step.kind, 'build');
    assert.equal(step.kind === 'build' && step.base, 't1');
  });

  it('runs at most `limit` pipelines: cars past it wait idle', () => {
    assert.deepEqual(nextStep([built(1, 'main0'), car(2)], 'main0', 1), { kind: 'none' });
    const pushedBack = car(2, { status: 'fresh' });
    assert.equal(nextStep([built(1, 'main0'), pushedBack], 'main0', 1).kind, 'idle');
  });

  it('merges the head car when its pipeline passed, from the target head it was built on', () => {
    assert.deepEqual(nextStep([built(1, 'main0', 'success'), built(2, 't1')], 'main0', 20), { kind: 'merge', car: built(1, 'main0', 'success'), from: 'main0' });
  });

  it('keeps a car that passed early waiting behind a running car', () => {
    assert.deepEqual(nextStep([built(1, 'main0', 'running'), built(2, 't1', 'success')], 'main0', 20), { kind: 'none' });
  });

  it('after the head merged, the next car built on its train commit merges without a rebuild', () => {
    assert.equal(nextStep([built(2, 't1', 'success')], 't1', 20).kind, 'merge');
  });

  it('drops a failed car only at the head', () => {
    assert.deepEqual(nextStep([built(1, 'main0', 'running'), built(2, 't1', 'failed')], 'main0', 20), { kind: 'none' });
    const step = nextStep([built(2, 't1', 'failed')], 't1', 20);
    assert.equal(step.kind, 'drop');
    assert.match(step.kind === 'drop' ? step.reason : '', /pipeline/);
  });

  it('rebuilds the cars behind a car that left (stale → fresh), never drops them for it', () => {
    // Car 1 was dropped: car 2 was built on t1 and failed there; it is rebuilt on the target.
    const step = nextStep([built(2, 't1', 'failed')], 'main0', 20);
    assert.equal(step.kind, 'build');
    assert.equal(step.kind === 'build' && step.base, 'main0');
  });

  it('drops a car whose source branch got a push, passed pipeline or not, wherever it stands: it never builds or merges what was not approved', () => {
    const pushed = built(1, 'main0', 'success', { sourceHead: 'src1-new' });
    assert.deepEqual(nextStep([pushed], 'main0', 20), { kind: 'drop', car: pushed, reason: SOURCE_UPDATED });
    const second = built(2, 't1', 'running', { sourceHead: 'src2-new' });
    assert.deepEqual(nextStep([built(1, 'main0'), second], 'main0', 20), { kind: 'drop', car: second, reason: SOURCE_UPDATED });
    const waiting = car(2, { sourceHead: 'src2-new' });
    assert.deepEqual(nextStep([built(1, 'main0'), waiting], 'main0', 1), { kind: 'drop', car: waiting, reason: SOURCE_UPDATED });
    const unbuilt = car(1, { sourceHead: 'src1-new' });
    assert.deepEqual(nextStep([unbuilt], 'main0', 20), { kind: 'drop', car: unbuilt, reason: SOURCE_UPDATED });
  });

  it('drops a car whose source branch is gone, and a car with no approved commit on record', () => {
    assert.match((nextStep([built(1, 'main0', 'success', { sourceHead: '' })], 'main0', 20) as { reason: string }).reason, /no longer exists/);
    assert.equal(nextStep([car(1, { approvedSha: null })], 'main0', 20).kind, 'drop');
  });

  it('records a merge whose target already moved even when the source got a push since: the train commit holds the approved commit only', () => {
    const moved = built(1, 'main0', 'success', { sourceHead: 'src1-new' });
    assert.deepEqual(nextStep([moved], 't1', 20), { kind: 'merge', car: moved, from: 't1' });
  });

  it('records a merge whose target move happened before a restart, without building again', () => {
    assert.deepEqual(nextStep([built(1, 'main0', 'success')], 't1', 20), { kind: 'merge', car: built(1, 'main0', 'success'), from: 't1' });
  });

  it('rebuilds the head when the target moved outside the train', () => {
    assert.equal(nextStep([built(1, 'main0', 'success')], 'main1', 20).kind, 'build');
  });

  it('drops a conflicting car at the head, and builds the cars behind it without it', () => {
    const conflicted = car(2, { baseSha: 't1', sourceSha: 'src2', conflict: true, status: 'stale' });
    const step = nextStep([built(1, 'main0'), conflicted, car(3)], 'main0', 20);
    assert.equal(step.kind, 'build');
    assert.equal(step.kind === 'build' && step.car.id, 3);
    assert.equal(step.kind === 'build' && step.base, 't1');
    const atHead = car(2, { baseSha: 'main0', sourceSha: 'src2', conflict: true });
    assert.match((nextStep([atHead], 'main0', 20) as { reason: string }).reason, /conflict/);
  });

  it('reads pipeline statuses as outcomes', () => {
    assert.equal(outcomeOf('success'), 'success');
    assert.equal(outcomeOf('canceled'), 'failed');
    assert.equal(outcomeOf('pending'), 'running');
    assert.equal(outcomeOf(null), null);
  });
});
