import { useMemo, useState } from 'react';
import { Anchor, Button, Loader, Stack, Text, TextInput, Title } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { Link } from 'react-router';
import type { GroupListItem } from '../../../../shared/src/groups.ts';
import { useAdminGroups, useDeleteGroup, type AdminGroupsQuery } from '../../api/admin.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { TransferDialog, type TransferSubject } from './TransferDialog.tsx';
import { RowActions } from './RowActions.tsx';
import { DataTable, TablePager } from '../../components/DataTable.tsx';
import { IconSearch } from '../../components/icons.tsx';
import { useListParams, useSearchBox, type Sort } from '../../components/list-params.ts';
import { notifySuccess } from '../../components/notify.ts';
import { EmptyState, QueryContent } from '../../components/states.tsx';
import { VisibilityBadge } from '../../components/VisibilityBadge.tsx';
import { formatDate, formatSize } from '../../format.ts';
import { groupHref } from '../../paths.ts';
import { AdminForbidden } from './admin-states.tsx';

const SORT_KEYS = ['name', 'path', 'id'] as const;
const DEFAULT_SORT: Sort<(typeof SORT_KEYS)[number]> = { key: 'path', dir: 'asc' };

const col = createColumnHelper<GroupListItem>();

/** /admin/groups: every group of the instance, subgroups included, searchable, with Delete. */
export default function GroupsPage() {
  const list = useListParams({ sortKeys: SORT_KEYS, defaultSort: DEFAULT_SORT });
  const sort = list.sort ?? DEFAULT_SORT;
  const query: AdminGroupsQuery = { search: list.search.trim() || undefined, order_by: sort.key, sort: sort.dir, page: list.page, per_page: list.perPage };
  const groups = useAdminGroups(query);
  const searchBox = useSearchBox(list.search, list.update);
  const [deleting, setDeleting] = useState<GroupListItem | null>(null);
  const [transferring, setTransferring] = useState<TransferSubject | null>(null);
  const remove = useDeleteGroup({ meta: { errorTitle: 'The group was not deleted' } });

  const columns = useMemo(
    () => [
      col.accessor('full_name', {
        id: 'name',
        header: 'Group',
        meta: { sortKey: 'name' },
        cell: ({ row }) => (
          <Stack gap={0} miw={160}>
            <Anchor component={Link} to={groupHref(row.original.full_path)} fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
              {row.original.full_name}
            </Anchor>
            <Text size="xs" c="dimmed">
              {row.original.parent_id === null ? 'Top-level group' : 'Subgroup'}
            </Text>
          </Stack>
        ),
      }),
      col.accessor('full_path', {
        id: 'path',
        header: 'Path',
        meta: { sortKey: 'path' },
        cell: (i) => (
          <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
            {i.getValue()}
          </Text>
        ),
      }),
      col.accessor('visibility', { header: 'Visibility', meta: { width: 110 }, cell: (i) => <VisibilityBadge visibility={i.getValue()} /> }),
      col.display({
        id: 'storage',
        header: 'Storage',
        meta: { hideNarrow: true, width: 110 },
        cell: ({ row }) => <Text size="sm">{row.original.statistics ? formatSize(row.original.statistics.storage_size) : '—'}</Text>,
      }),
      col.accessor('created_at', { id: 'id', header: 'Created', meta: { sortKey: 'id', hideNarrow: true, width: 130 }, cell: (i) => <Text size="sm">{formatDate(i.getValue())}</Text> }),
      col.display({
        id: 'actions',
        header: () => <span className="gh-visually-hidden">Actions</span>,
        meta: { width: 76 },
        cell: ({ row }) => (
          <RowActions
            fullPath={row.original.full_path}
            onTransfer={() => setTransferring({ kind: 'group', id: row.original.id, name: row.original.name, fullPath: row.original.full_path, parentId: row.original.parent_id })}
            onDelete={() => setDeleting(row.original)}
          />
        ),
      }),
    ],
    [],
  );

  return (
    <Stack gap="md">
      <div>
        <Title order={2} size="h3">
          Groups
        </Title>
        <Text c="dimmed" size="sm" maw={640}>
          Every group of the instance, subgroups included, whatever their visibility. Open one to manage its members and settings.
        </Text>
      </div>
      <TextInput
        label="Search"
        placeholder="Name or path"
        leftSection={<IconSearch size={16} />}
        rightSection={groups.isFetching && !groups.isPending ? <Loader size={14} /> : null}
        {...searchBox}
        style={{ maxWidth: 360 }}
        type="search"
      />
      <QueryContent
        query={groups}
        what="groups"
        forbidden={<AdminForbidden />}
        empty={(data) =>
          data.items.length === 0 &&
          (query.search ? (
            <EmptyState
              title="No groups match"
              action={
                <Button variant="default" onClick={() => list.update({ search: null })}>
                  Clear search
                </Button>
              }
            >
              Search looks at group names and paths.
            </EmptyState>
          ) : (
            <EmptyState title="No groups yet">Groups created by anyone on the instance are listed here.</EmptyState>
          ))
        }
      >
        {(data) => <DataTable label="Groups" items={data.items} columns={columns} getRowId={(g) => String(g.id)} busy={groups.isFetching} sort={sort} onSort={list.setSort} />}
      </QueryContent>
      <TablePager info={groups.data?.page} shown={groups.data?.items.length ?? 0} what={(n) => (n === 1 ? 'group' : 'groups')} onPage={list.setPage} />
      <ConfirmDialog
        opened={deleting !== null}
        title={deleting ? `Delete ${deleting.full_path}?` : ''}
        confirmLabel="Delete group"
        loading={remove.isPending}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => {
              notifySuccess('Group deleted', `${deleting.full_path} and everything in it are gone.`);
              setDeleting(null);
            },
          })
        }
        onClose={() => setDeleting(null)}
      >
        <strong>{deleting?.full_name}</strong> is deleted at once, with all of its subgroups, projects, repositories, members and webhooks. This cannot be undone.
      </ConfirmDialog>
      <TransferDialog subject={transferring} onClose={() => setTransferring(null)} />
    </Stack>
  );
}
