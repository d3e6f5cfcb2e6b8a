import { Badge, Group, Stack, Text } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import type { Branch, Commit } from '../../../../shared/src/branches.ts';
import type { Tag } from '../../../../shared/src/tags.ts';
import { formatDate } from '../../format.ts';

/** A ref's last commit: its title, short SHA, author and date. */
function LastCommit({ commit }: { commit: Commit }) {
  return (
    <Stack gap={0} miw={220}>
      <Text size="sm" lineClamp={1} title={commit.title}>
        {commit.title}
      </Text>
      <Text size="xs" c="dimmed">
        <Text span ff="monospace" size="xs">
          {commit.short_id}
        </Text>{' '}
        · {commit.author_name} · {formatDate(commit.committed_date)}
      </Text>
    </Stack>
  );
}

const branchCol = createColumnHelper<Branch>();
export const branchColumns = [
  branchCol.accessor('name', {
    header: 'Branch',
    cell: ({ row: { original: b } }) => (
      <Group gap={6} wrap="nowrap">
        <Text size="sm" ff="monospace" fw={600}>
          {b.name}
        </Text>
        {b.default && (
          <Badge size="sm" variant="light" tt="none">
            default
          </Badge>
        )}
        {b.protected && (
          <Badge size="sm" variant="outline" color="gray" tt="none" title="Maintainers push; no force-push or deletion">
            protected
          </Badge>
        )}
        {b.merged && (
          <Badge size="sm" variant="outline" color="teal" tt="none">
            merged
          </Badge>
        )}
      </Group>
    ),
  }),
  branchCol.accessor('commit', { header: 'Last commit', cell: (i) => <LastCommit commit={i.getValue()} /> }),
];

const tagCol = createColumnHelper<Tag>();
export const tagColumns = [
  tagCol.accessor('name', {
    header: 'Tag',
    cell: ({ row: { original: t } }) => (
      <Stack gap={0}>
        <Text size="sm" ff="monospace" fw={600}>
          {t.name}
        </Text>
        {t.message && (
          <Text size="xs" c="dimmed" lineClamp={1}>
            {t.message}
          </Text>
        )}
      </Stack>
    ),
  }),
  tagCol.accessor('commit', { header: 'Commit', cell: (i) => <LastCommit commit={i.getValue()} /> }),
];
