import { Paper, Table } from '@mantine/core';
import { flexRender, getCoreRowModel, useReactTable, type ColumnDef, type SortingState } from '@tanstack/react-table';
import type { GroupAccessToken } from '../../../../shared/src/group-access-tokens.ts';
import { IconChevronDown, IconChevronUp, IconSelector } from '../../components/icons.tsx';
import type { TokenSort } from './list-params.ts';

/** The token table; a sortable header asks the server for `<sortKey>_asc|desc`. */
export function TokensTable({
  items,
  columns,
  sort,
  busy,
  onSort,
}: {
  items: GroupAccessToken[];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- columns of different value types
  columns: ColumnDef<GroupAccessToken, any>[];
  sort: TokenSort;
  busy: boolean;
  onSort: (sort: TokenSort) => void;
}) {
  const [sortKey, dir] = [sort.replace(/_(asc|desc)$/, ''), sort.endsWith('_desc') ? 'desc' : 'asc'];
  const sorting: SortingState = [{ id: columns.find((c) => c.meta?.sortKey === sortKey)?.id ?? 'name', desc: dir === 'desc' }];
  // eslint-disable-next-line react-hooks/incompatible-library -- the table instance is read during render only
  const table = useReactTable({
    data: items,
    columns,
    getCoreRowModel: getCoreRowModel(),
    manualSorting: true,
    manualPagination: true,
    state: { sorting },
    getRowId: (t) => String(t.id),
  });

  const toggle = (key: string) => onSort(`${key}_${sortKey === key && dir === 'asc' ? 'desc' : 'asc'}` as TokenSort);

  return (
    <Paper withBorder radius="md" style={{ overflow: 'hidden' }}>
      <Table.ScrollContainer minWidth={720} type="native">
        <Table verticalSpacing="sm" horizontalSpacing="sm" highlightOnHover aria-label="Access tokens" aria-busy={busy}>
          <Table.Thead bg="gray.0">
            {table.getHeaderGroups().map((hg) => (
              <Table.Tr key={hg.id}>
                {hg.headers.map((h) => {
                  const meta = h.column.columnDef.meta;
                  const sorted = meta?.sortKey === sortKey ? dir : false;
                  const label = flexRender(h.column.columnDef.header, h.getContext());
                  return (
                    <Table.Th
                      key={h.id}
                      w={meta?.width}
                      // Keeps a visually hidden header inside the scrolling table.
                      pos="relative"
                      className={meta?.hideNarrow ? 'gh-hide-narrow' : undefined}
                      aria-sort={meta?.sortKey ? (sorted === 'desc' ? 'descending' : sorted === 'asc' ? 'ascending' : 'none') : undefined}
                    >
                      {meta?.sortKey ? (
                        <button type="button" className="gh-sort-button" onClick={() => toggle(meta.sortKey!)}>
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
                  <Table.Td key={cell.id} className={cell.column.columnDef.meta?.hideNarrow ? 'gh-hide-narrow' : undefined} style={{ verticalAlign: 'top' }}>
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
