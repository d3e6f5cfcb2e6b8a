import { lazy, Suspense, useEffect, useRef, type ComponentType, type ReactNode } from 'react';
import { Button, Skeleton, Tabs } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { Link, useNavigate } from 'react-router';
import { onDemand } from './on-demand.tsx';
import { SectionsMenuButton } from './SectionsMenuButton.tsx';
import { ForbiddenState, LoadingState, NotFoundState } from './states.tsx';

/*
 * What group and project pages share: the states of loading the resource, the tabs drawn from
 * their list of sections (sections.ts), and the chosen section's screen.
 */
export type Kind = 'group' | 'project';

/**
 * One section of a sectioned page (the lists are in sections.ts): its tab, and the screen it
 * loads. The name is the group page's, the first to have sections; projects and the admin area
 * use the same shape.
 */
export interface GroupSection {
  slug: string;
  label: string;
  icon: ComponentType<{ size?: number }>;
  /** The ability (server permission rule) the tab needs; none: everyone who can read the page. */
  action?: string;
  load: () => Promise<{ default: ComponentType }>;
}

/** What a sectioned page is of, as its tabs and not-found state name it (the admin area has sections too). */
type Place = Kind | 'admin area';
const OVERVIEW = 'overview';

/** The lazy screen of each section, made once per list. */
export const screensOf = (sections: GroupSection[]) => new Map<string, ComponentType>(sections.map((s) => [s.slug, lazy(s.load)]));

/** How a group or project page words the states of loading its resource: props for QueryContent. */
export function resourceStates(kind: Kind, fullPath: string) {
  return {
    what: kind,
    errorTitle: `The ${kind} could not be loaded`,
    notFound: (
      <NotFoundState
        title={`${kind === 'group' ? 'Group' : 'Project'} not found`}
        action={
          <Button component={Link} to="/groups" variant="default">
            Back to groups
          </Button>
        }
      >
        There is no {kind} at <b>{fullPath}</b>, or you are not allowed to see it.
      </NotFoundState>
    ),
    forbidden: <ForbiddenState>You are not allowed to see this {kind}.</ForbiddenState>,
  };
}

/** From this width on, a page's sections are a column of tabs beside its screen, each in view. */
const SIDE_TABS = '(min-width: 62em)';

/**
 * The sections the server's rules open to the caller, as tabs over the chosen section's screen
 * (`children`, the panel of the current tab). Every section is in view or one click away:
 * - on a wide screen, a column of tabs beside the screen (13 sections fit in its height);
 * - on a narrow one, a row that scrolls sideways (the current tab kept in view) and, after it,
 *   an "All sections" menu that lists every one.
 * While the role loads, the tabs that need one are held by placeholders of their size, so the
 * tabs do not jump when they appear.
 */
export function SectionTabs({
  sections,
  section,
  can,
  pending,
  kind,
  hrefOf,
  children,
}: {
  sections: GroupSection[];
  section: string;
  can: (action: string) => boolean;
  pending: boolean;
  kind: Place;
  hrefOf: (slug: string) => string;
  children: ReactNode;
}) {
  const navigate = useNavigate();
  const tabList = useRef<HTMLDivElement>(null);
  const side = useMediaQuery(SIDE_TABS, true, { getInitialValueInEffect: false });
  const tabs = sections.filter((s) => !s.action || can(s.action));
  const waiting = pending ? sections.filter((s) => s.action) : [];
  const value = section || OVERVIEW;
  const hasTab = tabs.some((s) => (s.slug || OVERVIEW) === value);
  const name = `${kind.charAt(0).toUpperCase()}${kind.slice(1)} sections`;
  useEffect(() => {
    tabList.current?.querySelector('[data-active]')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [section, tabs.length, side]);
  const list = (
    <Tabs.List ref={tabList} className={side ? 'gh-tabs-side' : 'gh-tabs-scroll'} aria-label={name}>
      {tabs.map((s) => (
        <Tabs.Tab
          key={s.slug}
          value={s.slug || OVERVIEW}
          leftSection={<s.icon size={16} />}
          // Only the current tab has its panel on the page; the others lead to another URL.
          {...((s.slug || OVERVIEW) !== value && { 'aria-controls': undefined })}
        >
          {s.label}
        </Tabs.Tab>
      ))}
      {waiting.map((s) => (
        <Skeleton key={s.slug} aria-hidden="true" height={20} width={`${s.label.length + 4}ch`} my={10} mx="md" radius="sm" />
      ))}
    </Tabs.List>
  );
  const panel = hasTab ? (
    <Tabs.Panel value={value} className="gh-tabs-panel">
      {children}
    </Tabs.Panel>
  ) : (
    <div className="gh-tabs-panel">{children}</div>
  );
  return (
    <Tabs
      // Mantine needs a non-empty tab value; the overview's slug is empty.
      value={value}
      onChange={(v) => navigate(hrefOf(v === OVERVIEW ? '' : (v ?? '')))}
      keepMounted={false}
      orientation={side ? 'vertical' : 'horizontal'}
    >
      {/* One tree at every width: a resize that moves the tabs must not mount the screen again (and lose its state). */}
      <div className={side ? 'gh-sections gh-sections-side' : 'gh-sections'}>
        <div className="gh-sections-nav">
          {list}
          {!side && (
            <SectionsMenu
              tabs={tabs}
              isCurrent={(slug) => (slug || OVERVIEW) === value}
              kind={kind}
              name={name}
              hrefOf={hrefOf}
              trigger={(handlers) => <SectionsMenuButton kind={kind} aria-expanded={false} {...handlers} />}
            />
          )}
        </div>
        {panel}
      </div>
    </Tabs>
  );
}

/** Every section in a menu, for narrow screens; its code loads when it is first opened (on-demand.tsx). */
const SectionsMenu = onDemand(() => import('./SectionsMenu.tsx'));

/** The chosen section's screen, or a not-found state for a section the page does not have. */
export function SectionScreen({ screens, section, kind }: { screens: Map<string, ComponentType>; section: string; kind: Place }) {
  const Screen = screens.get(section);
  if (!Screen) {
    return (
      <NotFoundState title={`No such page in this ${kind}`}>
        This {kind} has no “{section}” page.
      </NotFoundState>
    );
  }
  return (
    <Suspense fallback={<LoadingState />}>
      {/* The lazy screens are made once, at module load; the rule cannot see that through the Map. */}
      {/* eslint-disable-next-line react-hooks/static-components */}
      <Screen />
    </Suspense>
  );
}
