import { useMemo } from 'react';
import { Alert, Anchor, Button, Group, NativeSelect, Stack, Tabs, Text, TextInput, Title } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { Link } from 'react-router';
import { ERROR_STATUSES, type ErrorStatus, type TrackedError } from '../../../../shared/src/error-tracking.ts';
import { useErrorTrackingSetting, useTrackedErrors, type ErrorsQuery } from '../../api/error-tracking.ts';
import { DataTable, TablePager } from '../../components/DataTable.tsx';
import { IconAlert, IconSearch, IconSettings } from '../../components/icons.tsx';
import { useListParams, useSearchBox } from '../../components/list-params.ts';
import { RoleForbidden } from '../../components/ResourcePage.tsx';
import { EmptyState, QueryContent } from '../../components/states.tsx';
import { formatNumber, fromNow, fullDateTime } from '../../format.ts';
import { errorTrackingHref } from '../../paths.ts';
import { useProjectContext } from '../projects/project-context.ts';
import { FORBIDDEN_HINT, FORBIDDEN_TITLE, frequencySummary, hourName, STATUS_LABELS } from './error-model.ts';
import { FrequencyBars } from './FrequencyBars.tsx';
import { StatusBadge, When } from './error-parts.tsx';

type StatusTab = ErrorStatus | 'all';
const TABS: StatusTab[] = ['unresolved', 'resolved', 'ignored', 'all'];
const SORTS = { last_seen: 'Last seen', first_seen: 'First seen', frequency: 'Most events' } as const;
type SortKey = keyof typeof SORTS;

/** Status tab (unresolved unless the URL says otherwise), search, order and page live in the URL. */
function useErrorsParams() {
  const list = useListParams();
  const raw = list.get('status');
  const status: StatusTab = raw === 'all' || (ERROR_STATUSES as readonly string[]).includes(raw) ? (raw as StatusTab) : 'unresolved';
  const sortRaw = list.get('order');
  const sort: SortKey = sortRaw in SORTS ? (sortRaw as SortKey) : 'last_seen';
  const query: ErrorsQuery = { status: status === 'all' ? undefined : status, query: list.search || undefined, sort: sort === 'last_seen' ? undefined : sort, page: list.page };
  return { ...list, status, sort, query };
}

const col = createColumnHelper<TrackedError>();

