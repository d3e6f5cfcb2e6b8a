import { Anchor, Text } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import type { HookEvent } from '../../../../shared/src/hooks.ts';
import { formatDuration, triggerLabel } from './hook-format.ts';
import { RelativeTime, StatusBadge } from './status-parts.tsx';

const col = createColumnHelper<HookEvent>();

/** Columns of the delivery log; a record carries everything the detail panel shows, so nothing more is fetched. */
export function deliveryColumns(onOpen: (event: HookEvent) => void) {
  return [
    col.accessor('response_status', {
      header: 'Status',
      meta: { width: 104 },
      cell: (info) => <StatusBadge status={info.getValue()} size="lg" />,
    }),
    col.accessor('trigger', {
      header: 'Event',
      cell: ({ row: { original: e } }) => (
        <div>
          {/* The row opens the panel on a click too; this is the way in for keyboards and screen readers. */}
          <Anchor
            component="button"
            type="button"
            size="sm"
            fw={500}
            ta="left"
            onClick={(ev) => {
              ev.stopPropagation();
              onOpen(e);
            }}
            aria-label={`Details of delivery ${e.id}: ${triggerLabel(e.trigger)}`}
          >
            {triggerLabel(e.trigger)}
          </Anchor>
          {e.internal_error_message && (
            <Text size="xs" c="red.8" lineClamp={1} maw={360}>
              {e.internal_error_message}
            </Text>
          )}
        </div>
      ),
    }),
    col.accessor('execution_duration', {
      header: 'Duration',
      meta: { width: 110, hideNarrow: true },
      cell: (info) => (
        <Text size="sm" ff="monospace" style={{ whiteSpace: 'nowrap' }}>
          {formatDuration(info.getValue())}
        </Text>
      ),
    }),
    col.accessor('created_at', {
      header: 'Time',
      meta: { width: 150 },
      cell: (info) => <RelativeTime iso={info.getValue()} withClock />,
    }),
  ];
}
