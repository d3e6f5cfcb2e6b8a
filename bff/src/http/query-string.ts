import qs from 'qs';

/** A query string of plain `key=value` pairs: word keys, values percent-encoded or plain (what SDKs send). */
const PLAIN = /^[A-Za-z0-9_.~-]+=[A-Za-z0-9_.~%+*!'(),:@$/?-]*(?:&[A-Za-z0-9_.~-]+=[A-Za-z0-9_.~%+*!'(),:@$/?-]*)*$/;

/**
 * The query as the platform's clients expect it read: `qs` (Express's "extended" parser), which
 * knows brackets (`skip_groups[]=1`, `custom_attributes[key]=value`). Most query strings are
 * plain pairs, for which `qs` does the same as a split on & and = with decoding, at several
 * times the cost: those are read so, and anything else (brackets, even percent-encoded ones;
 * a key that names a property of every object) goes to `qs`. The unit test holds the two equal.
 */
export function parseQuery(str: string): Record<string, unknown> {
  if (!str || !PLAIN.test(str) || /%5[bBdD]/.test(str)) return qs.parse(str, { allowPrototypes: true });
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
