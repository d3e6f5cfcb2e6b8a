import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ByteBudget } from './byte-budget.ts';

/** A piece of work that runs until released, recording when it starts. */
function piece(budget: ByteBudget, bytes: number, log: string[], name: string) {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const done = budget.run(bytes, async () => {
    log.push(`${name} starts (${budget.inUse} in use)`);
    await held;
  });
  return { release, done };
}
const tick = () => new Promise((r) => setImmediate(r));

describe('ByteBudget', () => {
  it('runs pieces side by side while they fit, and a large one alone once the room is free', async () => {
    const budget = new ByteBudget(100);
    const log: string[] = [];
    const a = piece(budget, 30, log, 'a');
    const b = piece(budget, 60, log, 'b');
    const big = piece(budget, 100, log, 'big');
    await tick();
    assert.deepEqual(log, ['a starts (30 in use)', 'b starts (90 in use)']);
    a.release();
    await tick();
    assert.equal(log.length, 2, 'the large one waits while any room is taken');
    b.release();
    await Promise.all([a.done, b.done]);
    await tick();
    assert.deepEqual(log.slice(2), ['big starts (100 in use)']);
    big.release();
    await big.done;
    assert.equal(budget.inUse, 0);
  });

  it('serves in arrival order: a small piece after a waiting large one waits too, a piece over the budget runs alone', async () => {
    const budget = new ByteBudget(100);
    const log: string[] = [];
    const first = piece(budget, 50, log, 'first');
    const huge = piece(budget, 500, log, 'huge');
    const small = piece(budget, 1, log, 'small');
    await tick();
    assert.deepEqual(log, ['first starts (50 in use)']);
    first.release();
    await first.done;
    await tick();
    assert.deepEqual(log.slice(1), ['huge starts (100 in use)']);
    huge.release();
    await huge.done;
    await tick();
    assert.deepEqual(log.slice(2), ['small starts (1 in use)']);
    small.release();
    await small.done;
  });

  it('frees the room of a piece that fails', async () => {
    const budget = new ByteBudget(10);
    await assert.rejects(
      budget.run(10, async () => {
        throw new Error('broken');
      }),
      /broken/,
    );
    assert.equal(budget.inUse, 0);
    assert.equal(await budget.run(10, async () => 'next'), 'next');
  });
});
