/**
 * The platform's own web addresses (every `web_url` the API answers, links pasted from the
 * platform, a webhook payload's URLs) read as the console's, so that none of them ends on "Page
 * not found": `/acme/web/-/issues/3` is the console's `/projects/acme/web/-/issues/3`. Addresses
 * without `/-/` name a project, a group or a user alike (`/acme/web`), and are looked up.
 */

/** Platform section paths whose console section has another slug or no page of its own. */
const PROJECT_SECTIONS: [RegExp, (m: RegExpMatchArray) => string][] = [
  [/^security\/vulnerabilities(\/\d+)?$/, (m) => `vulnerabilities${m[1] ?? ''}`],
  [/^security\/(dashboard|vulnerability_report)$/, () => 'vulnerabilities'],
  [/^(dependencies|security\/dependencies)$/, () => 'dependencies'],
  [/^project_members$/, () => 'members'],
  [/^(tree|blob|commits?|branches|tags|compare|raw)(\/.*)?$/, () => 'repository'],
  [/^(jobs|pipeline_schedules)(\/.*)?$/, () => 'pipelines'],
  [/^settings\/ci_cd$/, () => 'pipeline_triggers'],
  [/^(settings\/integrations|hooks)(\/.*)?$/, () => 'hooks'],
];

export type PlatformAddress =
  /** An address the console has: go there. */
  | { kind: 'console'; to: string }
  /** A project, group or user path: which of them it is takes a lookup. */
  | { kind: 'lookup'; path: string }
  | null;

/** What the platform address at `pathname` is in the console; null when it is not one. */
export function readPlatformAddress(pathname: string): PlatformAddress {
  const clean = pathname.replace(/^\/+|\/+$/g, '').replace(/\.git$/, '');
  if (!clean || /^(groups|projects|admin|user|security|sign-in|api)(\/|$)/.test(clean)) return null;
  const at = clean.indexOf('/-/');
  if (at === -1) return clean.includes('/-') ? null : { kind: 'lookup', path: clean };
  const owner = clean.slice(0, at);
  const rest = clean.slice(at + 3);
  const alias = PROJECT_SECTIONS.map(([re, to]) => {
    const m = rest.match(re);
    return m ? to(m) : null;
  }).find((x) => x !== null);
  return { kind: 'console', to: `/projects/${owner}/-/${alias ?? rest}` };
}
