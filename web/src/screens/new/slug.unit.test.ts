import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { slugOf } from './slug.ts';

describe('slugOf', () => {
  it('lower-cases a name and joins its words with "-"', () => {
    assert.equal(slugOf('Platform Team'), 'platform-team');
    assert.equal(slugOf('Web  &  Mobile / Apps'), 'web-mobile-apps');
  });
  it('keeps digits, "_" and "." inside', () => {
    assert.equal(slugOf('tools_v2.1'), 'tools_v2.1');
  });
  it('drops accents', () => {
    assert.equal(slugOf('Équipe Données'), 'equipe-donnees');
  });
  it('does not start or end with "-" or "."', () => {
    assert.equal(slugOf('  .hidden project! '), 'hidden-project');
    assert.equal(slugOf('...'), '');
  });
  it('is at most 255 characters', () => {
    assert.equal(slugOf('a'.repeat(300)).length, 255);
  });
});
