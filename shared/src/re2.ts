import { RE2JS, RE2JSSyntaxException } from 're2js';

/*
 * Regular expressions written by users (push-rule patterns, regex branch filters) follow RE2
 * syntax and are matched in time linear in the input, as on the platform, whose
 * Gitlab::UntrustedRegexp wraps Google's RE2. re2js is a port of RE2 (by way of Go's regexp)
 * that runs the same in node and in the browser, so the server and the console judge a
 * pattern alike: one compile, one match, one wording of what is wrong.
 */

export type Re2Options = {
  /**
   * `^` and `$` also match at line breaks, as RE2's `(?m)`: the platform prefixes commit-message
   * patterns with it (PushRuleable#commit_message_allowed?, #commit_message_blocked?).
   */
  multiline?: boolean;
};

/**
 * RE2 refuses a pattern whose program outgrows its memory budget ("pattern too large"). Its
 * units are bytes of a UTF-8 automaton, ours instructions over code points, so the bound is our
 * own: matching costs up to program size × input length, and at 5,000 instructions a branch name
 * is judged in milliseconds even by a pattern built to be slow (a chain of `\pL{1000}`), while
 * the patterns people write stay far below it (`^[a-z0-9-]{1,1000}$` is about 2,000).
 */
export const RE2_MAX_PROGRAM = 5_000;

/**
 * A pattern RE2 refuses. `problem` is the phrase the API answers with (after the field's name, so
 * its wording is part of the wire); `explanation` is a whole sentence for the console, pointing at
 * the character where things go wrong ("Missing closing parenthesis for the group opened at
 * position 2. …").
 */
export class Re2SyntaxError extends Error {
  constructor(
    readonly pattern: string,
    readonly problem: string,
    readonly explanation: string = sentenceOf(problem, null),
    /** 1-based position (in characters) of what is wrong, when it can be told. */
    readonly position: number | null = null,
  ) {
    super(`Regular expression ${JSON.stringify(pattern)} ${problem}`);
    this.name = 'Re2SyntaxError';
  }
}

/** "uses a lookahead (?!…), which…" → "Uses a lookahead (?!…), which… (at position 2)." */
const sentenceOf = (problem: string, position: number | null) =>
  `${problem.charAt(0).toUpperCase()}${problem.slice(1)}${position ? ` (at position ${position})` : ''}.`;

const RE2_FLAGS = 'imsU';
const NAME_RULE = 'a group name is letters, digits and _';

