import type { ComponentType } from 'react';
import type { SessionUser } from './api/session.ts';
import { IconBook, IconGroups, IconInbox, IconKey, IconLock, IconPlus } from './components/icons.tsx';

/**
 * The one list of the console's screens: the router is built from it and the navigation is
 * drawn from it, so a screen cannot exist without its entry nor an entry without its screen.
 * Only the router and the layout import it: the tabs of group, project and admin pages are in
 * sections.ts, and links are built with paths.ts, so no screen imports the list that loads it.
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
  { kind: 'screen', path: '/security/vulnerabilities', load: () => import('./screens/vulnerabilities/DashboardVulnerabilitiesPage.tsx') },
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
