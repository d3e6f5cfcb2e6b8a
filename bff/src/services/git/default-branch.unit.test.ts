import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fallbackDefault } from './default-branch.ts';

describe('the default branch a repository falls back on', () => {
  it('is the only branch, else main, else master, else the first by name', () => {
    assert.equal(fallbackDefault([]), undefined);
    assert.equal(fallbackDefault(['feature/first']), 'feature/first');
    assert.equal(fallbackDefault(['zeta', 'main', 'master']), 'main');
    assert.equal(fallbackDefault(['zeta', 'master']), 'master');
    assert.equal(fallbackDefault(['zeta', 'alpha', 'beta']), 'alpha');
  });
});
