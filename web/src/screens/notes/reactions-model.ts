/*
 * Emoji reactions as people read them: one button per emoji with its count and who gave it,
 * pressed when one of them is the reader (so a click takes theirs back). No React here.
 */

/** The reactions the console offers to add, in the platform's order, with their glyph and name. */
export const OFFERED_EMOJI = [
  { name: 'thumbsup', glyph: '👍', label: 'Thumbs up' },
  { name: 'thumbsdown', glyph: '👎', label: 'Thumbs down' },
  { name: 'smile', glyph: '😄', label: 'Smile' },
  { name: 'tada', glyph: '🎉', label: 'Party' },
  { name: 'heart', glyph: '❤️', label: 'Heart' },
  { name: 'rocket', glyph: '🚀', label: 'Rocket' },
  { name: 'eyes', glyph: '👀', label: 'Eyes' },
  { name: 'confused', glyph: '😕', label: 'Confused' },
] as const;

const KNOWN = new Map<string, { glyph: string; label: string }>(OFFERED_EMOJI.map((e) => [e.name, { glyph: e.glyph, label: e.label }]));

/** An emoji's glyph and name; one the console does not draw shows as `:name:`. */
export const emojiOf = (name: string) => KNOWN.get(name) ?? { glyph: `:${name}:`, label: name.replace(/_/g, ' ') };

export interface AwardLike {
  id: number;
  name: string;
  user: { username: string; name: string };
}

export interface ReactionGroup {
  name: string;
  glyph: string;
  label: string;
  count: number;
  /** Who reacted, in the order they did. */
  people: string[];
  /** The reader's own reaction of this emoji (its id, to take it back), or null. */
  mine: number | null;
}

/** Reactions grouped by emoji: thumbs up and down first (as on the platform), then the others in the order they first came. */
export function groupReactions(awards: AwardLike[], me: string): ReactionGroup[] {
  const groups = new Map<string, ReactionGroup>();
  for (const a of awards) {
    let g = groups.get(a.name);
    if (!g) {
      g = { name: a.name, ...emojiOf(a.name), count: 0, people: [], mine: null };
      groups.set(a.name, g);
    }
    g.count += 1;
    g.people.push(a.user.name);
    if (a.user.username === me) g.mine = a.id;
  }
  const rank = (name: string) => (name === 'thumbsup' ? 0 : name === 'thumbsdown' ? 1 : 2);
  return [...groups.values()].sort((a, b) => rank(a.name) - rank(b.name));
}

/** What a reaction button says to a screen reader: "Thumbs up: 2 reactions, yours included". */
export function reactionLabel(g: ReactionGroup): string {
  const count = `${g.count} ${g.count === 1 ? 'reaction' : 'reactions'}`;
  return `${g.label}: ${count}${g.mine !== null ? ', yours included' : ''}`;
}
