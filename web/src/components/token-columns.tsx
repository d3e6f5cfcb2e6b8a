import { Badge, Button, Group, Stack, Text, Tooltip } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { formatDate, fullDateTimeToMinute, roleName } from '../format.ts';
import { expiryStatus, inDays } from './token-expiry.ts';

/** What a token list shows of a token: group access tokens (with a role) and personal ones alike. */
export interface TokenRow {
  id: number;
  name: string;
  description?: string | null;
  scopes: readonly string[];
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
  revoked: boolean;
  access_level?: number;
  /** Set on a revoked token that a rotation revoked (the console asks; the platform's token does not say). */
  rotation?: { rotated_to: number; rotated_at: string };
}

function DateCell({ iso, empty }: { iso: string | null; empty: string }) {
  if (!iso) {
    return (
      <Text size="sm" c="dimmed">
        {empty}
      </Text>
    );
  }
  return (
    <Tooltip label={fullDateTimeToMinute(iso)} openDelay={300}>
      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
        {formatDate(iso)}
      </Text>
    </Tooltip>
  );
}

export function ExpiryCell({ token }: { token: Pick<TokenRow, 'expires_at' | 'revoked' | 'rotation'> }) {
  const status = expiryStatus(token.expires_at);
  return (
    <Stack gap={4} align="flex-start" miw={130}>
      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
        {token.expires_at ? formatDate(token.expires_at) : 'Never'}
      </Text>
      {token.revoked && token.rotation ? (
        <Tooltip label={`Replaced by a new token (ID ${token.rotation.rotated_to}) on ${fullDateTimeToMinute(token.rotation.rotated_at)}`} openDelay={300}>
          <Badge color="blue" variant="light" size="sm" tt="none" style={{ overflow: 'visible' }}>
            Rotated {formatDate(token.rotation.rotated_at)}
          </Badge>
        </Tooltip>
      ) : token.revoked ? (
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
export function ScopeBadges({ scopes }: { scopes: readonly string[] }) {
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

export interface RowActions<T> {
  /** Absent where a token cannot be rotated from this list (an administrator's view of a user's tokens). */
  onRotate?: (token: T) => void;
  onRevoke: (token: T) => void;
}

/**
 * Columns of a token table. Group tokens show their role (`role`); sorting happens on the server,
 * by the column's `sortKey`, where the table is given `onSort`. `actions` is null on the inactive
 * tab: a revoked or expired token has nothing left to do.
 */
export function tokenColumns<T extends TokenRow>({ role = false, actions }: { role?: boolean; actions: RowActions<T> | null }) {
  const col = createColumnHelper<T>();
  const columns = [
    col.accessor((t) => t.name, {
      id: 'name',
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
    ...(role
      ? [
          col.accessor((t) => t.access_level ?? 0, {
            id: 'access_level',
            header: 'Role',
            meta: { width: 110 },
            cell: (info) => <Text size="sm">{roleName(info.getValue())}</Text>,
          }),
        ]
      : []),
    col.accessor((t) => t.scopes, { id: 'scopes', header: 'Scopes', cell: (info) => <ScopeBadges scopes={info.getValue()} /> }),
    col.accessor((t) => t.created_at, {
      id: 'created',
      header: 'Created',
      meta: { sortKey: 'created', hideNarrow: true, width: 120 },
      cell: (info) => <DateCell iso={info.getValue()} empty="—" />,
    }),
    col.accessor((t) => t.last_used_at, {
      id: 'last_used',
      header: 'Last used',
      meta: { sortKey: 'last_used', hideNarrow: true, width: 120 },
      cell: (info) => <DateCell iso={info.getValue()} empty="Never" />,
    }),
    col.accessor((t) => t.expires_at, {
      id: 'expires',
      header: 'Expires',
      meta: { sortKey: 'expires', width: 160 },
      cell: ({ row }) => <ExpiryCell token={row.original} />,
    }),
  ];
  if (!actions) return columns;
  const { onRotate, onRevoke } = actions;
  return [
    ...columns,
    col.display({
      id: 'actions',
      header: () => <span className="gh-visually-hidden">Actions</span>,
      meta: { width: onRotate ? 170 : 100 },
      cell: ({ row }) => (
        <Group gap={6} wrap="nowrap" justify="flex-end">
          {onRotate && (
            <Button size="compact-sm" variant="default" onClick={() => onRotate(row.original)} aria-label={`Rotate ${row.original.name}`}>
              Rotate
            </Button>
          )}
          <Button size="compact-sm" variant="light" color="red" onClick={() => onRevoke(row.original)} aria-label={`Revoke ${row.original.name}`}>
            Revoke
          </Button>
        </Group>
      ),
    }),
  ];
}
