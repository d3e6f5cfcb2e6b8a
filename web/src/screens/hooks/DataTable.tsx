import { Paper, Table } from '@mantine/core';
import { flexRender, getCoreRowModel, useReactTable, type ColumnDef, type Row } from '@tanstack/react-table';

/**
 * The table of the webhook screens: rows as the server paged them (nothing sorted or sliced
 * here), a header that stays with its columns when the table scrolls sideways on a phone.
 */
export function DataTable<T>({
  label,
  items,
  columns,
  getRowId,
  busy = false,
  minWidth = 720,
  rowProps,
}: {
  label: string;
  items: T[];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- columns of different value types
  columns: ColumnDef<T, any>[];
  getRowId: (item: T) => string;
  busy?: boolean;
  minWidth?: number;
  rowProps?: (row: Row<T>) => React.ComponentProps<typeof Table.Tr>;
}) {
  // eslint-disable-next-line react-hooks/incompatible-library -- the table instance is read during render only
  const table = useReactTable({ data: items, columns, getCoreRowModel: getCoreRowModel(), manualPagination: true, getRowId });
  return (
    <Paper withBorder radius="md" style={{ overflow: 'hidden' }}>
      <Table.ScrollContainer minWidth={minWidth} type="native">
        <Table verticalSpacing="sm" horizontalSpacing="sm" highlightOnHover aria-label={label} aria-busy={busy}>
          <Table.Thead bg="gray.0">
            {table.getHeaderGroups().map((hg) => (
              <Table.Tr key={hg.id}>
                {hg.headers.map((h) => (
                  <Table.Th key={h.id} w={h.column.columnDef.meta?.width} pos="relative" className={h.column.columnDef.meta?.hideNarrow ? 'gh-hide-narrow' : undefined}>
                    {flexRender(h.column.columnDef.header, h.getContext())}
                  </Table.Th>
                ))}
              </Table.Tr>
            ))}
          </Table.Thead>
          <Table.Tbody style={{ opacity: busy ? 0.6 : 1, transition: 'opacity 120ms' }}>
            {table.getRowModel().rows.map((row) => (
              <Table.Tr key={row.id} {...rowProps?.(row)}>
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
