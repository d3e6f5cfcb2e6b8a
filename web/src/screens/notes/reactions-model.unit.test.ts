import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { emojiOf, groupReactions, reactionLabel } from './reactions-model.ts';

const award = (id: number, name: string, username: string) => ({ id, name, user: { username, name: `${username} name` } });

describe('groupReactions', () => {
  it('counts each emoji once per person, marks the reader’s own, thumbs first', () => {
    const groups = groupReactions([award(1, 'rocket', 'bob'), award(2, 'thumbsdown', 'carol'), award(3, 'thumbsup', 'bob'), award(4, 'rocket', 'me'), award(5, 'eyes', 'carol')], 'me');
    assert.deepEqual(
      groups.map((g) => [g.name, g.count, g.mine]),
      [
        ['thumbsup', 1, null],
        ['thumbsdown', 1, null],
        ['rocket', 2, 4],
        ['eyes', 1, null],
      ],
    );
    assert.deepEqual(groups[2].people, ['bob name', 'me name']);
  });
  it('gives nothing for no reactions', () => {
    assert.deepEqual(groupReactions([], 'me'), []);
  });
});

describe('emojiOf and reactionLabel', () => {
  it('draw a known emoji and name an unknown one', () => {
    assert.deepEqual(emojiOf('thumbsup'), { glyph: '👍', label: 'Thumbs up' });
    assert.deepEqual(emojiOf('party_parrot'), { glyph: ':party_parrot:', label: 'party parrot' });
  });
  it('say the count and whether the reader is among them', () => {
    const [g] = groupReactions([award(1, 'thumbsup', 'me'), award(2, 'thumbsup', 'bob')], 'me');
    assert.equal(reactionLabel(g), 'Thumbs up: 2 reactions, yours included');
    const [h] = groupReactions([award(1, 'heart', 'bob')], 'me');
    assert.equal(reactionLabel(h), 'Heart: 1 reaction');
  });
});
