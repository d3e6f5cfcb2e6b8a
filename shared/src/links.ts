/**
 * Links that come from users or reports (an SBOM's license URL, a scanner's identifier URL, a
 * commit status's target) are kept and shown as links only when they are http(s) URLs: a
 * `javascript:`, `data:` or `vbscript:` one (in any case, behind spaces or control characters)
 * must never become an href, on the server (what it stores and answers) as in the console.
 */
const HTTP_URL = /^https?:\/\/[^\s]/i;

/** The URL itself when it is an absolute http(s) URL, else null. */
export function httpUrl(url: unknown): string | null {
  if (typeof url !== 'string' || !HTTP_URL.test(url)) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}