/** The construct `(?x…` names, for the Perl extensions RE2 leaves out on purpose. */
function unsupportedGroup(input: string, pattern: string): string {
  if (input.startsWith('(?=') || input.startsWith('(?!')) return `uses a lookahead ${input.slice(0, 3)}…), which RE2 does not support`;
  if (input.startsWith('(?<=') || input.startsWith('(?<!')) return `uses a lookbehind ${input.slice(0, 4)}…), which RE2 does not support`;
  if (input.startsWith('(?>')) return 'uses an atomic group (?>…), which RE2 does not support';
  if (input.startsWith('(?#')) return 'uses a comment (?#…), which RE2 does not support';
  if (input === '(?P') {
    if (pattern.includes('(?P=')) return 'uses a backreference (?P=name), which RE2 does not support';
    if (pattern.includes('(?P>')) return 'uses a recursion (?P>name), which RE2 does not support';
  }
  if (/^\(\?(R|&|[+-]?\d|\(|\|)/.test(input)) return `uses ${input}…), which RE2 does not support (no recursion, conditions or branch resets)`;
  const flags = /^\(\?([-A-Za-z]*)$/.exec(input);
  if (flags) {
    const unknown = [...flags[1]].find((c) => c !== '-' && !RE2_FLAGS.includes(c));
    if (unknown) return `uses the flag ${unknown} in ${input}…), which RE2 does not support: its flags are i, m, s and U`;
    return `has an unfinished flag group ${input}: close it with ) or :`;
  }
  return `uses ${input}, which RE2 does not support`;
}

function repeatCount(input: string): string {
  const m = /^\{(\d+)(,(\d*))?\}$/.exec(input);
  if (m) {
    const min = Number(m[1]);
    const max = m[2] === undefined ? min : m[3] === '' ? undefined : Number(m[3]);
    if (min > 1000 || (max !== undefined && max > 1000)) return `has an invalid repetition ${input}: RE2 repeats at most 1000 times`;
    if (max !== undefined && max < min) return `has an invalid repetition ${input}: the minimum is larger than the maximum`;
  }
  return `has an invalid repetition ${input}: repetitions nested in one another may not repeat more than 1000 times in all`;
}

function badEscape(input: string): string {
  if (/^\\[1-9]/.test(input) || input === '\\k' || input === '\\g') return `uses a backreference ${input}, which RE2 does not support`;
  if (input === '\\Z') return 'uses \\Z, which RE2 does not support: write \\z for the end of the text, or $';
  if (input === '\\u') return 'uses \\u, which RE2 does not support: write \\x{263A} for a character by its code';
  if (input.startsWith('\\x')) return `has an invalid character code ${input}: write \\x41 or \\x{263A}`;
  if (input.startsWith('\\Q')) return 'uses \\Q inside a character class, which RE2 does not support';
  return `uses the escape ${input}, which RE2 does not know (write \\\\ for a backslash)`;
}

/**
 * What is wrong with a pattern, in words for the person who wrote it, from what RE2's parser
 * reports (an error kind and the part of the pattern it stopped at).
 */
export function describeRe2Error(error: string, input: string | null, pattern: string): string {
  const at = input ?? '';
  switch (error) {
    case 'missing closing )':
      return 'has an unclosed group: a ( is missing its ) (write \\( for a literal parenthesis)';
    case 'unexpected )':
      return 'has a ) that closes no group (write \\) for a literal parenthesis)';
    case 'missing closing ]':
      return 'has an unclosed character class: a [ is missing its ] (write \\[ for a literal bracket)';
    case 'invalid character class range':
      if (/^\\[pP]/.test(at)) return `uses an unknown Unicode class ${at}`;
      if (at.startsWith('[:')) return `uses an unknown character class ${at}`;
      return `has a character range ${at} that runs backwards: write the smaller character first`;
    case 'invalid escape sequence':
      return badEscape(at);
    case 'trailing backslash at end of expression':
      return 'ends with a lone \\ (write \\\\ for a literal backslash)';
    case 'missing argument to repetition operator':
      return `has an invalid repetition: ${at} follows nothing it could repeat (write \\${at.charAt(0)} for a literal ${at.charAt(0)})`;
    case 'invalid nested repetition operator':
      if (at.length === 2 && at.endsWith('+')) return `uses a possessive repetition ${at}, which RE2 does not support`;
      return `has an invalid repetition ${at}: a repetition cannot be repeated directly (wrap it in (?:…) first)`;
    case 'invalid repeat count':
      return repeatCount(at);
    case 'invalid or unsupported Perl syntax':
    case 'invalid named capture':
      if (error === 'invalid named capture' && !at.startsWith('(?<=') && !at.startsWith('(?<!')) return `has an invalid group name in ${at}: ${NAME_RULE}`;
      return unsupportedGroup(at, pattern);
    case 'duplicate capture group name':
      return `names two groups ${at}: each group name may be used once`;
    case 'expression too large':
      return 'is too large for RE2: use smaller repetition counts';
    case 'expression nests too deeply':
      return 'nests groups or repetitions too deeply for RE2';
    default:
      return `is not valid RE2 syntax: ${error}${at ? ` (at ${at})` : ''}`;
  }
}

/** 1-based position in characters (not UTF-16 units) of the string index `index`. */
const positionAt = (pattern: string, index: number) => [...pattern.slice(0, index)].length + 1;

/**
 * Where the unbalanced ( or [ opened, or the ) that closes nothing: RE2 reports only that one is
 * missing, so the pattern is walked again, skipping escapes, \Q…\E and the inside of classes.
 */
export function unbalancedAt(pattern: string): { openGroup: number | null; openClass: number | null; strayClose: number | null } {
  const groups: number[] = [];
  let strayClose: number | null = null;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      if (pattern[i + 1] === 'Q') {
        const end = pattern.indexOf('\\E', i + 2);
        i = end === -1 ? pattern.length : end + 1;
      } else i++;
    } else if (c === '[') {
      const start = i;
      i++;
      if (pattern[i] === '^') i++;
      if (pattern[i] === ']') i++; // a ] first in a class is literal
      while (i < pattern.length && pattern[i] !== ']') {
        if (pattern[i] === '\\') i++;
        else if (pattern.startsWith('[:', i)) {
          const end = pattern.indexOf(':]', i + 2);
          if (end !== -1) i = end + 1;
        }
        i++;
      }
      if (i >= pattern.length) return { openGroup: groups.at(-1) ?? null, openClass: start, strayClose };
    } else if (c === '(') groups.push(i);
    else if (c === ')' && groups.pop() === undefined && strayClose === null) strayClose = i;
  }
  return { openGroup: groups.at(-1) ?? null, openClass: null, strayClose };
}

/**
 * The console's sentence for a refused pattern: plain words and the position of the culprit.
 * Mistakes of syntax say what to add or remove; a feature RE2 leaves out keeps the API's phrase.
 */
export function explainRe2Error(error: string, input: string | null, pattern: string): { explanation: string; position: number | null } {
  const at = input ?? '';
  const balance = unbalancedAt(pattern);
  const found = at && error !== 'missing closing )' && error !== 'missing closing ]' && error !== 'unexpected )' ? pattern.indexOf(at) : -1;
  const pos = (index: number | null) => (index === null || index < 0 ? null : positionAt(pattern, index));
  const where = (index: number | null) => (pos(index) ? ` at position ${pos(index)}` : '');
  const out = (explanation: string, index: number | null = found) => ({ explanation, position: pos(index) });
  switch (error) {
    case 'missing closing )':
      return out(
        balance.openGroup === null
          ? 'Missing closing parenthesis: add a ) to close the group, or write \\( for a literal parenthesis.'
          : `Missing closing parenthesis for the group opened at position ${pos(balance.openGroup)}. Add a ) to close it, or write \\( for a literal parenthesis.`,
        balance.openGroup,
      );
    case 'unexpected )':
      return out(`The )${where(balance.strayClose)} closes no group. Remove it, or write \\) for a literal parenthesis.`, balance.strayClose);
    case 'missing closing ]':
      return out(
        `Missing closing bracket for the character class opened${where(balance.openClass)}. Add a ] to close it, or write \\[ for a literal bracket.`,
        balance.openClass,
      );
    case 'invalid character class range': {
      const range = /^(.)-(.)$/u.exec(at);
      if (range) return out(`The range ${at}${where(found)} runs backwards. Write the smaller character first: ${range[2]}-${range[1]}.`);
      break;
    }
    case 'missing argument to repetition operator': {
      const op = at.charAt(0);
      const hint = op === '*' ? ' For any text, write .* instead.' : '';
      return out(`The ${at}${where(found)} has nothing before it to repeat. Write \\${op} for a literal ${op}.${hint}`);
    }
    case 'invalid nested repetition operator':
      if (at.length === 2 && at.endsWith('+')) break;
      return out(`The repetition ${at}${where(found)} repeats a repetition. Remove one of them, or wrap the first in (?:…).`);
    case 'trailing backslash at end of expression':
      return out('The pattern ends with a lone backslash. Write \\\\ for a literal backslash.', null);
    case 'duplicate capture group name':
      return out(`Two groups are named ${at}. Give each group its own name.`, null);
  }
  return out(sentenceOf(describeRe2Error(error, input, pattern), pos(found)));
}

/* Compiling is cheap but not free, and the same few patterns come back on every keystroke of
   the console's tester and every push the server judges: keep the latest ones. */
const CACHE_SIZE = 256;
const cache = new Map<string, RE2JS | Re2SyntaxError>();

function compileUncached(pattern: string, options: Re2Options): RE2JS | Re2SyntaxError {
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(pattern, options.multiline ? RE2JS.MULTILINE : 0);
  } catch (e) {
    if (e instanceof RE2JSSyntaxException) {
      const { explanation, position } = explainRe2Error(e.error, e.input, pattern);
      return new Re2SyntaxError(pattern, describeRe2Error(e.error, e.input, pattern), explanation, position);
    }
    return new Re2SyntaxError(pattern, 'is too large for RE2: use smaller repetition counts');
  }
  const size = (compiled as unknown as { re2Input?: { prog?: { numInst?: () => number } } }).re2Input?.prog?.numInst?.() ?? 0;
  if (size > RE2_MAX_PROGRAM) return new Re2SyntaxError(pattern, 'is too large for RE2: use smaller repetition counts');
  return compiled;
}

