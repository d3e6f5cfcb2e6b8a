/**
 * The console's addresses: links to groups, projects and the admin area, and the reading of a
 * group or project address back into its parts. Screens link with these; the screen table
 * (routes.ts) and the section tables (sections.ts) stay out of their imports, so no screen
 * imports the list that loads it.
 */

/** `acme/platform`, `settings` → `/groups/acme/platform/-/settings`; the overview without a section. */
export const groupHref = (fullPath: string, section = '') => `/groups/${fullPath}${section ? `/-/${section}` : ''}`;

/** `acme/website`, `pipelines` → `/projects/acme/website/-/pipelines`; the overview without a section. */
export const projectHref = (pathWithNamespace: string, section = '') => `/projects/${pathWithNamespace}${section ? `/-/${section}` : ''}`;

/** `acme/website`, 12 → `/projects/acme/website/-/issues/12`: an issue's page in the console. */
export const issueHref = (pathWithNamespace: string, iid: number) => projectHref(pathWithNamespace, `issues/${iid}`);

/** An issue as the API answers it (`references.full` is `acme/website#12`) → its page in the console, not the platform's `web_url`. */
export const issueHrefOf = (issue: { iid: number; references: { full: string } }) => {
  const full = issue.references.full;
  return issueHref(full.slice(0, full.lastIndexOf('#')), issue.iid);
};
/** `acme/website`, 4 → `/projects/acme/website/-/merge_requests/4`; a tab after it (`commits`, `diffs`). */
export const mergeRequestHref = (pathWithNamespace: string, iid: number, tab = '') => projectHref(pathWithNamespace, `merge_requests/${iid}${tab ? `/${tab}` : ''}`);

/** `acme/website` → `/projects/acme/website/-/error_tracking`; `12` → an error's page, `settings` → the settings. The API links an issue made from an error to this address. */
export const errorTrackingHref = (pathWithNamespace: string, rest: string | number = '') => projectHref(pathWithNamespace, `error_tracking${rest !== '' ? `/${rest}` : ''}`);

/** `users`, 12 → `/admin/users/12`; the admin overview without a section. */
export const adminHref = (section = '', ...rest: (string | number)[]) => ['/admin', section, ...rest].filter((p) => p !== '').join('/');

/** `acme/web/-/vulnerabilities/12` → `['12']`: what follows a section's slug, for screens with pages of their own. */
export function sectionRest(splat: string): string[] {
  const at = splat.indexOf('/-/');
  return (at === -1 ? '' : splat.slice(at + 3)).split('/').slice(1).filter(Boolean);
}

/** `acme/platform/-/settings` → `{ fullPath: 'acme/platform', section: 'settings' }`. */
export function parseGroupSplat(splat: string): { fullPath: string; section: string } {
  const clean = splat.replace(/^\/+|\/+$/g, '');
  const at = clean.indexOf('/-/');
  if (at === -1) return { fullPath: clean.replace(/\/-$/, ''), section: '' };
  return { fullPath: clean.slice(0, at), section: clean.slice(at + 3).split('/')[0] };
}
