import { memo, Suspense, useRef } from 'react';
import { AppShell, Box, Burger, Group, NavLink, Text, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Link, Outlet, useLocation } from 'react-router';
import { useCurrentUser, type SessionUser } from '../api/session.ts';
import { isActiveAt, navEntries } from '../routes.ts';
import { IconExternal, IconGatehouse } from '../components/icons.tsx';
import { onDemand } from '../components/on-demand.tsx';
import { AccountButton } from './AccountButton.tsx';
import { LoadingState } from '../components/states.tsx';
import { useHeadingFocus } from './heading-focus.ts';

/** The signed-in frame: header with the account menu, a navbar drawn from the route list, the screen. */
export function AppLayout() {
  const [opened, { toggle, close }] = useDisclosure(false);
  const user = useCurrentUser();
  const main = useRef<HTMLElement>(null);

  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 232, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      <a
        href="#main"
        className="gh-skip-link"
        onClick={(e) => {
          e.preventDefault();
          main.current?.focus();
        }}
      >
        Skip to content
      </a>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={opened ? 'Close navigation' : 'Open navigation'} />
            <UnstyledButton component={Link} to="/groups" aria-label="Gatehouse home">
              <Group gap={8} wrap="nowrap">
                <Box bg="brand.7" c="white" style={{ borderRadius: 8, display: 'grid', placeItems: 'center', width: 30, height: 30 }}>
                  <IconGatehouse size={18} />
                </Box>
                <Text fw={700} size="lg">
                  Gatehouse
                </Text>
              </Group>
            </UnstyledButton>
          </Group>
          <AccountMenu user={user} trigger={(handlers) => <AccountButton user={user} aria-expanded={false} {...handlers} />} />
        </Group>
      </AppShell.Header>

      <AppShell.Navbar p="sm" aria-label="Main navigation">
        {/* The browser's own scrolling: Mantine's ScrollArea would add its code to every first load. */}
        <AppShell.Section grow style={{ overflowY: 'auto' }}>
          <NavEntries user={user} onNavigate={close} />
        </AppShell.Section>
        <AppShell.Section>
          <Text size="xs" c="dimmed" px="sm" py={6}>
            Signed in as <b>{user.username}</b>
          </Text>
        </AppShell.Section>
      </AppShell.Navbar>

      <HeadingFocus main={main} />
      <AppShell.Main id="main" ref={main} tabIndex={-1} style={{ outline: 'none' }}>
        <Box maw={1180} mx="auto" pb="xl">
          <Suspense fallback={<LoadingState />}>
            <Outlet />
          </Suspense>
        </Box>
      </AppShell.Main>
    </AppShell>
  );
}

/** The account menu's code loads when the menu is first opened (on-demand.tsx). */
const AccountMenu = onDemand(() => import('./AccountMenu.tsx'));

/** Moves focus to the new screen's heading on each navigation; reads the location apart, like NavEntries. */
function HeadingFocus({ main }: { main: React.RefObject<HTMLElement | null> }) {
  useHeadingFocus(main, useLocation().pathname);
  return null;
}

/**
 * The navigation, one of the two parts of the frame that follow the URL (which entry is current): it
 * alone reads the location, so a change of URL (a list's filter) draws it, not the whole frame.
 */
const NavEntries = memo(function NavEntries({ user, onNavigate }: { user: SessionUser; onNavigate: () => void }) {
  const { pathname } = useLocation();
  return navEntries(user).map((entry) => {
    const Icon = entry.nav!.icon;
    if (entry.kind === 'link') {
      return (
        <NavLink
          key={entry.href}
          href={entry.href}
          target="_blank"
          rel="noopener"
          label={entry.nav.label}
          leftSection={<Icon size={18} />}
          rightSection={<IconExternal size={14} />}
          onClick={onNavigate}
        />
      );
    }
    const active = isActiveAt(entry.nav!.activePrefix, pathname);
    return (
      <NavLink
        key={entry.path}
        component={Link}
        to={entry.path}
        label={entry.nav!.label}
        leftSection={<Icon size={18} />}
        active={active}
        aria-current={active ? 'true' : undefined}
        onClick={onNavigate}
        fw={500}
      />
    );
  });
});
