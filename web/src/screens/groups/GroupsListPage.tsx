import { useState } from 'react';
import { Button, Group, Loader, Pagination, Paper, SegmentedControl, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { flexRender, getCoreRowModel, useReactTable, type SortingState } from '@tanstack/react-table';
import { useSearchParams } from 'react-router';
import { useGroups, type GroupsListQuery } from '../../api/groups.ts';
import { useCurrentUser } from '../../api/session.ts';
import { IconChevronDown, IconChevronUp, IconSearch, IconSelector } from '../../components/icons.tsx';
import { EmptyState, ErrorState, ForbiddenState, LoadingState } from '../../components/states.tsx';
import { usePageTitle } from '../../hooks/usePageTitle.ts';
import { groupColumns } from './columns.tsx';

const ORDER_BY = ['name', 'path', 'id'] as const;
type Scope = 'all' | 'member';

/** Search, sort, page and scope live in the URL, so a list can be linked, reloaded and navigated back to. */
function useListParams(defaultScope: Scope) {
  const [params, setParams] = useSearchParams();
  const orderBy = ORDER_BY.find((o) => o === params.get('order_by')) ?? 'name';
  const sort = params.get('sort') === 'desc' ? 'desc' : 'asc';
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const scopeParam = params.get('scope');
  const scope: Scope = scopeParam === 'all' || scopeParam === 'member' ? scopeParam : defaultScope;
  const search = params.get('search') ?? '';

  const update = (changes: Record<string, string | null>, opts: { replace?: boolean } = {}) => {
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        for (const [k, v] of Object.entries(changes)) {
          if (v === null || v === '') next.delete(k);
          else next.set(k, v);
        }
        // Any change but paging starts again from the first page.
        if (!('page' in changes)) next.delete('page');
        return next;
      },
      { replace: opts.replace },
    );
  };
  const query: GroupsListQuery = { search: search.trim() || undefined, order_by: orderBy, sort, page, all_available: scope === 'all' };
  return { query, search, orderBy, sort, page, scope, update };
}

