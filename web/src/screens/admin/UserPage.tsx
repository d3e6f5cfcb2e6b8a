import { Anchor, Avatar, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import type { User } from '../../../../shared/src/users.ts';
import { useCurrentUser } from '../../api/session.ts';
import { useUser } from '../../api/users.ts';
import { formatDate } from '../../format.ts';
import { IconArrowLeft } from '../../components/icons.tsx';
import { NotFoundState, QueryContent } from '../../components/states.tsx';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { adminHref } from '../../paths.ts';
import { AdminForbidden } from './admin-states.tsx';
import { UserAccessSection } from './UserAccessSection.tsx';
import { UserTokensSection } from './UserTokensSection.tsx';
import { UserBadges } from './user-columns.tsx';

function Detail({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <Text component="dt" size="xs" c="dimmed">
        {label}
      </Text>
      <Text component="dd" m={0} size="sm" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}

/** /admin/users/<id>: one account: who it is, block or unblock it, its administrator access, its personal access tokens. */
export default function UserPage({ userId }: { userId: number }) {
  const me = useCurrentUser();
  const user = useUser(userId);
  usePageTitle(user.data ? `${user.data.name} · Users · Admin area` : 'User · Admin area');

  const back = (
    <Anchor component={Link} to={adminHref('users')} size="sm">
      <Group gap={4} component="span">
        <IconArrowLeft size={14} /> All users
      </Group>
    </Anchor>
  );
  return (
    // The page's parts stand further apart than the link back and a state.
    <Stack gap={user.data ? 'lg' : 'md'}>
      {back}
      <QueryContent
        query={user}
        what="the user"
        forbidden={<AdminForbidden />}
        notFound={<NotFoundState title="User not found">There is no user with ID {userId}. It may have been deleted.</NotFoundState>}
      >
        {(u) => <UserDetails user={u} selfId={me.id} />}
      </QueryContent>
    </Stack>
  );
}

function UserDetails({ user: u, selfId }: { user: User; selfId: number }) {
  return (
    <>
      <Group gap="md" wrap="nowrap">
        <Avatar size={56} radius="xl" color="brand" src={u.avatar_url} alt="">
          {u.name.slice(0, 1).toUpperCase()}
        </Avatar>
        <Stack gap={4} style={{ minWidth: 0 }}>
          <Title order={2} size="h3">
            {u.name}
          </Title>
          <Group gap="xs">
            <Text size="sm" c="dimmed" ff="monospace">
              @{u.username} · ID {u.id}
            </Text>
            <UserBadges user={u} selfId={selfId} />
          </Group>
        </Stack>
      </Group>

      <Paper withBorder radius="md" p="md">
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="md" component="dl" m={0}>
          <Detail label="Email">{u.email ?? '—'}</Detail>
          <Detail label="Created">{formatDate(u.created_at)}</Detail>
          <Detail label="Last sign-in">{u.last_sign_in_at ? formatDate(u.last_sign_in_at) : 'Never'}</Detail>
          <Detail label="Last activity">{u.last_activity_on ? formatDate(u.last_activity_on) : 'None'}</Detail>
        </SimpleGrid>
      </Paper>

      <UserAccessSection user={u} isSelf={u.id === selfId} />
      <UserTokensSection user={u} />
    </>
  );
}