/** …/-/error_tracking: the errors the project's applications reported, most recently seen first. */
export function ErrorsList() {
  const { project, role } = useProjectContext();
  const params = useErrorsParams();
  const searchBox = useSearchBox(params.search, params.update);
  const errors = useTrackedErrors(project.id, params.query);
  const canAdmin = role.can('admin_error_tracking');
  const setting = useErrorTrackingSetting(project.id, { enabled: canAdmin });
  // Only Maintainers may read the setting; for them, "off" is known (never saved, or switched off).
  const trackingOff = canAdmin && setting.data !== undefined && !(setting.data?.active && setting.data.integrated);
  const settingsHref = errorTrackingHref(project.path_with_namespace, 'settings');

  const columns = useMemo(
    () => [
      col.accessor('title', {
        header: 'Error',
        cell: (i) => {
          const e = i.row.original;
          return (
            <Stack gap={2} maw={420}>
              <Group gap={6} wrap="nowrap" align="flex-start">
                <Anchor component={Link} to={errorTrackingHref(project.path_with_namespace, e.id)} size="sm" fw={600} style={{ wordBreak: 'break-word' }}>
                  {e.title}
                </Anchor>
                {e.status !== 'unresolved' && <StatusBadge status={e.status} />}
              </Group>
              {e.culprit && (
                <Text size="xs" c="dimmed" ff="monospace" style={{ wordBreak: 'break-all' }}>
                  {e.culprit}
                </Text>
              )}
            </Stack>
          );
        },
      }),
      col.accessor('count', { header: 'Events', cell: (i) => <Text size="sm">{formatNumber(i.getValue())}</Text> }),
      col.accessor('user_count', { header: 'Users', cell: (i) => <Text size="sm">{formatNumber(i.getValue())}</Text> }),
      col.accessor('frequency', {
        header: 'Last 24 hours',
        cell: (i) => <FrequencyBars buckets={i.getValue()} label={frequencySummary(i.getValue(), '24 hours', hourName)} />,
        meta: { hideNarrow: true },
      }),
      col.accessor('last_seen', {
        header: 'Last / first seen',
        cell: (i) => (
          <Stack gap={0}>
            <When iso={i.getValue()} />
            <Text size="xs" c="dimmed" title={fullDateTime(i.row.original.first_seen)}>
              first {fromNow(i.row.original.first_seen)}
            </Text>
          </Stack>
        ),
      }),
    ],
    [project.path_with_namespace],
  );

  const filtered = Boolean(params.search);
  const items = errors.data?.items ?? [];
  const tabLabel = params.status === 'all' ? 'All errors' : `${STATUS_LABELS[params.status]} errors`;
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={2} size="h3">
            Errors
          </Title>
          <Text c="dimmed" size="sm" maw={680}>
            Exceptions and messages the project’s applications report with a Sentry SDK, grouped into errors, most recently seen first. Open one to see its stack trace, resolve it or make an issue of it.
          </Text>
        </div>
        {canAdmin && (
          <Button component={Link} to={settingsHref} variant="default" leftSection={<IconSettings size={16} />}>
            Error tracking settings
          </Button>
        )}
      </Group>
      {trackingOff && items.length > 0 && (
        <Alert color="orange" variant="light" icon={<IconAlert size={16} />} title="Error tracking is off" p="sm">
          The errors below were reported before; new ones are refused until it is turned on again in the{' '}
          <Anchor component={Link} to={settingsHref} size="sm">
            settings
          </Anchor>
          .
        </Alert>
      )}
      <Group gap="sm" align="flex-end" wrap="wrap">
        <TextInput label="Search" placeholder="Error type or message" leftSection={<IconSearch size={16} />} value={searchBox.value} onChange={searchBox.onChange} w={280} />
        <NativeSelect label="Sort by" value={params.sort} onChange={(e) => params.update({ order: e.currentTarget.value === 'last_seen' ? null : e.currentTarget.value })} data={Object.entries(SORTS).map(([value, label]) => ({ value, label }))} />
      </Group>
      <Tabs value={params.status} onChange={(v) => params.update({ status: v === 'unresolved' || !v ? null : v })} variant="outline">
        <Tabs.List aria-label="Error status">
          {TABS.map((s) => (
            <Tabs.Tab key={s} value={s} {...(s !== params.status && { 'aria-controls': undefined })}>
              {s === 'all' ? 'All' : STATUS_LABELS[s]}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value={params.status} pt="md">
          <QueryContent
            query={errors}
            what="errors"
            forbidden={<RoleForbidden title={FORBIDDEN_TITLE} hint={FORBIDDEN_HINT} />}
            empty={(data) =>
              data.items.length === 0 &&
              (filtered ? (
                <EmptyState title="No error matches this search" action={<Button variant="default" onClick={() => params.update({ search: null })}>Clear the search</Button>} />
              ) : trackingOff && params.status === 'unresolved' ? (
                <EmptyState
                  title="Error tracking is off"
                  action={
                    <Button component={Link} to={settingsHref} leftSection={<IconSettings size={16} />}>
                      Turn it on in the settings
                    </Button>
                  }
                >
                  Turn it on and configure an application’s Sentry SDK with the project’s DSN; the errors it reports appear here.
                </EmptyState>
              ) : (
                <EmptyState
                  title={params.status === 'all' ? 'No errors reported' : `No ${STATUS_LABELS[params.status].toLowerCase()} errors`}
                  action={canAdmin && params.status === 'unresolved' && <Button component={Link} to={settingsHref} variant="default">Get the DSN</Button>}
                >
                  {params.status === 'unresolved' || params.status === 'all'
                    ? canAdmin
                      ? 'Errors appear here once an application reports with a Sentry SDK configured with the project’s DSN (in the settings).'
                      : 'Errors appear here once a Maintainer turns error tracking on and an application reports with the project’s DSN.'
                    : `Errors you mark ${STATUS_LABELS[params.status].toLowerCase()} are listed here.`}
                </EmptyState>
              ))
            }
          >
            {(data) => <DataTable label={tabLabel} items={data.items} columns={columns} getRowId={(e) => String(e.id)} busy={errors.isFetching && errors.isPlaceholderData} minWidth={640} />}
          </QueryContent>
        </Tabs.Panel>
      </Tabs>
      <TablePager info={errors.data?.page} shown={items.length} what={(n) => (n === 1 ? 'error' : 'errors')} onPage={params.setPage} />
    </Stack>
  );
}