export default function GroupsListPage() {
  usePageTitle('Groups');
  const user = useCurrentUser();
  const list = useListParams(user.is_admin ? 'all' : 'member');
  const groups = useGroups(list.query);

  // The box follows the URL (back/forward), and the URL follows the box after a pause in typing.
  const [typed, setTyped] = useState(list.search);
  const [shownSearch, setShownSearch] = useState(list.search);
  if (shownSearch !== list.search) {
    setShownSearch(list.search);
    setTyped(list.search);
  }
  const pushSearch = useDebouncedCallback((value: string) => list.update({ search: value || null }, { replace: true }), 300);

  const sorting: SortingState = [
    { id: groupColumns.find((c) => c.meta?.orderBy === list.orderBy)?.id ?? 'name', desc: list.sort === 'desc' },
  ];
  // eslint-disable-next-line react-hooks/incompatible-library -- the table instance is read during render only
  const table = useReactTable({
    data: groups.data?.items ?? [],
    columns: groupColumns,
    getCoreRowModel: getCoreRowModel(),
    manualSorting: true,
    manualPagination: true,
    state: { sorting },
    getRowId: (g) => String(g.id),
  });

  const toggleSort = (orderBy: string) => {
    const sort = list.orderBy === orderBy && list.sort === 'asc' ? 'desc' : 'asc';
    list.update({ order_by: orderBy === 'name' ? null : orderBy, sort: sort === 'asc' ? null : sort });
  };

  const info = groups.data?.page;
  const items = groups.data?.items ?? [];

  let body: React.ReactNode;
  if (groups.isPending) body = <LoadingState label="Loading groups…" />;
  else if (groups.isError && groups.error.status === 403) body = <ForbiddenState>You are not allowed to list groups.</ForbiddenState>;
  else if (groups.isError) body = <ErrorState title="Groups could not be loaded" error={groups.error} onRetry={() => void groups.refetch()} />;
  else if (items.length === 0 && list.search) {
    body = (
      <EmptyState
        title={`No groups match “${list.search}”`}
        action={
          <Button variant="default" onClick={() => list.update({ search: null })}>
            Clear search
          </Button>
        }
      >
        Search looks at group names and paths.
      </EmptyState>
    );
  } else if (items.length === 0 && list.scope === 'member') {
    body = (
      <EmptyState
        title="You are not a member of any group"
        action={
          <Button variant="default" onClick={() => list.update({ scope: 'all' })}>
            Show all groups
          </Button>
        }
      >
        Groups you are added to appear here. You can still browse the groups visible to you.
      </EmptyState>
    );
  } else if (items.length === 0) {
    body = <EmptyState title="No groups yet">Groups created through the API appear here.</EmptyState>;
  } else {
    body = (
      <Paper withBorder radius="md" style={{ overflow: 'hidden' }}>
        <Table.ScrollContainer minWidth={320} type="native">
          <Table verticalSpacing="sm" horizontalSpacing="sm" highlightOnHover aria-label="Groups" aria-busy={groups.isFetching}>
            <Table.Thead bg="gray.0">
              {table.getHeaderGroups().map((hg) => (
                <Table.Tr key={hg.id}>
                  {hg.headers.map((h) => {
                    const meta = h.column.columnDef.meta;
                    const sorted = h.column.getIsSorted();
                    const label = flexRender(h.column.columnDef.header, h.getContext());
                    return (
                      <Table.Th
                        key={h.id}
                        w={meta?.width}
                        className={meta?.hideNarrow ? 'gh-hide-narrow' : undefined}
                        aria-sort={meta?.orderBy ? (sorted === 'desc' ? 'descending' : sorted === 'asc' ? 'ascending' : 'none') : undefined}
                      >
                        {meta?.orderBy ? (
                          <button type="button" className="gh-sort-button" onClick={() => toggleSort(meta.orderBy!)}>
                            {label}
                            {sorted === 'asc' ? <IconChevronUp size={14} /> : sorted === 'desc' ? <IconChevronDown size={14} /> : <IconSelector size={14} />}
                          </button>
                        ) : (
                          label
                        )}
                      </Table.Th>
                    );
                  })}
                </Table.Tr>
              ))}
            </Table.Thead>
            <Table.Tbody>
              {table.getRowModel().rows.map((row) => (
                <Table.Tr key={row.id}>
                  {row.getVisibleCells().map((cell) => (
                    <Table.Td key={cell.id} className={cell.column.columnDef.meta?.hideNarrow ? 'gh-hide-narrow' : undefined}>
                      {flexRender(cell.column.columnDef.cell, cell.getContext())}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>
    );
  }

  const first = info ? (info.page - 1) * info.perPage + 1 : 0;
  const last = info ? first + items.length - 1 : 0;

  return (
    <Stack gap="md">
      <div>
        <Title order={1} size="h2">
          Groups
        </Title>
        <Text c="dimmed" size="sm">
          Groups organise projects and their members. Open one to see its projects and change its settings.
        </Text>
      </div>

      <Group justify="space-between" gap="sm" align="center">
        <TextInput
          aria-label="Search groups"
          placeholder="Search by name or path"
          leftSection={<IconSearch size={16} />}
          rightSection={groups.isFetching && !groups.isPending ? <Loader size={14} /> : null}
          value={typed}
          onChange={(e) => {
            setTyped(e.currentTarget.value);
            pushSearch(e.currentTarget.value);
          }}
          style={{ flex: '1 1 260px', maxWidth: 420 }}
          type="search"
        />
        <SegmentedControl
          aria-label="Which groups"
          value={list.scope}
          onChange={(v) => list.update({ scope: v })}
          data={[
            { value: 'member', label: 'My groups' },
            { value: 'all', label: 'All groups' },
          ]}
        />
      </Group>

      {body}

      {info && items.length > 0 && (
        <Group justify="space-between" gap="sm">
          <Text size="sm" c="dimmed" aria-live="polite">
            Showing {first}–{last} of {info.total} {info.total === 1 ? 'group' : 'groups'}
          </Text>
          {info.totalPages > 1 && (
            <Pagination
              total={info.totalPages}
              value={list.page}
              onChange={(p) => list.update({ page: p === 1 ? null : String(p) })}
              size="sm"
              getControlProps={(control) => ({ 'aria-label': `${control} page` })}
            />
          )}
        </Group>
      )}
    </Stack>
  );
}
