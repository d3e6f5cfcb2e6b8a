import { createColumnHelper } from '@tanstack/react-table';
import type { HookEvent } from '../../../../shared/src/hooks.ts';
import { formatPreciseDuration } from '../../format.ts';
import { explainDeliveryError, triggerLabel } from './hook-format.ts';
import { RelativeTime, StatusBadge } from './status-parts.tsx';

const col = createColumnHelper<HookEvent>();

/**
 * Columns of the delivery log; a record carries everything the detail panel shows, so nothing
 * more is fetched. Cells are plain elements styled by hook-cells.css: a page draws fifty rows.
 */
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
          <button
            type="button"
            className="gh-cell-link"
            onClick={(ev) => {
              ev.stopPropagation();
              onOpen(e);
            }}
            aria-label={`Details of delivery ${e.id}: ${triggerLabel(e.trigger)}`}
          >
            {triggerLabel(e.trigger)}
          </button>
          {/* Read for people; the client's own words are in the detail panel. */}
          {e.internal_error_message && <span className="gh-cell-error">{explainDeliveryError(e.internal_error_message).long}</span>}
        </div>
      ),
    }),
    col.accessor('execution_duration', {
      header: 'Duration',
      meta: { width: 110, hideNarrow: true },
      cell: (info) => <span className="gh-cell-mono">{formatPreciseDuration(info.getValue())}</span>,
    }),
    col.accessor('created_at', {
      header: 'Time',
      meta: { width: 150 },
      cell: (info) => <RelativeTime iso={info.getValue()} withClock />,
    }),
  ];
}
