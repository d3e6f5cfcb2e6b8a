import { useMemo, useState } from 'react';
import { Badge, Button, Code, Group, NativeSelect, Stack, Tabs, Text, Title } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { JOB_STATES, type AdminJob, type AdminJobsSummary, type JobState } from '../../../../shared/src/admin-jobs.ts';
import { useAdminJobs, useAdminJobsSummary, useRetryJob } from '../../api/admin.ts';
import { DataTable, TablePager } from '../../components/DataTable.tsx';
import { IconRefresh } from '../../components/icons.tsx';
import { useListParams } from '../../components/list-params.ts';
import { notifySuccess } from '../../components/notify.ts';
import { EmptyState, QueryContent } from '../../components/states.tsx';
import { formatNumber, fromNow, fullDateTime } from '../../format.ts';
import { AdminForbidden } from './admin-states.tsx';

/** The queue's states in the words of the screen: `pending` is a job waiting its turn (or a retry's back-off). */
const STATE_LABELS: Record<JobState, string> = { pending: 'Queued', running: 'Running', failed: 'Failed', done: 'Done' };
const STATE_COLORS: Record<JobState, string> = { pending: 'blue', running: 'violet', failed: 'red', done: 'green' };
const KIND_LABELS: Record<string, string> = {
  hook_delivery: 'Webhook delivery',
  housekeeping: 'Housekeeping',
  iterations: 'Iteration cadences',
  merge_train: 'Merge train',
  auto_merge: 'Auto-merge',
  export: 'Export',
};
const kindLabel = (kind: string) => KIND_LABELS[kind] ?? kind;
const ALL = 'all';

const col = createColumnHelper<AdminJob>();

function When({ label, iso }: { label: string; iso: string }) {
  return (
    <Text size="sm" title={fullDateTime(iso)}>
      {label} {fromNow(iso)}
    </Text>
  );
}

/** A job's last error: its first line, and the rest (where it was thrown) behind a disclosure. */
function LastError({ error }: { error: string | null }) {
  if (!error) return <Text size="sm">—</Text>;
  const [first, ...rest] = error.split('\n');
  if (!rest.length)
    return (
      <Text size="sm" ff="monospace" miw={260} style={{ overflowWrap: 'anywhere' }}>
        {first}
      </Text>
    );
  return (
    <details style={{ minWidth: 260 }}>
      <summary style={{ cursor: 'pointer', overflowWrap: 'anywhere' }}>
        <Text span size="sm" ff="monospace">
          {first}
        </Text>
      </summary>
      <Code block mt={4} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', maxHeight: 240, overflow: 'auto' }}>
        {rest.join('\n')}
      </Code>
    </details>
  );
}

/** What the State filter's tabs say: each state with its count, once the summary has loaded. */
const tabLabel = (state: JobState | typeof ALL, summary: AdminJobsSummary | undefined) => {
  if (state === ALL) return summary ? `All (${formatNumber(Object.values(summary.counts).reduce((a, b) => a + b, 0))})` : 'All';
  return summary ? `${STATE_LABELS[state]} (${formatNumber(summary.counts[state])})` : STATE_LABELS[state];
};

