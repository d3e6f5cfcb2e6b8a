/**
 * A protected name against a name: exact, or with `*` standing for any run of characters
 * (slashes included), as the platform's wildcards for branches, tags and container repository
 * paths. Matched without a regular expression (the classic two-pointer glob), so a pattern of
 * many stars stays linear-ish. Case counts: callers that match case aside lower both sides.
 */
export function wildcardMatches(pattern: string, name: string): boolean {
  if (!pattern.includes('*')) return pattern === name;
  let p = 0;
  let n = 0;
  let star = -1;
  let mark = 0;
  while (n < name.length) {
    if (p < pattern.length && pattern[p] !== '*' && pattern[p] === name[n]) {
      p++;
      n++;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      mark = n;
    } else if (star >= 0) {
      p = star + 1;
      n = ++mark;
    } else return false;
  }
  while (p < pattern.length && pattern[p] === '*') p++;
  return p === pattern.length;
}
