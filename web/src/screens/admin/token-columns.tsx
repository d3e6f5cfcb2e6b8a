import { Button, Text } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import type { PersonalAccessToken } from '../../../../shared/src/personal-access-tokens.ts';
import { formatDate } from '../../components/format.ts';
import { ExpiryCell, ScopeBadges } from '../group-access-tokens/columns.tsx';

const col = createColumnHelper<PersonalAccessToken>();

/** Columns of a user's personal access tokens; `onRevoke` adds the Revoke button (active tokens only). */
export function personalTokenColumns(onRevoke: ((token: PersonalAccessToken) => void) | null) {
  const columns = [
    col.accessor('name', {
      header: 'Token',
      cell: (info) => (
        <Text size="sm" fw={600} maw={280} style={{ overflowWrap: 'anywhere' }}>
          {info.getValue()}
        </Text>
      ),
    }),
    col.accessor('scopes', {
      header: 'Scopes',
      cell: (info) => <ScopeBadges scopes={info.getValue()} />,
    }),
    col.accessor('created_at', { header: 'Created', meta: { hideNarrow: true, width: 120 }, cell: (info) => <Text size="sm">{formatDate(info.getValue())}</Text> }),
    col.accessor('last_used_at', {
      header: 'Last used',
      meta: { hideNarrow: true, width: 120 },
      cell: (info) => <Text size="sm">{info.getValue() ? formatDate(info.getValue()) : 'Never'}</Text>,
    }),
    col.accessor('expires_at', { header: 'Expires', meta: { width: 160 }, cell: ({ row }) => <ExpiryCell token={row.original} /> }),
  ];
  if (!onRevoke) return columns;
  return [
    ...columns,
    col.display({
      id: 'actions',
      header: () => <span className="gh-visually-hidden">Actions</span>,
      meta: { width: 100 },
      cell: ({ row }) => (
        <Button size="compact-sm" variant="light" color="red" onClick={() => onRevoke(row.original)} aria-label={`Revoke ${row.original.name}`}>
          Revoke
        </Button>
      ),
    }),
  ];
}