/** /admin/jobs: the background job queue: counts by state, the jobs by state and kind, and Retry for those that failed. */
export default function JobsPage() {
  const list = useListParams();
  const state = JOB_STATES.find((s) => s === list.get('state'));
  const kind = list.get('kind') || undefined;
  const summary = useAdminJobsSummary();
  const jobs = useAdminJobs({ state, kind, page: list.page, per_page: list.perPage });
  const retry = useRetryJob({ meta: { errorTitle: 'The job was not retried' } });
  const [retrying, setRetrying] = useState<number | null>(null);

  const columns = useMemo(
    () => [
      col.accessor('kind', {
        header: 'Job',
        cell: ({ row }) => (
          <Stack gap={0} miw={130}>
            <Text size="sm" fw={600}>
              {kindLabel(row.original.kind)}
            </Text>
            <Text size="xs" c="dimmed">
              #{row.original.id} · {row.original.kind}
            </Text>
          </Stack>
        ),
      }),
      col.accessor('state', {
        header: 'State',
        meta: { width: 130 },
        cell: ({ row }) => (
          <Stack gap={2} align="flex-start">
            <Badge color={STATE_COLORS[row.original.state]} variant="light" size="sm" tt="none" style={{ flexShrink: 0, overflow: 'visible' }}>
              {STATE_LABELS[row.original.state]}
            </Badge>
            <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
              {`${row.original.attempts} of ${row.original.max_attempts} attempts`}
            </Text>
          </Stack>
        ),
      }),
      col.accessor('last_error', { header: 'Last error', cell: (i) => <LastError error={i.getValue()} /> }),
      col.display({
        id: 'times',
        header: 'Times',
        meta: { hideNarrow: true, width: 200 },
        cell: ({ row }) => (
          <Stack gap={0}>
            <When label="Queued" iso={row.original.created_at} />
            {row.original.state === 'pending' ? (
              <When label={row.original.run_at > row.original.created_at && row.original.attempts > 0 ? 'Next try' : 'Runs'} iso={row.original.run_at} />
            ) : row.original.state === 'running' ? (
              <When label="Started" iso={row.original.updated_at} />
            ) : (
              <When label={row.original.state === 'failed' ? 'Failed' : 'Finished'} iso={row.original.updated_at} />
            )}
          </Stack>
        ),
      }),
      col.display({
        id: 'actions',
        header: () => <span className="gh-visually-hidden">Actions</span>,
        cell: ({ row }) =>
          row.original.state === 'failed' ? (
            <Button
              size="compact-sm"
              variant="light"
              leftSection={<IconRefresh size={14} />}
              loading={retry.isPending && retrying === row.original.id}
              aria-label={`Retry job #${row.original.id}`}
              onClick={() => {
                setRetrying(row.original.id);
                retry.mutate(row.original.id, { onSuccess: (job) => notifySuccess('Job queued again', `#${job.id} (${kindLabel(job.kind)}) runs now, with ${job.max_attempts} attempts.`) });
              }}
            >
              Retry
            </Button>
          ) : null,
      }),
    ],
    [retry, retrying],
  );

  const filtered = Boolean(state || kind);
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start" gap="sm">
        <div style={{ flex: '1 1 320px' }}>
          <Title order={2} size="h3">
            Background jobs
          </Title>
          <Text c="dimmed" size="sm" maw={640}>
            Work the server does after answering: webhook deliveries, exports, merge trains, auto-merges and housekeeping. A job is tried again with a growing wait
            after each error; once its attempts run out it is failed until you retry it. Finished jobs are removed after a day.
          </Text>
        </div>
        <Button
          variant="default"
          leftSection={<IconRefresh size={16} />}
          loading={jobs.isFetching && !jobs.isPending}
          onClick={() => {
            void summary.refetch();
            void jobs.refetch();
          }}
        >
          Refresh
        </Button>
      </Group>

      <Group gap="sm" align="flex-end" wrap="wrap">
        <NativeSelect
          label="Kind"
          value={kind ?? ''}
          onChange={(e) => list.update({ kind: e.currentTarget.value || null })}
          data={[{ value: '', label: 'All kinds' }, ...(summary.data?.kinds ?? (kind ? [kind] : [])).map((k) => ({ value: k, label: kindLabel(k) }))]}
          style={{ flex: '1 1 200px', maxWidth: 260 }}
        />
      </Group>

      <Tabs value={state ?? ALL} onChange={(v) => list.update({ state: v === ALL ? null : v })} variant="outline">
        <Tabs.List aria-label="Job state">
          {([ALL, ...JOB_STATES] as const).map((s) => (
            <Tabs.Tab key={s} value={s} {...(s !== (state ?? ALL) && { 'aria-controls': undefined })}>
              {tabLabel(s, summary.data)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value={state ?? ALL} pt="md">
          <QueryContent
            query={jobs}
            what="background jobs"
            forbidden={<AdminForbidden />}
            empty={(data) =>
              data.items.length === 0 &&
              (filtered ? (
                <EmptyState
                  title={state === 'failed' ? 'No failed jobs' : 'No jobs match'}
                  action={
                    <Button variant="default" onClick={() => list.update({ state: null, kind: null })}>
                      Show all jobs
                    </Button>
                  }
                >
                  {state === 'failed' ? 'Every job that ran out of attempts has been retried or removed.' : 'No job of this state and kind is in the table now.'}
                </EmptyState>
              ) : (
                <EmptyState title="No background jobs">Jobs appear here when webhooks fire, exports are asked for or merge trains run.</EmptyState>
              ))
            }
          >
            {(data) => <DataTable label="Background jobs" items={data.items} columns={columns} getRowId={(j) => String(j.id)} busy={jobs.isPlaceholderData} />}
          </QueryContent>
        </Tabs.Panel>
      </Tabs>
      <TablePager info={jobs.data?.page} shown={jobs.data?.items.length ?? 0} what={(n) => (n === 1 ? 'job' : 'jobs')} onPage={list.setPage} />
    </Stack>
  );
}
