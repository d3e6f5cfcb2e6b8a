import { useCallback, useDeferredValue, useMemo, useState } from 'react';
import { ActionIcon, Button, Group, Loader, NativeSelect, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { Link } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { HOOK_EVENTS, hookFlagsFor, SYSTEM_EVENTS } from '../../../../shared/src/hook-events.ts';
import type { HookEvent } from '../../../../shared/src/hooks.ts';
import { hookEventsQuery, useHook, useHookEvents } from '../../api/hooks.ts';
import { IconPencil, IconRefresh } from '../../components/icons.tsx';
import { EmptyState, NotFoundState, QueryContent } from '../../components/states.tsx';
import { DataTable, TablePager, type DataRow } from '../../components/DataTable.tsx';
import { deliveryColumns } from './delivery-columns.tsx';
import { isStatusCode, STATUS_FILTERS, useDeliveryParams } from './deliveries-params.ts';
import { DeliveryDrawer } from './DeliveryDrawer.tsx';
import { DisabledBanner } from './DisabledBanner.tsx';
import { hookTitle, triggerLabel } from './hook-format.ts';
import { useHookScope } from './hook-scope.ts';
import { BackToHooks } from './HookFormPage.tsx';
import { AlertStatusBadge } from './status-parts.tsx';
import { TestMenu } from './TestMenu.tsx';

const CODE = 'code';
const CLICKABLE_ROW = { cursor: 'pointer' };
const SELECTED_ROW = { cursor: 'pointer', background: 'var(--mantine-color-brand-0)' };
const deliveryId = (e: HookEvent) => String(e.id);

/** …/-/hooks/:hook_id/events: the hook's deliveries of the past seven days, 50 a page, filtered in the URL. */
export function DeliveriesPage({ hookId }: { hookId: number }) {
  const { owner, href, forbidden } = useHookScope();
  const hook = useHook(owner, hookId);
  const queryClient = useQueryClient();
  const list = useDeliveryParams((query) => void queryClient.prefetchQuery(hookEventsQuery(owner, hookId, query)));
  const events = useHookEvents(owner, hookId, list.query);
  const [open, setOpen] = useState<HookEvent | null>(null);
  const columns = useMemo(() => deliveryColumns(setOpen), []);

  // A new page of rows (a changed filter brings 50) is drawn as a deferred render, which React
  // slices so the page stays responsive, rather than in one long task; the table is memoised
  // so the urgent renders in between (the select, the spinner) do not draw the rows again.
  const shown = useDeferredValue(events.data);
  const busy = useDeferredValue(events.isFetching && events.isPlaceholderData);
  const items = useMemo(() => shown?.items ?? [], [shown]);
  const info = shown?.page;
  const openId = open?.id;
  // Stable, so the rows are not drawn again when the table only turns busy.
  const rowProps = useCallback(
    (row: DataRow<HookEvent>) => ({
      onClick: () => setOpen(row.original),
      'aria-selected': openId === row.original.id,
      style: openId === row.original.id ? SELECTED_ROW : CLICKABLE_ROW,
    }),
    [openId],
  );
  const table = useMemo(
    () => <DataTable label="Deliveries" items={items} columns={columns} getRowId={deliveryId} busy={busy} minWidth={340} rowProps={rowProps} />,
    [items, columns, busy, rowProps],
  );

  // "A status code…" is chosen before a code is typed; the box follows the URL on back/forward.
  const [pickingCode, setPickingCode] = useState(false);
  const [typedCode, setTypedCode] = useState(isStatusCode(list.status) ? list.status : '');
  const [shownStatus, setShownStatus] = useState(list.status);
  if (shownStatus !== list.status) {
    setShownStatus(list.status);
    if (isStatusCode(list.status)) setTypedCode(list.status);
  }
  const codeMode = pickingCode || isStatusCode(list.status);

  if (hook.isError && hook.error.status === 404) {
    return (
      <Stack gap="md">
        <BackToHooks />
        <NotFoundState
          title="Webhook not found"
          action={
            <Button component={Link} to={href()} variant="default">
              All webhooks
            </Button>
          }
        >
          It may have been deleted, and its delivery log with it.
        </NotFoundState>
      </Stack>
    );
  }
  if ((hook.isError && hook.error.status === 403) || (events.isError && events.error.status === 403)) {
    return (
      <Stack gap="md">
        <BackToHooks />
        {forbidden()}
      </Stack>
    );
  }

  // The events this hook receives (and the one filtered on, say a test of another kind), not every kind there is.
  const triggers = hookFlagsFor(owner.scope)
    .filter((f) => (hook.data as Record<string, unknown> | undefined)?.[f] === true || HOOK_EVENTS[f].trigger === list.trigger)
    .map((f) => ({ value: HOOK_EVENTS[f].trigger, label: HOOK_EVENTS[f].label }))
    // A system hook always receives the system events, and its tests are of that kind.
    .concat(owner.scope === 'system' ? [{ value: SYSTEM_EVENTS.trigger, label: triggerLabel(SYSTEM_EVENTS.trigger) }] : []);

  return (
    <Stack gap="md">
      <BackToHooks />
      <Group justify="space-between" align="flex-start" gap="sm">
        <div style={{ flex: '1 1 320px', minWidth: 0 }}>
          <Group gap="sm">
            <Title order={2} size="h3" style={{ overflowWrap: 'anywhere' }}>
              {hook.data ? `Deliveries of “${hookTitle(hook.data)}”` : 'Deliveries'}
            </Title>
            {hook.data && <AlertStatusBadge hook={hook.data} />}
          </Group>
          <Text c="dimmed" size="sm" ff={hook.data ? 'monospace' : undefined} style={{ overflowWrap: 'anywhere' }}>
            {hook.data ? hook.data.url : hook.isError ? 'The webhook could not be loaded.' : ' '}
          </Text>
        </div>
        {hook.data && (
          <Group gap="xs">
            <TestMenu hook={hook.data} size="sm" />
            <Button component={Link} to={href(`${hookId}/edit`)} variant="default" leftSection={<IconPencil size={16} />}>
              Edit
            </Button>
          </Group>
        )}
      </Group>

      {hook.data && <DisabledBanner hooks={[hook.data]} linkToLog={false} />}

      <Group gap="sm" align="flex-end" wrap="wrap">
        <NativeSelect
          label="Status"
          value={codeMode ? CODE : list.status}
          onChange={(e) => {
            const v = e.currentTarget.value;
            if (v === CODE) {
              setPickingCode(true);
              if (!isStatusCode(list.status)) list.update({ status: typedCode || null });
            } else {
              setPickingCode(false);
              list.update({ status: v || null });
            }
          }}
          data={[{ value: '', label: 'All statuses' }, ...STATUS_FILTERS, { value: CODE, label: 'A status code…' }]}
          style={{ flex: '1 1 220px', maxWidth: 320 }}
        />
        {codeMode && (
          <TextInput
            label="Status code"
            placeholder="e.g. 404"
            inputMode="numeric"
            maxLength={3}
            value={typedCode}
            onChange={(e) => {
              const v = e.currentTarget.value.replace(/\D/g, '');
              setTypedCode(v);
              if (isStatusCode(v)) list.update({ status: v }, { replace: true });
              else if (v === '') list.update({ status: null }, { replace: true });
            }}
            error={typedCode.length === 3 && !isStatusCode(typedCode) ? 'Between 100 and 599' : undefined}
            style={{ flex: '0 1 120px' }}
          />
        )}
        <NativeSelect
          label="Event"
          value={list.trigger}
          onChange={(e) => list.update({ trigger: e.currentTarget.value || null })}
          data={[{ value: '', label: 'All events' }, ...triggers]}
          style={{ flex: '1 1 200px', maxWidth: 280 }}
        />
        <Tooltip label="Read the log again">
          <ActionIcon variant="default" size={36} onClick={() => void events.refetch()} aria-label="Refresh deliveries" loading={events.isFetching && !events.isPending}>
            <IconRefresh size={16} />
          </ActionIcon>
        </Tooltip>
        {events.isFetching && events.isPlaceholderData && <Loader size="sm" aria-label="Loading deliveries" />}
      </Group>

      {/* The table shows the deferred page (`shown`), which may lag a render behind the query's data. */}
      <QueryContent
        query={events}
        what="deliveries"
        ready={shown !== undefined}
        empty={() =>
          items.length === 0 &&
          (list.page > 1 ? (
            <EmptyState
              title="No deliveries on this page"
              action={
                <Button variant="default" onClick={() => list.update({ page: null })}>
                  Go to the first page
                </Button>
              }
            >
              The log has fewer pages now: deliveries older than seven days drop out of it.
            </EmptyState>
          ) : list.filtered ? (
            <EmptyState
              title="No deliveries match"
              action={
                <Button variant="default" onClick={list.clearFilters}>
                  Clear filters
                </Button>
              }
            >
              No delivery of the past seven days has the status and event you chose.
            </EmptyState>
          ) : (
            <EmptyState title="No deliveries in the past 7 days" action={hook.data ? <TestMenu hook={hook.data} size="sm" /> : undefined}>
              Deliveries appear here as events happen. Send a test to see one now.
            </EmptyState>
          ))
        }
      >
        {() => table}
      </QueryContent>

      <TablePager
        info={info}
        shown={items.length}
        what={(n) => `${n === 1 ? 'delivery' : 'deliveries'} of the past 7 days, newest first`}
        onPage={list.setPage}
      />

      <DeliveryDrawer owner={owner} hookId={hookId} event={open} onClose={() => setOpen(null)} filter={{ status: list.status, clear: list.clearFilters }} />
    </Stack>
  );
}