function compiled(pattern: string, options: Re2Options): RE2JS | Re2SyntaxError {
  const key = `${options.multiline ? 'm' : '-'}${pattern}`;
  let hit = cache.get(key);
  if (hit) {
    cache.delete(key);
  } else {
    hit = compileUncached(pattern, options);
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  }
  cache.set(key, hit);
  return hit;
}

/** The pattern compiled with RE2 semantics; throws Re2SyntaxError when RE2 refuses it. */
export function compileRe2(pattern: string, options: Re2Options = {}): RE2JS {
  const result = compiled(pattern, options);
  if (result instanceof Re2SyntaxError) throw result;
  return result;
}

/** Why RE2 refuses the pattern (a phrase to follow its name: "has an unclosed group…"), or undefined when it is valid. */
export function re2Problem(pattern: string, options: Re2Options = {}): string | undefined {
  const result = compiled(pattern, options);
  return result instanceof Re2SyntaxError ? result.problem : undefined;
}

/**
 * Why RE2 refuses the pattern, as the console says it (a whole sentence with the position of the
 * culprit), or undefined when it is valid. The API keeps answering `re2Problem`'s phrase.
 */
export function re2Explanation(pattern: string, options: Re2Options = {}): string | undefined {
  const result = compiled(pattern, options);
  return result instanceof Re2SyntaxError ? result.explanation : undefined;
}

/**
 * Does the pattern match somewhere in the text? An unanchored search, as the platform's
 * `UntrustedRegexp#===` (RE2 partial match): anchor with ^ and $ (or \A and \z) to match a
 * whole value. Linear in the text; throws Re2SyntaxError for a pattern RE2 refuses.
 */
export function re2Test(pattern: string, text: string, options: Re2Options = {}): boolean {
  return compileRe2(pattern, options).test(text);
}

/** The text as a pattern that matches it literally (for wildcards turned into patterns). */
export const quoteRe2 = (text: string): string => RE2JS.quote(text);
