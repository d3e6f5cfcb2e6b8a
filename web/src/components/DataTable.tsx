import { useEffect, useRef, useState } from 'react';
import { Group, Pagination, Paper, Table, Text } from '@mantine/core';
import { flexRender, getCoreRowModel, useReactTable, type ColumnDef, type Row } from '@tanstack/react-table';
import type { PageInfo } from '../api/client.ts';
import { IconChevronDown, IconChevronUp, IconSelector } from './icons.tsx';
import type { Sort } from './list-params.ts';

declare module '@tanstack/react-table' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the shape is fixed by TanStack Table
  interface ColumnMeta<TData, TValue> {
    /** The key this column sorts by on the server (`name` → sort=name_asc|name_desc); absent when it cannot be sorted. */
    sortKey?: string;
    /** Hidden on narrow screens, where the table scrolls sideways otherwise. */
    hideNarrow?: boolean;
    width?: number | string;
    /** Stays at the right edge while the table scrolls sideways; by default the column with id `actions`. */
    pinned?: boolean;
  }
}

const cellClass = (meta: { hideNarrow?: boolean; pinned?: boolean } | undefined, id: string) =>
  [meta?.hideNarrow && 'gh-hide-narrow', (meta?.pinned ?? id === 'actions') && 'gh-pinned'].filter(Boolean).join(' ') || undefined;

/** Which sides of a sideways-scrolling box hold more than is shown, kept up to date as it scrolls or resizes. */
function useScrollEdges() {
  const ref = useRef<HTMLDivElement>(null);
  const [edges, setEdges] = useState({ left: false, right: false });
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => {
      const left = el.scrollLeft > 1;
      const right = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
      setEdges((e) => (e.left === left && e.right === right ? e : { left, right }));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    if (el.firstElementChild) observer.observe(el.firstElementChild);
    el.addEventListener('scroll', measure, { passive: true });
    return () => {
      observer.disconnect();
      el.removeEventListener('scroll', measure);
    };
  }, []);
  return { ref, edges };
}

/**
 * Every table of the console: rows as the server paged and sorted them (nothing sorted or sliced
 * here); a column with a `sortKey` has a header button that asks for the other order through
 * `onSort` (which writes the URL); the header stays with its columns when the table scrolls
 * sideways on a phone. A table wider than its box says so (a shade on the side that holds more,
 * and a line under it), can be scrolled from the keyboard, and keeps its actions column pinned
 * to the right edge, so the actions of a row are always reachable.
 */
export function DataTable<T>({
  label,
  items,
  columns,
  getRowId,
  busy = false,
  minWidth = 720,
  rowProps,
  sort,
  onSort,
}: {
  label: string;
  items: T[];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- columns of different value types
  columns: ColumnDef<T, any>[];
  getRowId: (item: T) => string;
  busy?: boolean;
  minWidth?: number;
  rowProps?: (row: Row<T>) => React.ComponentProps<typeof Table.Tr>;
  sort?: Sort;
  onSort?: (sort: Sort) => void;
}) {
  // eslint-disable-next-line react-hooks/incompatible-library -- the table instance is read during render only
  const table = useReactTable({ data: items, columns, getCoreRowModel: getCoreRowModel(), manualSorting: true, manualPagination: true, getRowId });
  const toggle = (key: string) => onSort?.({ key, dir: sort?.key === key && sort.dir === 'asc' ? 'desc' : 'asc' });
  const { ref, edges } = useScrollEdges();
  const scrolls = edges.left || edges.right;
  return (
    <>
    <Paper withBorder radius="md" style={{ overflow: 'hidden' }}>
      <div
        ref={ref}
        className="gh-table-scroll"
        data-more-left={edges.left || undefined}
        data-more-right={edges.right || undefined}
        // A box that scrolls must be reachable from the keyboard, and named where it is.
        tabIndex={scrolls ? 0 : undefined}
        role={scrolls ? 'region' : undefined}
        aria-label={scrolls ? `${label}, scrolls sideways` : undefined}
      >
        <Table miw={minWidth} verticalSpacing="sm" horizontalSpacing="sm" highlightOnHover aria-label={label} aria-busy={busy}>
          <Table.Thead bg="gray.0">
            {table.getHeaderGroups().map((hg) => (
              <Table.Tr key={hg.id}>
                {hg.headers.map((h) => {
                  const meta = h.column.columnDef.meta;
                  const sortKey = onSort ? meta?.sortKey : undefined;
                  const sorted = sortKey && sort?.key === sortKey ? sort.dir : false;
                  const content = flexRender(h.column.columnDef.header, h.getContext());
                  return (
                    <Table.Th
                      key={h.id}
                      w={meta?.width}
                      // Keeps a visually hidden header inside the scrolling table.
                      pos="relative"
                      className={cellClass(meta, h.column.id)}
                      aria-sort={sortKey ? (sorted === 'desc' ? 'descending' : sorted === 'asc' ? 'ascending' : 'none') : undefined}
                    >
                      {sortKey ? (
                        <button type="button" className="gh-sort-button" onClick={() => toggle(sortKey)}>
                          {content}
                          {sorted === 'asc' ? <IconChevronUp size={14} /> : sorted === 'desc' ? <IconChevronDown size={14} /> : <IconSelector size={14} />}
                        </button>
                      ) : (
                        content
                      )}
                    </Table.Th>
                  );
                })}
              </Table.Tr>
            ))}
          </Table.Thead>
          <Table.Tbody style={{ opacity: busy ? 0.6 : 1, transition: 'opacity 120ms' }}>
            {table.getRowModel().rows.map((row) => (
              <Table.Tr key={row.id} {...rowProps?.(row)}>
                {row.getVisibleCells().map((cell) => (
                  <Table.Td key={cell.id} className={cellClass(cell.column.columnDef.meta, cell.column.id)} style={{ verticalAlign: 'top' }}>
                    {flexRender(cell.column.columnDef.cell, cell.getContext())}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </div>
    </Paper>
    {scrolls && (
      <Text size="xs" c="dimmed" mt={-8} aria-hidden="true">
        {edges.right ? 'More columns to the right: scroll or swipe sideways.' : 'More columns to the left: scroll or swipe sideways.'}
      </Text>
    )}
    </>
  );
}

/**
 * Under a paged table: "Showing 21–40 of 57 <what>" and the page buttons (when there is more
 * than one page). `what` is the noun phrase for the total, singular and plural.
 */
export function TablePager({
  info,
  shown,
  what,
  onPage,
}: {
  info: PageInfo | undefined;
  shown: number;
  what: (total: number) => React.ReactNode;
  onPage: (page: number) => void;
}) {
  if (!info || shown === 0) return null;
  const first = (info.page - 1) * info.perPage + 1;
  const last = first + shown - 1;
  return (
    <Group justify="space-between" gap="sm">
      <Text size="sm" c="dimmed" aria-live="polite">
        Showing {first.toLocaleString()}–{last.toLocaleString()} of {info.total.toLocaleString()} {what(info.total)}
      </Text>
      {info.totalPages > 1 && (
        <Pagination total={info.totalPages} value={info.page} onChange={onPage} size="sm" getControlProps={(control) => ({ 'aria-label': `${control} page` })} />
      )}
    </Group>
  );
}
