import { lazy, Suspense, useEffect, useRef } from 'react';
import { Anchor, Breadcrumbs, Button, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { Link, useNavigate, useParams } from 'react-router';
import { useGroup, useGroupRole } from '../../api/groups.ts';
import { useCurrentUser } from '../../api/session.ts';
import { GroupAvatar } from '../../components/GroupAvatar.tsx';
import { VisibilityBadge } from '../../components/VisibilityBadge.tsx';
import { ErrorState, ForbiddenState, LoadingState, NotFoundState } from '../../components/states.tsx';
import { usePageTitle } from '../../hooks/usePageTitle.ts';
import { groupHref, groupSections, parseGroupSplat } from '../../routes.ts';
import { GroupContext, type GroupContextValue } from './group-context.ts';

const OVERVIEW = 'overview';
const sectionScreens = new Map(groupSections.map((s) => [s.slug, lazy(s.load)]));

/** /groups/<full path>[/-/<section>]: the group's header, its tabs and the chosen section. */
export default function GroupPage() {
  const { '*': splat = '' } = useParams();
  const { fullPath, section } = parseGroupSplat(splat);
  const user = useCurrentUser();
  const navigate = useNavigate();
  const group = useGroup(fullPath);
  const role = useGroupRole(group.data, user);
  const current = groupSections.find((s) => s.slug === section);
  const tabList = useRef<HTMLDivElement>(null);
  // On a narrow screen the tabs scroll sideways: keep the current one in view.
  useEffect(() => {
    tabList.current?.querySelector('[data-active]')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [section, role.data]);
  usePageTitle(group.data ? `${current && current.slug ? `${current.label} · ` : ''}${group.data.full_name}` : 'Group');

  const ctx: GroupContextValue | null = group.data
    ? { group: group.data, role: { level: role.data, isPending: role.isPending, error: role.error, refetch: () => void role.refetch() } }
    : null;

  if (group.isPending) return <LoadingState label="Loading group…" />;
  if (group.isError) {
    if (group.error.status === 404) {
      return (
        <NotFoundState
          title="Group not found"
          action={
            <Button component={Link} to="/groups" variant="default">
              Back to groups
            </Button>
          }
        >
          There is no group at <b>{fullPath}</b>, or you are not allowed to see it.
        </NotFoundState>
      );
    }
    if (group.error.status === 403) return <ForbiddenState>You are not allowed to see this group.</ForbiddenState>;
    return <ErrorState title="The group could not be loaded" error={group.error} onRetry={() => void group.refetch()} />;
  }

  const g = group.data;
  const tabs = groupSections.filter((s) => !s.minRole || (role.data ?? 0) >= s.minRole);
  const Screen = current ? sectionScreens.get(current.slug) : undefined;
  const segments = g.full_path.split('/');
  const names = g.full_name.split(' / ');

  return (
    <GroupContext.Provider value={ctx}>
      <Stack gap="lg">
        <nav aria-label="Breadcrumb">
        <Breadcrumbs separator="/" separatorMargin={6}>
          <Anchor component={Link} to="/groups" size="sm">
            Groups
          </Anchor>
          {segments.map((_, i) => {
            const path = segments.slice(0, i + 1).join('/');
            const label = names[i] ?? segments[i];
            return i === segments.length - 1 && !section ? (
              <Text key={path} size="sm" c="dimmed" aria-current="page">
                {label}
              </Text>
            ) : (
              <Anchor key={path} component={Link} to={groupHref(path)} size="sm">
                {label}
              </Anchor>
            );
          })}
          {current?.slug ? (
            <Text size="sm" c="dimmed" aria-current="page">
              {current.label}
            </Text>
          ) : null}
        </Breadcrumbs>
        </nav>

        <Group gap="md" wrap="nowrap" align="center">
          <GroupAvatar id={g.id} name={g.name} url={g.avatar_url} size={56} />
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Group gap="sm" wrap="wrap">
              <Title order={1} size="h2">
                {g.name}
              </Title>
              <VisibilityBadge visibility={g.visibility} />
            </Group>
            <Text size="sm" c="dimmed" ff="monospace" truncate>
              {g.full_path} · ID {g.id}
            </Text>
          </Stack>
        </Group>

        <Tabs
          // Mantine needs a non-empty tab value; the overview's slug is empty.
          value={section || OVERVIEW}
          onChange={(value) => navigate(groupHref(g.full_path, value === OVERVIEW ? '' : (value ?? '')))}
          keepMounted={false}
          aria-label="Group sections"
        >
          <Tabs.List ref={tabList} className="gh-tabs-scroll">
            {tabs.map((s) => (
              <Tabs.Tab key={s.slug} value={s.slug || OVERVIEW} leftSection={<s.icon size={16} />}>
                {s.label}
              </Tabs.Tab>
            ))}
          </Tabs.List>
        </Tabs>

        {Screen ? (
          <Suspense fallback={<LoadingState />}>
            {/* The lazy screens are made once, at module load; the rule cannot see that through the Map. */}
            {/* eslint-disable-next-line react-hooks/static-components */}
            <Screen />
          </Suspense>
        ) : (
          <NotFoundState title="No such page in this group">
            This group has no “{section}” page.
          </NotFoundState>
        )}
      </Stack>
    </GroupContext.Provider>
  );
}
