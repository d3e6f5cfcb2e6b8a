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

/** A pattern RE2 refuses, with the reason written for people (`problem`). */
export class Re2SyntaxError extends Error {
  constructor(
    readonly pattern: string,
    readonly problem: string,
  ) {
    super(`Regular expression ${JSON.stringify(pattern)} ${problem}`);
    this.name = 'Re2SyntaxError';
  }
}

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

/* Compiling is cheap but not free, and the same few patterns come back on every keystroke of
   the console's tester and every push the server judges: keep the latest ones. */
const CACHE_SIZE = 256;
const cache = new Map<string, RE2JS | Re2SyntaxError>();

function compileUncached(pattern: string, options: Re2Options): RE2JS | Re2SyntaxError {
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(pattern, options.multiline ? RE2JS.MULTILINE : 0);
  } catch (e) {
    if (e instanceof RE2JSSyntaxException) return new Re2SyntaxError(pattern, describeRe2Error(e.error, e.input, pattern));
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
 * Does the pattern match somewhere in the text? An unanchored search, as the platform's
 * `UntrustedRegexp#===` (RE2 partial match): anchor with ^ and $ (or \A and \z) to match a
 * whole value. Linear in the text; throws Re2SyntaxError for a pattern RE2 refuses.
 */
export function re2Test(pattern: string, text: string, options: Re2Options = {}): boolean {
  return compileRe2(pattern, options).test(text);
}

/** The text as a pattern that matches it literally (for wildcards turned into patterns). */
export const quoteRe2 = (text: string): string => RE2JS.quote(text);
