import { Group, Stack, Text } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { Link } from 'react-router';
import type { GroupListItem } from '../../../../shared/src/groups.ts';
import { GroupAvatar } from '../../components/GroupAvatar.tsx';
import { VisibilityBadge } from '../../components/VisibilityBadge.tsx';
import { formatDate } from '../../format.ts';
import { groupHref } from '../../paths.ts';

const col = createColumnHelper<GroupListItem>();

/** Columns of the groups table; sorting happens on the server, by the column's `sortKey` (the API's order_by). */
export const groupColumns = [
  col.accessor('name', {
    header: 'Name',
    meta: { sortKey: 'name' },
    cell: ({ row }) => {
      const g = row.original;
      return (
        <Group gap="sm" wrap="nowrap">
          <GroupAvatar id={g.id} name={g.name} url={g.avatar_url} size={34} />
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Link className="gh-table-link" to={groupHref(g.full_path)}>
              {g.name}
            </Link>
            <Text size="xs" c="dimmed" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
              {g.full_path}
            </Text>
          </Stack>
        </Group>
      );
    },
  }),
  col.accessor('visibility', {
    header: 'Visibility',
    meta: { width: 112 },
    cell: (info) => <VisibilityBadge visibility={info.getValue()} />,
  }),
  col.accessor('description', {
    header: 'Description',
    meta: { hideNarrow: true },
    cell: (info) =>
      info.getValue() ? (
        <Text size="sm" lineClamp={2}>
          {info.getValue()}
        </Text>
      ) : (
        <Text size="sm" c="dimmed">
          No description
        </Text>
      ),
  }),
  col.accessor('created_at', {
    id: 'created',
    header: 'Created',
    // IDs grow with creation, so ordering by id is ordering by creation date.
    meta: { sortKey: 'id', width: 130, hideNarrow: true },
    cell: (info) => (
      <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
        {formatDate(info.getValue())}
      </Text>
    ),
  }),
];
