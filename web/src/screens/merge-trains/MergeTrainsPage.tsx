import { useMemo, useState } from 'react';
import { Alert, Anchor, Badge, Button, Code, Group, NumberInput, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { Link } from 'react-router';
import type { MergeTrain } from '../../../../shared/src/merge-trains.ts';
import { useAddToTrain, useHistoryFollowsQueue, useMergeSettings, useMergeTrains, useRemoveFromTrain, useUpdateMergeSettings } from '../../api/merge-trains.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { DataTable, TablePager } from '../../components/DataTable.tsx';
import { useListParams } from '../../components/list-params.ts';
import { notifySuccess } from '../../components/notify.ts';
import { RequireAbility, RoleForbidden } from '../../components/ResourcePage.tsx';
import { EmptyState, QueryContent } from '../../components/states.tsx';
import { formatRoundedDuration, fromNow } from '../../format.ts';
import { mergeRequestHref } from '../../paths.ts';
import { StatusBadge } from '../pipelines/status.tsx';
import { useProjectContext } from '../projects/project-context.ts';

const FORBIDDEN_TITLE = 'You need the Developer role to see merge trains';
const FORBIDDEN_HINT = 'Merge trains are shown to the project’s Developers, Maintainers and Owners.';

/** /projects/<path>/-/merge_trains: the queues per target branch, the merged history and the dropped cars. */
export default function MergeTrainsPage() {
  return (
    <RequireAbility action="push_code" title={FORBIDDEN_TITLE} hint={FORBIDDEN_HINT}>
      <MergeTrains />
    </RequireAbility>
  );
}

const STATUS_WORDS: Record<string, string> = { idle: 'Waiting', stale: 'Rebuilding', fresh: 'In pipeline', merging: 'Merging', merged: 'Merged', skip_merged: 'Merged immediately' };

/** Seconds since `iso`, for "time waiting" and "time in pipeline". */
const since = (iso: string | null, until?: string | null) => (iso ? Math.max(0, Math.round(((until ? Date.parse(until) : Date.now()) - Date.parse(iso)) / 1000)) : null);

function MrCell({ car }: { car: MergeTrain }) {
  const { project } = useProjectContext();
  return (
    <Stack gap={0}>
      <Anchor component={Link} to={mergeRequestHref(project.path_with_namespace, car.merge_request.iid)} size="sm" fw={600}>
        !{car.merge_request.iid} {car.merge_request.title}
      </Anchor>
      <Text size="xs" c="dimmed">by {car.author?.name ?? 'unknown'}</Text>
    </Stack>
  );
}

const col = createColumnHelper<MergeTrain>();

function MergeTrains() {
  const { project } = useProjectContext();
  const settings = useMergeSettings(project.id);
  return (
    <QueryContent query={settings} what="merge trains" errorTitle="Merge train settings could not be loaded">
      {(s) => <Trains enabled={s.merge_trains_enabled === true} />}
    </QueryContent>
  );
}

/** The page once the settings are read; the trains themselves are read only while trains are on. */
function Trains({ enabled }: { enabled: boolean }) {
  const { project, role } = useProjectContext();
  const active = useMergeTrains(project.id, 'active', 1, { enabled, follow: true });
  const list = useListParams();
  const merged = useMergeTrains(project.id, 'complete', list.page, { enabled });
  const dropped = useMergeTrains(project.id, 'dropped', 1, { enabled });
  useHistoryFollowsQueue(project.id, active.data?.items);
  const [removing, setRemoving] = useState<MergeTrain | null>(null);
  const remove = useRemoveFromTrain(project.id, { meta: { errorTitle: 'The merge request was not removed' } });

  const queueColumns = useMemo(
    () => [
      col.accessor('position', { header: 'Position', cell: (i) => <Text fw={700}>{i.getValue()}</Text>, meta: { width: 80 } }),
      col.display({ id: 'mr', header: 'Merge request', cell: ({ row }) => <MrCell car={row.original} /> }),
      col.accessor((c) => c.user?.name ?? '—', { id: 'added_by', header: 'Added by', meta: { hideNarrow: true } }),
      col.display({
        id: 'pipeline',
        header: 'Pipeline',
        cell: ({ row }) => {
          const c = row.original;
          return (
            <Group gap={6} wrap="nowrap">
              {c.pipeline ? <StatusBadge status={c.pipeline.status} /> : <Badge variant="light" color="gray" tt="none">{STATUS_WORDS[c.status]}</Badge>}
              {c.stuck && (
                <Badge color="orange" variant="filled" tt="none" title="No pipeline activity for over 30 minutes: is the CI reporting?">
                  Stuck
                </Badge>
              )}
            </Group>
          );
        },
      }),
      col.accessor('created_at', { header: 'Waiting', cell: (i) => formatRoundedDuration(since(i.getValue())) }),
      col.accessor('pipeline_started_at', { header: 'In pipeline', cell: (i) => (i.row.original.pipeline ? formatRoundedDuration(since(i.getValue())) : '—') }),
      col.display({
        id: 'actions',
        header: 'Actions',
        cell: ({ row }) => (
          <Button size="xs" variant="default" color="red" onClick={() => setRemoving(row.original)} aria-label={`Remove !${row.original.merge_request.iid} from the merge train`}>
            Remove
          </Button>
        ),
      }),
    ],
    [],
  );
  const mergedColumns = useMemo(
    () => [
      col.display({ id: 'mr', header: 'Merge request', cell: ({ row }) => <MrCell car={row.original} /> }),
      col.accessor('target_branch', { header: 'Target branch', cell: (i) => <Text size="sm" ff="monospace">{i.getValue()}</Text> }),
      col.accessor('status', { header: 'How', cell: (i) => STATUS_WORDS[i.getValue()] }),
      col.accessor('merged_at', { header: 'Merged', cell: (i) => (i.getValue() ? <Text size="sm" title={i.getValue()!}>{fromNow(i.getValue()!)}</Text> : '—') }),
      col.accessor('duration', { header: 'Duration on the train', cell: (i) => formatRoundedDuration(i.getValue()) }),
    ],
    [],
  );
  const droppedColumns = useMemo(
    () => [
      col.display({ id: 'mr', header: 'Merge request', cell: ({ row }) => <MrCell car={row.original} /> }),
      col.accessor('dropped_reason', { header: 'Reason', cell: (i) => <Text size="sm">{i.getValue()}</Text> }),
      col.accessor('finished_at', { header: 'Dropped', cell: (i) => (i.getValue() ? fromNow(i.getValue()!) : '—') }),
    ],
    [],
  );

  const queues = new Map<string, MergeTrain[]>();
  for (const c of (active.data?.items ?? []).filter((x) => !x.scheduled)) queues.set(c.target_branch, [...(queues.get(c.target_branch) ?? []), c]);
  const scheduled = (active.data?.items ?? []).filter((x) => x.scheduled);

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <Stack gap={2}>
          <Title order={2}>Merge trains</Title>
          <Text size="sm" c="dimmed">
            Each car’s pipeline runs on the target branch with every car ahead merged in; the head car merges when its pipeline passes.
          </Text>
        </Stack>
      </Group>
      <TrainSettings />
      {enabled && <AddToTrain />}
      {enabled && (
        <QueryContent
          query={active}
          what="the queue"
          errorTitle="The merge trains could not be loaded"
          forbidden={<RoleForbidden title={FORBIDDEN_TITLE} hint={FORBIDDEN_HINT} />}
          empty={() =>
            queues.size === 0 && (
              <EmptyState title="No merge request is on a train">
                A merge request gets on when it is added here (or by a script: <Code>POST /projects/:id/merge_trains/merge_requests/:iid</Code>). It then waits
                for its own pipeline if that has not passed yet, joins the queue of its target branch, and merges when its train pipeline passes.
              </EmptyState>
            )
          }
        >
          {() =>
            [...queues.entries()].map(([branch, cars]) => (
              <Stack gap="xs" key={branch}>
                <Title order={3} size="h4">
                  Queue into <Text span ff="monospace" inherit>{branch}</Text> ({cars.length})
                </Title>
                <DataTable label={`Merge train into ${branch}`} items={cars} columns={queueColumns} getRowId={(c) => String(c.id)} />
              </Stack>
            ))
          }
        </QueryContent>
      )}
      {enabled && scheduled.length > 0 && (
        <Alert color="blue" title="Waiting for their own pipeline">
          {scheduled.map((c) => `!${c.merge_request.iid} ${c.merge_request.title}`).join(', ')} join the train when their pipeline passes.
        </Alert>
      )}
      {enabled && (dropped.data?.items.length ?? 0) > 0 && (
        <Stack gap="xs">
          <Title order={3} size="h4">Dropped from the train</Title>
          <DataTable label="Dropped merge requests" items={dropped.data!.items} columns={droppedColumns} getRowId={(c) => String(c.id)} />
        </Stack>
      )}
      {enabled && (merged.data?.items.length ?? 0) > 0 && (
        <Stack gap="xs">
          <Title order={3} size="h4">Merged</Title>
          <DataTable label="Merged by the train" items={merged.data!.items} columns={mergedColumns} getRowId={(c) => String(c.id)} />
          <TablePager info={merged.data?.page} shown={merged.data?.items.length ?? 0} what={(n) => (n === 1 ? 'merge' : 'merges')} onPage={(p) => list.update({ page: String(p) })} />
        </Stack>
      )}
      <ConfirmDialog
        opened={removing !== null}
        title="Remove from the merge train?"
        confirmLabel="Remove from train"
        loading={remove.isPending}
        onClose={() => setRemoving(null)}
        onConfirm={() =>
          removing &&
          remove.mutate(removing.merge_request.iid, {
            onSuccess: () => {
              notifySuccess('Removed from the merge train', `!${removing.merge_request.iid} is no longer on the train; the cars behind it restart without it.`);
              setRemoving(null);
            },
          })
        }
      >
        !{removing?.merge_request.iid} {removing?.merge_request.title} leaves the train; its pipeline is canceled and the cars behind it get new pipelines.
      </ConfirmDialog>
      {!role.can('admin_project') && !enabled && <Text size="sm" c="dimmed">A Maintainer can turn merge trains on for this project.</Text>}
    </Stack>
  );
}

