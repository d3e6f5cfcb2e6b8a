import { ACCESS_LEVELS } from '../../../../shared/src/roles.ts';
import { Anchor, Breadcrumbs, Group, Stack, Text, Title } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { useGroup, useGroupRole } from '../../api/groups.ts';
import { useCurrentUser } from '../../api/session.ts';
import { GroupAvatar } from '../../components/GroupAvatar.tsx';
import { VisibilityBadge } from '../../components/VisibilityBadge.tsx';
import { resourceState, screensOf, SectionScreen, SectionTabs } from '../../components/SectionedPage.tsx';
import { usePageTitle } from '../../hooks/usePageTitle.ts';
import { groupHref, groupSections, parseGroupSplat } from '../../routes.ts';
import { GroupContext, type GroupContextValue } from './group-context.ts';

const sectionScreens = screensOf(groupSections);

/** /groups/<full path>[/-/<section>]: the group's header, its tabs and the chosen section. */
/** The caller's role as the console uses it: the server's abilities, and a level for wording. */
function roleOf(role: ReturnType<typeof useGroupRole>, user: { is_admin: boolean }) {
  const level = role.data ? (user.is_admin ? ACCESS_LEVELS.owner : role.data.access_level) : undefined;
  return { level, can: (action: string) => role.data?.abilities[action] === true, isPending: role.isPending, error: role.error, refetch: () => void role.refetch() };
}

export default function GroupPage() {
  const { '*': splat = '' } = useParams();
  const { fullPath, section } = parseGroupSplat(splat);
  const user = useCurrentUser();
  const group = useGroup(fullPath);
  const role = useGroupRole(group.data, user);
  const current = groupSections.find((s) => s.slug === section);
  usePageTitle(group.data ? `${current && current.slug ? `${current.label} · ` : ''}${group.data.full_name}` : 'Group');

  const ctx: GroupContextValue | null = group.data
    ? { group: group.data, role: roleOf(role, user) }
    : null;

  const state = resourceState(group, 'group', fullPath);
  if (state || !group.data) return state;

  const g = group.data;
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

        <SectionTabs sections={groupSections} section={section} can={roleOf(role, user).can} kind="group" hrefOf={(slug) => groupHref(g.full_path, slug)} />

        <SectionScreen screens={sectionScreens} section={section} kind="group" />
      </Stack>
    </GroupContext.Provider>
  );
}
