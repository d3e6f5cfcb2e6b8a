import { Badge, Button, Group, Stack, Text, Tooltip } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import dayjs from 'dayjs';
import type { GroupAccessToken } from '../../../../shared/src/group-access-tokens.ts';
import { formatDate, roleName } from '../../components/format.ts';
import { expiryStatus, inDays } from './expiry.ts';

const col = createColumnHelper<GroupAccessToken>();

const fullDateTime = (iso: string) => dayjs(iso).format('MMM D, YYYY HH:mm');

function DateCell({ iso, empty }: { iso: string | null; empty: string }) {
  if (!iso) {
    return (
      <Text size="sm" c="dimmed">
        {empty}
      </Text>
    );
  }
  return (
    <Tooltip label={fullDateTime(iso)} openDelay={300}>
      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
        {formatDate(iso)}
      </Text>
    </Tooltip>
  );
}

export function ExpiryCell({ token }: { token: Pick<GroupAccessToken, 'expires_at' | 'revoked'> }) {
  const status = expiryStatus(token.expires_at);
  return (
    <Stack gap={4} align="flex-start" miw={130}>
      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
        {token.expires_at ? formatDate(token.expires_at) : 'Never'}
      </Text>
      {token.revoked ? (
        <Badge color="gray" variant="light" size="sm" tt="none">
          Revoked
        </Badge>
      ) : status.kind === 'expired' ? (
        <Badge color="red" variant="light" size="sm" tt="none">
          Expired
        </Badge>
      ) : status.kind === 'soon' ? (
        <Badge color="orange" variant="light" size="sm" tt="none" style={{ overflow: 'visible' }}>
          Expires {inDays(status.days)}
        </Badge>
      ) : null}
    </Stack>
  );
}

/** A token's scopes as badges, in a table cell. */
export function ScopeBadges({ scopes }: { scopes: string[] }) {
  return (
    <Group gap={4} maw={240} miw={130}>
      {scopes.map((s) => (
        <Badge key={s} variant="outline" color="gray" size="sm" tt="none" ff="monospace" fw={500}>
          {s}
        </Badge>
      ))}
    </Group>
  );
}

export interface RowActions {
  onRotate: (token: GroupAccessToken) => void;
  onRevoke: (token: GroupAccessToken) => void;
}

/** Columns of the access-token table; sorting happens on the server, by the column's `sortKey`. */
export function tokenColumns(actions: RowActions | null) {
  const columns = [
    col.accessor('name', {
      header: 'Token',
      meta: { sortKey: 'name' },
      cell: ({ row }) => (
        <Stack gap={2} maw={280} miw={140}>
          <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
            {row.original.name}
          </Text>
          {row.original.description && (
            <Text size="xs" c="dimmed" lineClamp={2}>
              {row.original.description}
            </Text>
          )}
        </Stack>
      ),
    }),
    col.accessor('access_level', {
      header: 'Role',
      meta: { width: 110 },
      cell: (info) => <Text size="sm">{roleName(info.getValue())}</Text>,
    }),
    col.accessor('scopes', {
      header: 'Scopes',
      cell: (info) => <ScopeBadges scopes={info.getValue()} />,
    }),
    col.accessor('created_at', {
      id: 'created',
      header: 'Created',
      meta: { sortKey: 'created', hideNarrow: true, width: 120 },
      cell: (info) => <DateCell iso={info.getValue()} empty="—" />,
    }),
    col.accessor('last_used_at', {
      id: 'last_used',
      header: 'Last used',
      meta: { sortKey: 'last_used', hideNarrow: true, width: 120 },
      cell: (info) => <DateCell iso={info.getValue()} empty="Never" />,
    }),
    col.accessor('expires_at', {
      id: 'expires',
      header: 'Expires',
      meta: { sortKey: 'expires', width: 160 },
      cell: ({ row }) => <ExpiryCell token={row.original} />,
    }),
  ];
  if (!actions) return columns;
  return [
    ...columns,
    col.display({
      id: 'actions',
      header: () => <span className="gh-visually-hidden">Actions</span>,
      meta: { width: 170 },
      cell: ({ row }) => (
        <Group gap={6} wrap="nowrap" justify="flex-end">
          <Button size="compact-sm" variant="default" onClick={() => actions.onRotate(row.original)} aria-label={`Rotate ${row.original.name}`}>
            Rotate
          </Button>
          <Button size="compact-sm" variant="light" color="red" onClick={() => actions.onRevoke(row.original)} aria-label={`Revoke ${row.original.name}`}>
            Revoke
          </Button>
        </Group>
      ),
    }),
  ];
}
