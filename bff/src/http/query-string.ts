import qs from 'qs';

/** A query string of plain `key=value` pairs: word keys, values percent-encoded or plain (what SDKs send). */
const PLAIN = /^[A-Za-z0-9_.~-]+=[A-Za-z0-9_.~%+*!'(),:@$/?-]*(?:&[A-Za-z0-9_.~-]+=[A-Za-z0-9_.~%+*!'(),:@$/?-]*)*$/;
/** An empty bracket pair, written or percent-encoded: `x[]` or `x%5B%5D`. */
const EMPTY_BRACKETS = /\[\]|%5B%5D|%5B\]|\[%5D/i;

/**
 * The query as the platform's clients expect it read: `qs` (Express's "extended" parser), which
 * knows brackets (`skip_groups[]=1`, `custom_attributes[key]=value`), with Rack's rule for
 * arrays of hashes (see rackIndexed). Most query strings are plain pairs, for which `qs` does
 * the same as a split on & and = with decoding, at several times the cost: those are read so,
 * and anything else (brackets, even percent-encoded ones; a key that names a property of every
 * object) goes to `qs`. The unit test holds the two equal.
 */
export function parseQuery(str: string): Record<string, unknown> {
  if (!str || !PLAIN.test(str) || /%5[bBdD]/.test(str)) return readBrackets(str, {});
  const out: Record<string, string | string[]> = {};
  const pairs = str.split('&');
  if (pairs.length > 1000) return qs.parse(str, { allowPrototypes: true });
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    const key = pair.slice(0, eq);
    if (key in Object.prototype) return qs.parse(str, { allowPrototypes: true });
    const value = decode(pair.slice(eq + 1));
    const had = out[key];
    out[key] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
  }
  return out;
}

/** The most fields a form body may carry; past it the body is refused (413), as body-parser did. */
export const FORM_PARAMETER_LIMIT = 1000;

/**
 * An application/x-www-form-urlencoded body, read as the query is (qs, with Rack's rule for
 * arrays of hashes). Undefined when it has more than FORM_PARAMETER_LIMIT fields.
 */
export function parseForm(str: string): Record<string, unknown> | undefined {
  if (!str) return {};
  let count = 1;
  for (let i = str.indexOf('&'); i !== -1; i = str.indexOf('&', i + 1)) if (++count > FORM_PARAMETER_LIMIT) return undefined;
  return readBrackets(str, { arrayLimit: Math.max(100, count), parameterLimit: FORM_PARAMETER_LIMIT, depth: 32 });
}

/** Multipart fields in the order they came, read as a form body of the same pairs is. */
export function parseFields(fields: readonly (readonly [string, string])[]): Record<string, unknown> {
  if (!fields.length) return {};
  return readBrackets(fields.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&'), {
    arrayLimit: Math.max(100, fields.length),
    parameterLimit: Math.max(1000, fields.length),
    depth: 32,
  });
}

/** qs's reading, keys first made explicit by Rack's rule where `[]` is followed by a key, lists given by their indexes made lists. */
function readBrackets(str: string, options: qs.IParseOptions): Record<string, unknown> {
  const text = EMPTY_BRACKETS.test(str) ? rackIndexed(str) : str;
  return listsFromIndexes(qs.parse(text, { allowPrototypes: true, ...options }), 0) as Record<string, unknown>;
}

/** Where one element of a `name[]` list of hashes stands: its index, whether it is a hash, and the keys it already holds. */
interface ListState {
  index: number;
  hash: boolean;
  keys: string[][];
}

/**
 * The platform's framework (Rack) reads `actions[][action]=create&actions[][file_path]=a&
 * actions[][action]=update&…` as a list of hashes: each `[]` followed by a key adds that key to
 * the list's last hash, and starts a new hash when the last one already holds the key (or the
 * last element is not a hash). qs would instead gather every `action` in one hash. Each such
 * key is rewritten here with its element's index (`actions[0][action]`, `actions[1][action]`),
 * which qs reads as Rack does; `name[]` alone appends an element, as in both.
 */
export function rackIndexed(str: string): string {
  const lists = new Map<string, ListState>();
  return str
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const rawKey = eq < 0 ? pair : pair.slice(0, eq);
      const key = decode(rawKey);
      if (!key.includes('[]')) return pair;
      const rewritten = indexKey(key, lists);
      if (rewritten === key) return pair;
      return encodeURIComponent(rewritten) + (eq < 0 ? '' : pair.slice(eq));
    })
    .join('&');
}

function indexKey(name: string, lists: Map<string, ListState>): string {
  const open = name.indexOf('[', 1);
  if (open < 0) return name;
  let out = name.slice(0, open);
  let rest = name.slice(open);
  while (rest) {
    if (rest.startsWith('[]')) {
      const after = rest.slice(2);
      let list = lists.get(out);
      if (!list) lists.set(out, (list = { index: -1, hash: false, keys: [] }));
      if (after === '') {
        // `name[]=v`: a new element that is not a hash.
        Object.assign(list, { index: list.index + 1, hash: false, keys: [] });
        return `${out}[${list.index}]`;
      }
      const path = keyPath(after);
      // A key the last hash holds (or holds below), a last element that is no hash: a new element.
      const held = path !== undefined && list.keys.some((k) => path.every((part, i) => k[i] === part));
      if (!list.hash || held) Object.assign(list, { index: list.index + 1, hash: true, keys: [] });
      if (path) list.keys.push(path);
      out += `[${list.index}]`;
      rest = after;
      continue;
    }
    const close = rest.indexOf(']');
    if (!rest.startsWith('[') || close < 0) return out + rest;
    out += rest.slice(0, close + 1);
    rest = rest.slice(close + 1);
  }
  return out;
}

/** `[a][b]` as ['a', 'b']; undefined where Rack never finds the key held (a `[]` in it, or no brackets). */
function keyPath(brackets: string): string[] | undefined {
  const parts = [...brackets.matchAll(/\[([^[\]]*)\]/g)];
  if (!parts.length || parts.map((m) => m[0]).join('') !== brackets) return undefined;
  const path = parts.map((m) => m[1]!);
  return path.includes('') ? undefined : path;
}

const INDEX = /^(?:0|[1-9]\d{0,8})$/;

/**
 * A hash whose keys are all list indexes (`actions[0][…]`, … `actions[25][…]`) is a list,
 * in the order of its indexes: qs makes it one only up to its `arrayLimit`.
 */
function listsFromIndexes(value: unknown, depth: number): unknown {
  if (depth > 32 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = listsFromIndexes(value[i], depth + 1);
    return value;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  for (const k of keys) record[k] = listsFromIndexes(record[k], depth + 1);
  if (depth === 0 || !keys.length || !keys.every((k) => INDEX.test(k))) return record;
  return keys.sort((a, b) => Number(a) - Number(b)).map((k) => record[k]);
}

/** As qs decodes: + is a space; a malformed escape leaves the text as it is. */
function decode(text: string): string {
  const spaced = text.includes('+') ? text.replace(/\+/g, ' ') : text;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}
