import type { ComponentType } from 'react';
import type { SessionUser } from './api/session.ts';
import { IconBook, IconFlag, IconFlame, IconFolder, IconGroups, IconHome, IconInbox, IconKey, IconList, IconLock, IconPlus, IconRefresh, IconRepo, IconSettings, IconShieldCheck, IconWebhook } from './components/icons.tsx';

/**
 * The one list of the console's screens: the router is built from it and the navigation is
 * drawn from it, so a screen cannot exist without its entry nor an entry without its screen.
 */

type Screen = () => Promise<{ default: ComponentType }>;

export interface NavEntry {
  label: string;
  icon: ComponentType<{ size?: number }>;
  /** Hidden from users who may not use the screen (they get its forbidden state by URL). */
  access?: (user: SessionUser) => boolean;
}

export type AppRoute =
  | {
      kind: 'screen';
      /** A react-router path; `*` takes the rest (group full paths contain slashes). */
      path: string;
      load: Screen;
      /** Reachable without a session (the sign-in page). */
      public?: boolean;
      /** `activePrefix`: the paths under which the entry is highlighted (projects live under Groups). */
      nav?: NavEntry & { activePrefix: string | string[] };
    }
  | { kind: 'link'; href: string; nav: NavEntry & { external: true } };

export const appRoutes: AppRoute[] = [
  { kind: 'screen', path: '/sign-in', public: true, load: () => import('./screens/session/SignInPage.tsx') },
  {
    kind: 'screen',
    path: '/groups',
    load: () => import('./screens/groups/GroupsListPage.tsx'),
    nav: { label: 'Groups', icon: IconGroups, activePrefix: ['/groups', '/projects'] },
  },
  {
    kind: 'screen',
    path: '/groups/new',
    load: () => import('./screens/new/NewGroupPage.tsx'),
    nav: { label: 'New group', icon: IconPlus, activePrefix: '/groups/new' },
  },
  { kind: 'screen', path: '/groups/*', load: () => import('./screens/groups/GroupPage.tsx') },
  { kind: 'screen', path: '/projects/*', load: () => import('./screens/projects/ProjectPage.tsx') },
  {
    kind: 'screen',
    path: '/user/access_tokens',
    load: () => import('./screens/personal-access-tokens/PersonalAccessTokensPage.tsx'),
    nav: { label: 'Access tokens', icon: IconKey, activePrefix: '/user/access_tokens' },
  },
  {
    kind: 'screen',
    path: '/admin',
    load: () => import('./screens/admin/AdminPage.tsx'),
    nav: { label: 'Admin', icon: IconLock, activePrefix: '/admin', access: (user) => user.is_admin },
  },
  { kind: 'screen', path: '/admin/*', load: () => import('./screens/admin/AdminPage.tsx') },
  {
    kind: 'screen',
    path: '/security/exports',
    load: () => import('./screens/exports/DashboardExportsPage.tsx'),
    nav: { label: 'Exports', icon: IconInbox, activePrefix: '/security/exports' },
  },
  { kind: 'link', href: '/api/docs', nav: { label: 'API reference', icon: IconBook, external: true } },
];

/** The length of the longest of `activePrefix` that `pathname` is at or under; 0 when none. */
const matchLength = (activePrefix: string | string[], pathname: string) =>
  Math.max(0, ...[activePrefix].flat().map((prefix) => (pathname === prefix || pathname.startsWith(`${prefix}/`) ? prefix.length : 0)));

/**
 * Whether the entry is the one highlighted at `pathname`: at or under one of its prefixes, and
 * no other entry's prefix matches more of it (/groups/new is "New group", not also "Groups").
 */
export const isActiveAt = (activePrefix: string | string[], pathname: string) => {
  const length = matchLength(activePrefix, pathname);
  return length > 0 && !appRoutes.some((r) => r.kind === 'screen' && r.nav && matchLength(r.nav.activePrefix, pathname) > length);
};

export const navEntries = (user: SessionUser) => appRoutes.filter((r) => r.nav && (!r.nav.access || r.nav.access(user)));

/**
 * Sections of a group page, addressed as /groups/<full path>/-/<slug>. The same list draws the
 * group's tabs; a tab is hidden below its role, and its screen shows the forbidden state.
 */
export interface GroupSection {
  slug: string;
  label: string;
  icon: ComponentType<{ size?: number }>;
  /** The ability (server permission rule) the tab needs; none: everyone who can read the page. */
  action?: string;
  load: Screen;
}

