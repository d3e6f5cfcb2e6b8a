import { Anchor, Badge, Group, Stack, Text } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { Link } from 'react-router';
import type { User } from '../../../../shared/src/users.ts';
import { formatDate } from '../../format.ts';
import { adminHref } from '../../paths.ts';

const col = createColumnHelper<User>();

/** What an account is, as badges: blocked or deactivated, administrator, bot, the viewer's own. */
export function UserBadges({ user, selfId }: { user: User; selfId: number }) {
  return (
    <Group gap={4} wrap="wrap">
      {user.state === 'active' ? (
        <Badge color="green" variant="light" size="sm" tt="none">
          Active
        </Badge>
      ) : (
        <Badge color="red" variant="light" size="sm" tt="none">
          {user.state === 'blocked' ? 'Blocked' : 'Deactivated'}
        </Badge>
      )}
      {user.is_admin && (
        <Badge color="grape" variant="light" size="sm" tt="none">
          Administrator
        </Badge>
      )}
      {user.bot && (
        <Badge color="gray" variant="light" size="sm" tt="none">
          Bot
        </Badge>
      )}
      {user.id === selfId && (
        <Badge color="blue" variant="outline" size="sm" tt="none">
          You
        </Badge>
      )}
    </Group>
  );
}

/** Columns of the admin area's user list; sorting happens on the server, by the column's `sortKey`. */
export const userColumns = (selfId: number) => [
  col.accessor('name', {
    header: 'Name',
    meta: { sortKey: 'name' },
    cell: ({ row }) => (
      <Stack gap={0} miw={160}>
        <Anchor component={Link} to={adminHref('users', row.original.id)} fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
          {row.original.name}
        </Anchor>
        <Text size="xs" c="dimmed">
          @{row.original.username}
        </Text>
      </Stack>
    ),
  }),
  col.accessor('email', {
    header: 'Email',
    cell: (info) => (
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {info.getValue() ?? '—'}
      </Text>
    ),
  }),
  col.display({ id: 'status', header: 'Status', meta: { width: 200 }, cell: ({ row }) => <UserBadges user={row.original} selfId={selfId} /> }),
  col.accessor('created_at', {
    id: 'created',
    header: 'Created',
    meta: { sortKey: 'created', hideNarrow: true, width: 130 },
    cell: (info) => <Text size="sm">{formatDate(info.getValue())}</Text>,
  }),
  col.accessor('last_sign_in_at', {
    header: 'Last sign-in',
    meta: { hideNarrow: true, width: 130 },
    cell: (info) => <Text size="sm">{info.getValue() ? formatDate(info.getValue()) : 'Never'}</Text>,
  }),
];
