import { createContext, useContext, type ReactNode } from 'react';
import { Anchor, Breadcrumbs, Button, Group, Stack, Text, Title } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ACCESS_LEVELS } from '../../../shared/src/role-names.ts';
import type { Abilities } from '../../../shared/src/session.ts';
import { roleName } from '../format.ts';
import { SectionScreen, SectionTabs, type GroupSection, type Kind } from './SectionedPage.tsx';
import type { ComponentType } from 'react';
import { ForbiddenState, QueryContent } from './states.tsx';

/*
 * The frame of a group or project page (breadcrumbs, header, section tabs, the chosen section)
 * and the "requires an ability" guard its sections use, written once for both kinds.
 */

/**
 * The caller's role as the console uses it: `can` asks the server's rules, `level` is for wording;
 * the rest is the state of reading it (what QueryContent reads, for the guard below).
 */
export interface CallerRole {
  level: number | undefined;
  can: (action: string) => boolean;
  data: Abilities | undefined;
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => void;
}

/** Reads the caller's role from GET /api/console/{groups,projects}/:id/abilities (administrators word as Owners). */
export function callerRole(abilities: UseQueryResult<Abilities>, user: { is_admin: boolean }): CallerRole {
  const { data } = abilities;
  return {
    level: data ? (user.is_admin ? ACCESS_LEVELS.owner : data.access_level) : undefined,
    can: (action) => data?.abilities[action] === true,
    data,
    isPending: abilities.isPending,
    isError: abilities.isError,
    error: abilities.error,
    refetch: () => void abilities.refetch(),
  };
}

/** What the guard needs to know about the page's resource. */
export interface ResourceScope {
  kind: Kind;
  /** "Acme Corp / Platform", as people read it. */
  name: string;
  overviewHref: string;
  role: CallerRole;
}

const ResourceScopeContext = createContext<ResourceScope | null>(null);

function useResourceScope(): ResourceScope {
  const value = useContext(ResourceScopeContext);
  if (!value) throw new Error('a resource guard outside a group or project page');
  return value;
}

/**
 * The refusal a section shows to someone without the ability it needs: what they lack, what
 * role they have, and whom to ask. Also shown when the server answers 403 to an action.
 */
export function RoleForbidden({ title, hint }: { title: string; hint: string }) {
  const { kind, name, overviewHref, role } = useResourceScope();
  return (
    <ForbiddenState
      title={title}
      action={
        <Button component={Link} to={overviewHref} variant="default">
          Back to the {kind} overview
        </Button>
      }
    >
      {role.level ? `Your role in ${name} is ${roleName(role.level)}.` : `You are not a member of ${name}.`} {hint}
    </ForbiddenState>
  );
}

/**
 * Renders `children` for those the server's rules allow `action` (by default administering the
 * group or project); everyone else gets the forbidden state.
 */
export function RequireAbility({ action, title, hint, children }: { action?: string; title: string; hint: string; children: ReactNode }) {
  const { kind, role } = useResourceScope();
  return (
    <QueryContent query={role} what="your role" loadingLabel="Checking your role…" errorTitle={`Your role in this ${kind} could not be checked`}>
      {() => (role.can(action ?? `admin_${kind}`) ? children : <RoleForbidden title={title} hint={hint} />)}
    </QueryContent>
  );
}

/**
 * The page of a group or project: the breadcrumb trail (the resource last; it is the current
 * page on its overview), its avatar, name, badges and path, the tabs the caller's role opens,
 * and the chosen section's screen.
 */
export function ResourcePage({
  scope,
  trail,
  avatar,
  title,
  badges,
  subtitle,
  sections,
  screens,
  section,
  hrefOf,
}: {
  scope: ResourceScope;
  trail: { label: string; href: string }[];
  avatar: ReactNode;
  title: string;
  badges: ReactNode;
  subtitle: string;
  sections: GroupSection[];
  /** The sections' lazy screens, made once per list with `screensOf`. */
  screens: Map<string, ComponentType>;
  section: string;
  hrefOf: (slug: string) => string;
}) {
  const current = sections.find((s) => s.slug === section);
  return (
    <ResourceScopeContext.Provider value={scope}>
      <Stack gap="lg">
        <nav aria-label="Breadcrumb">
          <Breadcrumbs separator="/" separatorMargin={6}>
            <Anchor component={Link} to="/groups" size="sm">
              Groups
            </Anchor>
            {trail.map((c, i) =>
              i === trail.length - 1 && !section ? (
                <Text key={c.href} size="sm" c="dimmed" aria-current="page">
                  {c.label}
                </Text>
              ) : (
                <Anchor key={c.href} component={Link} to={c.href} size="sm">
                  {c.label}
                </Anchor>
              ),
            )}
            {current?.slug ? (
              <Text size="sm" c="dimmed" aria-current="page">
                {current.label}
              </Text>
            ) : null}
          </Breadcrumbs>
        </nav>

        <Group gap="md" wrap="nowrap" align="center">
          {avatar}
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Group gap="sm" wrap="wrap">
              <Title order={1} size="h2">
                {title}
              </Title>
              {badges}
            </Group>
            <Text size="sm" c="dimmed" ff="monospace" truncate>
              {subtitle}
            </Text>
          </Stack>
        </Group>

        <SectionTabs sections={sections} section={section} can={scope.role.can} pending={scope.role.isPending} kind={scope.kind} hrefOf={hrefOf}>
          <SectionScreen screens={screens} section={section} kind={scope.kind} />
        </SectionTabs>
      </Stack>
    </ResourceScopeContext.Provider>
  );
}