/** Turning trains on and the number of pipelines run at once (Maintainers). */
function TrainSettings() {
  const { project, role } = useProjectContext();
  const settings = useMergeSettings(project.id);
  const update = useUpdateMergeSettings(project.id, { meta: { errorTitle: 'Merge train settings were not saved' } });
  const [limit, setLimit] = useState<number | string>('');
  if (!settings.data) return null;
  const s = settings.data;
  const admin = role.can('admin_project');
  return (
    <Paper withBorder p="md" radius="md">
      <Group gap="xl" align="flex-end">
        <Switch
          label="Merge trains"
          description={s.merge_trains_enabled ? 'Merge requests merge through a train' : 'Off: merge requests merge directly'}
          checked={s.merge_trains_enabled}
          disabled={!admin || update.isPending}
          onChange={(e) => update.mutate({ merge_trains_enabled: e.currentTarget.checked })}
        />
        <NumberInput
          label="Pipelines at once"
          description="Cars past this number wait"
          min={1}
          max={100}
          w={180}
          value={limit === '' ? s.merge_trains_cars_limit : limit}
          disabled={!admin}
          onChange={setLimit}
          onBlur={() => typeof limit === 'number' && limit !== s.merge_trains_cars_limit && update.mutate({ merge_trains_cars_limit: limit })}
        />
      </Group>
    </Paper>
  );
}

/** Adds an open merge request by its number. */
function AddToTrain() {
  const { project } = useProjectContext();
  const [iid, setIid] = useState<number | string>('');
  const add = useAddToTrain(project.id, { meta: { errorTitle: 'The merge request was not added' } });
  return (
    <Group align="flex-end" gap="sm" component="form" onSubmit={(e: React.FormEvent) => {
      e.preventDefault();
      // The queue shows the new car: no toast needed.
      // Clears the field only if it still holds the number sent: one typed meanwhile stays.
      if (typeof iid === 'number') add.mutate(iid, { onSuccess: (_car, sent) => setIid((now) => (now === sent ? '' : now)) });
    }}>
      <NumberInput label="Merge request number" description="The number after ! in its title" min={1} w={220} value={iid} onChange={setIid} hideControls />
      <Button type="submit" loading={add.isPending} disabled={typeof iid !== 'number'}>
        Add to merge train
      </Button>
    </Group>
  );
}