export const groupSections: GroupSection[] = [
  { slug: '', label: 'Overview', icon: IconHome, load: () => import('./screens/groups/GroupOverview.tsx') },
  { slug: 'members', label: 'Members', icon: IconGroups, action: 'read_members', load: () => import('./screens/members/GroupMembersPage.tsx') },
  { slug: 'milestones', label: 'Milestones', icon: IconList, load: () => import('./screens/milestones/MilestonesPage.tsx') },
  { slug: 'iterations', label: 'Iterations', icon: IconRefresh, load: () => import('./screens/iterations/IterationsPage.tsx') },
  {
    slug: 'settings',
    label: 'Settings',
    icon: IconSettings,
    action: 'admin_group',
    load: () => import('./screens/groups/GroupSettingsPage.tsx'),
  },
  {
    slug: 'access_tokens',
    label: 'Access tokens',
    icon: IconKey,
    action: 'admin_group',
    load: () => import('./screens/group-access-tokens/AccessTokensPage.tsx'),
  },
  {
    slug: 'push_rules',
    label: 'Push rules',
    icon: IconShieldCheck,
    action: 'admin_group',
    load: () => import('./screens/group-push-rules/PushRulesPage.tsx'),
  },
  {
    slug: 'revoke_token',
    label: 'Leaked tokens',
    icon: IconFlame,
    action: 'revoke_group_tokens',
    load: () => import('./screens/token-revocation/RevokeTokenPage.tsx'),
  },
  {
    slug: 'hooks',
    label: 'Webhooks',
    icon: IconWebhook,
    action: 'admin_hooks',
    load: () => import('./screens/hooks/GroupHooksPage.tsx'),
  },
  { slug: 'deploy_tokens', label: 'Deploy tokens', icon: IconLock, action: 'admin_deploy_tokens', load: () => import('./screens/deploy-tokens/DeployTokensPage.tsx') },
  { slug: 'exports', label: 'Exports', icon: IconInbox, action: 'create_vulnerability_export', load: () => import('./screens/exports/GroupExportsPage.tsx') },
  { slug: 'new_subgroup', label: 'New subgroup', icon: IconFolder, action: 'create_subgroup', load: () => import('./screens/new/NewSubgroupSection.tsx') },
  { slug: 'new_project', label: 'New project', icon: IconRepo, action: 'create_project', load: () => import('./screens/new/NewProjectSection.tsx') },
];

export const groupHref = (fullPath: string, section = '') => `/groups/${fullPath}${section ? `/-/${section}` : ''}`;

/** Sections of a project page, /projects/<path with namespace>[/-/<slug>], drawn and guarded like the group's. */
export const projectSections: GroupSection[] = [
  { slug: '', label: 'Overview', icon: IconHome, load: () => import('./screens/projects/ProjectOverview.tsx') },
  { slug: 'repository', label: 'Repository', icon: IconRepo, action: 'download_code', load: () => import('./screens/repository/RepositoryPage.tsx') },
  { slug: 'members', label: 'Members', icon: IconGroups, action: 'read_members', load: () => import('./screens/members/ProjectMembersPage.tsx') },
  { slug: 'pipelines', label: 'Pipelines', icon: IconRefresh, action: 'read_pipeline', load: () => import('./screens/pipelines/PipelinesPage.tsx') },
  { slug: 'merge_trains', label: 'Merge trains', icon: IconRefresh, action: 'push_code', load: () => import('./screens/merge-trains/MergeTrainsPage.tsx') },
  { slug: 'pipeline_triggers', label: 'Trigger tokens', icon: IconKey, action: 'admin_pipeline_triggers', load: () => import('./screens/pipeline-triggers/PipelineTriggersPage.tsx') },
  { slug: 'vulnerabilities', label: 'Vulnerability report', icon: IconShieldCheck, action: 'read_vulnerability', load: () => import('./screens/vulnerabilities/VulnerabilitiesPage.tsx') },
  { slug: 'dependencies', label: 'Dependencies', icon: IconBook, action: 'read_dependency', load: () => import('./screens/dependencies/DependenciesPage.tsx') },
  {
    slug: 'hooks',
    label: 'Webhooks',
    icon: IconWebhook,
    action: 'admin_hooks',
    load: () => import('./screens/hooks/ProjectHooksPage.tsx'),
  },
  { slug: 'exports', label: 'Exports', icon: IconInbox, action: 'create_vulnerability_export', load: () => import('./screens/exports/ProjectExportsPage.tsx') },
];

/** Sections of the admin area, /admin[/<slug>[/…]], for administrators. */
export const adminSections: GroupSection[] = [
  { slug: '', label: 'Overview', icon: IconHome, load: () => import('./screens/admin/InstanceOverviewPage.tsx') },
  { slug: 'users', label: 'Users', icon: IconGroups, load: () => import('./screens/admin/UsersSection.tsx') },
  { slug: 'settings', label: 'Settings', icon: IconSettings, load: () => import('./screens/admin/SettingsPage.tsx') },
  { slug: 'features', label: 'Feature flags', icon: IconFlag, load: () => import('./screens/features/FeaturesPage.tsx') },
];

export const adminHref = (section = '', ...rest: (string | number)[]) => ['/admin', section, ...rest].filter((p) => p !== '').join('/');

export const projectHref = (pathWithNamespace: string, section = '') => `/projects/${pathWithNamespace}${section ? `/-/${section}` : ''}`;

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
