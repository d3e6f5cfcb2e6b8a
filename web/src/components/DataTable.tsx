import { memo, useEffect, useMemo, useRef, useState } from 'react';
import { Group, Pagination, Paper, Table, Text } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import type { PageInfo } from '../api/client.ts';
import { formatTotal } from '../format.ts';
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

const cellClass = (meta: { hideNarrow?: boolean; pinned?: boolean } | undefined, id: string, base?: string) =>
  [base, meta?.hideNarrow && 'gh-hide-narrow', (meta?.pinned ?? id === 'actions') && 'gh-pinned'].filter(Boolean).join(' ') || undefined;

// Rows and cells are plain elements with Mantine's Table classes: a component per cell costs
// more than the cell's content, and a page of deliveries has 250 of them.
const TR = Table.classes.tr;
const TD = Table.classes.td;
const TOP = { verticalAlign: 'top' } as const;

/** A row as a column's cell and `rowProps` see it (the part of TanStack Table's row the console uses). */
export interface DataRow<T> {
  id: string;
  index: number;
  original: T;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- columns of different value types
type AnyColumn<T> = ColumnDef<T, any>;
type ColumnShape<T> = {
  id?: string;
  accessorKey?: string;
  accessorFn?: (item: T, index: number) => unknown;
  header?: string | (() => React.ReactNode);
  cell?: (ctx: { getValue: () => unknown; renderValue: () => unknown; row: DataRow<T> }) => React.ReactNode;
  meta?: AnyColumn<T>['meta'];
};

/**
 * The columns as written with TanStack's `createColumnHelper` (accessor, display), read here
 * directly: the server sorts and pages, so the table needs no row model, and drawing a page
 * of rows stays a plain loop over cells (no table instance to build per render).
 */
function readColumns<T>(columns: AnyColumn<T>[]) {
  return columns.map((def) => {
    const c = def as ColumnShape<T>;
    const key = c.accessorKey;
    const id = c.id ?? key?.replace('.', '_') ?? (typeof c.header === 'string' ? c.header : '');
    const value = c.accessorFn ?? (key ? (item: T) => key.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], item) : () => undefined);
    const header = typeof c.header === 'function' ? c.header() : (c.header ?? null);
    const render = (row: DataRow<T>): React.ReactNode => {
      const getValue = () => value(row.original, row.index);
      if (c.cell) return c.cell({ getValue, renderValue: getValue, row });
      const v = getValue();
      return v == null ? null : String(v);
    };
    return { id, meta: c.meta, header, render, className: cellClass(c.meta, id, TD) };
  });
}
type ReadColumn<T> = ReturnType<typeof readColumns<T>>[number];

type RowProps = React.ComponentProps<'tr'>;

/** The body's rows, drawn again only when the items, columns or row props change (not when the table turns busy). */
const Rows = memo(function Rows<T>({
  items,
  columns,
  getRowId,
  rowProps,
}: {
  items: T[];
  columns: ReadColumn<T>[];
  getRowId: (item: T) => string;
  rowProps?: (row: DataRow<T>) => RowProps;
}) {
  return items.map((original, index) => {
    const row: DataRow<T> = { id: getRowId(original), index, original };
    return (
      <tr key={row.id} className={TR} data-with-row-border data-hover {...rowProps?.(row)}>
        {columns.map((c) => (
          <td key={c.id} className={c.className} style={TOP}>
            {c.render(row)}
          </td>
        ))}
      </tr>
    );
  });
}) as <T>(props: { items: T[]; columns: ReadColumn<T>[]; getRowId: (item: T) => string; rowProps?: (row: DataRow<T>) => RowProps }) => React.ReactNode;

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
  columns: AnyColumn<T>[];
  getRowId: (item: T) => string;
  /**
   * The rows shown are about to be replaced (another page, sort or filter is loading): they dim.
   * Not for a table that polls: its rows would dim (and lose their contrast) at every poll.
   */
  busy?: boolean;
  minWidth?: number;
  /** Props of a row's `<tr>` (a click handler, `aria-selected`, a style). */
  rowProps?: (row: DataRow<T>) => RowProps;
  sort?: Sort;
  onSort?: (sort: Sort) => void;
}) {
  const cols = useMemo(() => readColumns(columns), [columns]);
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
            <Table.Tr>
              {cols.map(({ id, meta, header }) => {
                const sortKey = onSort ? meta?.sortKey : undefined;
                const sorted = sortKey && sort?.key === sortKey ? sort.dir : false;
                return (
                  <Table.Th
                    key={id}
                    w={meta?.width}
                    // Keeps a visually hidden header inside the scrolling table.
                    pos="relative"
                    className={cellClass(meta, id)}
                    aria-sort={sortKey ? (sorted === 'desc' ? 'descending' : sorted === 'asc' ? 'ascending' : 'none') : undefined}
                  >
                    {sortKey ? (
                      <button type="button" className="gh-sort-button" onClick={() => toggle(sortKey)}>
                        {header}
                        {sorted === 'asc' ? <IconChevronUp size={14} /> : sorted === 'desc' ? <IconChevronDown size={14} /> : <IconSelector size={14} />}
                      </button>
                    ) : (
                      header
                    )}
                  </Table.Th>
                );
              })}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody style={{ opacity: busy ? 0.6 : 1, transition: 'opacity 120ms' }}>
            <Rows items={items} columns={cols} getRowId={getRowId} rowProps={rowProps} />
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
  // A list too long to count pages up to the next one the server says exists.
  const pages = info.totalPages ?? (info.nextPage ?? info.page);
  return (
    <Group justify="space-between" gap="sm">
      <Text size="sm" c="dimmed" aria-live="polite">
        Showing {first.toLocaleString()}–{last.toLocaleString()} of {formatTotal(info.total)} {what(info.total ?? Number.POSITIVE_INFINITY)}
      </Text>
      {pages > 1 && <Pagination total={pages} value={info.page} onChange={onPage} size="sm" getControlProps={(control) => ({ 'aria-label': `${control} page` })} />}
    </Group>
  );
}
