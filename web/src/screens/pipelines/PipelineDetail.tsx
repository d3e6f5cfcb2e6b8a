import { useMemo, useState } from 'react';
import { Anchor, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { Link, useNavigate } from 'react-router';
import type { Job, Pipeline } from '../../../../shared/src/pipelines.ts';
import { httpUrl } from '../../../../shared/src/links.ts';
import { useCancelPipeline, useDeletePipeline, usePipeline, usePipelineJobs, useRetryPipeline } from '../../api/pipelines.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { DataTable } from '../../components/DataTable.tsx';
import { IconArrowLeft, IconExternal } from '../../components/icons.tsx';
import { notifySuccess } from '../../components/notify.ts';
import { RoleForbidden } from '../../components/ResourcePage.tsx';
import { EmptyState, NotFoundState, QueryContent } from '../../components/states.tsx';
import { formatRoundedDuration, fromNow } from '../../format.ts';
import { projectHref } from '../../paths.ts';
import { useProjectContext } from '../projects/project-context.ts';
import { FORBIDDEN_HINT, FORBIDDEN_TITLE, StatusBadge } from './status.tsx';
import { Fact } from '../../components/Fact.tsx';

const FINISHED = new Set(['success', 'failed', 'canceled', 'skipped']);
const col = createColumnHelper<Job>();

const jobColumns = [
  col.accessor('status', { header: 'Status', cell: (i) => <StatusBadge status={i.getValue()} /> }),
  col.accessor('name', { header: 'Job', cell: (i) => <Text size="sm" fw={600}>{i.getValue()}</Text> }),
  col.accessor('description', { header: 'Description', cell: (i) => i.getValue() ?? '—', meta: { hideNarrow: true } }),
  col.accessor('target_url', {
    header: 'Details',
    cell: (i) => {
      // Only an http(s) target is a link (the API refuses others; this holds for any stored before).
      const url = httpUrl(i.getValue());
      return url ? (
        <Anchor href={url} target="_blank" rel="noreferrer noopener" size="sm" aria-label={`${i.row.original.name} on the CI system (opens in a new tab)`}>
          <Group gap={4} wrap="nowrap">
            Open in CI <IconExternal size={14} />
          </Group>
        </Anchor>
      ) : (
        '—'
      );
    },
  }),
  col.accessor('coverage', { header: 'Coverage', cell: (i) => (i.getValue() === null ? '—' : `${i.getValue()}%`), meta: { hideNarrow: true } }),
  col.accessor('duration', { header: 'Duration', cell: (i) => formatRoundedDuration(i.getValue()) }),
  col.accessor('created_at', { header: 'Reported', cell: (i) => <Text size="sm" title={i.getValue()}>{fromNow(i.row.original.finished_at ?? i.row.original.started_at ?? i.getValue())}</Text>, meta: { hideNarrow: true } }),
];

/** …/-/pipelines/<id>: one pipeline, its jobs and their links to the CI that ran them; cancel, retry, delete. */
export function PipelineDetail({ pipelineId }: { pipelineId: number }) {
  const { project } = useProjectContext();
  const pipeline = usePipeline(project.id, pipelineId);
  const running = pipeline.data ? !FINISHED.has(pipeline.data.status) : false;
  // Read beside the pipeline rather than after it.
  const jobs = usePipelineJobs(project.id, pipelineId, { refetch: running });
  const listHref = projectHref(project.path_with_namespace, 'pipelines');
  return (
    <QueryContent
      query={pipeline}
      what="the pipeline"
      notFound={
        <NotFoundState title="Pipeline not found" action={<Button component={Link} to={listHref} variant="default">All pipelines</Button>}>
          Pipeline #{pipelineId} does not exist in {project.name_with_namespace}, or it was deleted.
        </NotFoundState>
      }
      forbidden={<RoleForbidden title={FORBIDDEN_TITLE} hint={FORBIDDEN_HINT} />}
    >
      {(p) => <PipelinePage p={p} running={running} jobs={jobs} listHref={listHref} />}
    </QueryContent>
  );
}

function PipelinePage({ p, running, jobs, listHref }: { p: Pipeline; running: boolean; jobs: ReturnType<typeof usePipelineJobs>; listHref: string }) {
  const { project, role } = useProjectContext();
  const navigate = useNavigate();
  const cancel = useCancelPipeline(project.id, { meta: { errorTitle: 'The pipeline was not canceled' } });
  const retry = useRetryPipeline(project.id, { meta: { errorTitle: 'The pipeline was not retried' } });
  const remove = useDeletePipeline(project.id, { meta: { errorTitle: 'The pipeline was not deleted', forbidden: 'Only Owners may delete pipelines.' } });
  const [deleting, setDeleting] = useState(false);
  const back = (
    <Button component={Link} to={listHref} variant="subtle" leftSection={<IconArrowLeft size={16} />} px={0} w="fit-content">
      All pipelines
    </Button>
  );
  const jobItems = useMemo(() => jobs.data ?? [], [jobs.data]);
  const canUpdate = role.can('update_pipeline');
  const retryable = jobItems.some((j) => j.status === 'failed' || j.status === 'canceled');

  return (
    <Stack gap="md">
      {back}
      <Group justify="space-between" align="flex-start">
        <Group gap="sm" align="center">
          <Title order={2} size="h3">
            Pipeline #{p.id}
          </Title>
          <StatusBadge status={p.status} />
        </Group>
        <Group gap="xs">
          {canUpdate && running && (
            <Button variant="default" loading={cancel.isPending} onClick={() => cancel.mutate(p.id, { onSuccess: () => notifySuccess('Pipeline canceled', `Pipeline #${p.id} was canceled.`) })}>
              Cancel pipeline
            </Button>
          )}
          {canUpdate && retryable && (
            <Button variant="default" loading={retry.isPending} onClick={() => retry.mutate(p.id, { onSuccess: () => notifySuccess('Pipeline retried', 'Its failed and canceled jobs wait for the CI system to run them again.') })}>
              Retry failed jobs
            </Button>
          )}
          {role.can('destroy_pipeline') && (
            <Button variant="light" color="red" onClick={() => setDeleting(true)}>
              Delete
            </Button>
          )}
        </Group>
      </Group>
      <Paper withBorder p="md" radius="md">
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md">
          <Fact label="Ref">
            <Text span ff="monospace" size="sm">{p.ref}</Text>
            {p.tag ? ' (tag)' : ''}
          </Fact>
          <Fact label="Commit">
            <Text span ff="monospace" size="sm" title={p.sha}>{p.sha.slice(0, 8)}</Text>
          </Fact>
          <Fact label="Source">{p.source}</Fact>
          <Fact label="Started by">{p.user?.name ?? '—'}</Fact>
          <Fact label="Created">
            <span title={p.created_at}>{fromNow(p.created_at)}</span>
          </Fact>
          <Fact label="Duration">{formatRoundedDuration(p.duration)}</Fact>
          <Fact label="Queued">{formatRoundedDuration(p.queued_duration)}</Fact>
          <Fact label="Coverage">{p.coverage ? `${p.coverage}%` : '—'}</Fact>
        </SimpleGrid>
      </Paper>
      <Title order={3} size="h4">
        Jobs
      </Title>
      <QueryContent
        query={jobs}
        what="jobs"
        errorTitle="The jobs could not be loaded"
        empty={() =>
          jobItems.length === 0 && (
            <EmptyState title="No jobs reported yet">
              The CI system reports each job with <Text span ff="monospace">POST /api/v4/projects/{project.id}/statuses/{p.sha.slice(0, 8)}…</Text> and{' '}
              <Text span ff="monospace">pipeline_id={p.id}</Text>.
            </EmptyState>
          )
        }
      >
        {() => <DataTable label="Jobs" items={jobItems} columns={jobColumns} getRowId={(j) => String(j.id)} busy={jobs.isFetching} minWidth={640} />}
      </QueryContent>
      <ConfirmDialog
        opened={deleting}
        title={`Delete pipeline #${p.id}?`}
        confirmLabel="Delete pipeline"
        loading={remove.isPending}
        onConfirm={() =>
          remove.mutate(p.id, {
            onSuccess: () => {
              notifySuccess('Pipeline deleted', `Pipeline #${p.id} and its jobs were deleted.`);
              setDeleting(false);
              void navigate(listHref);
            },
          })
        }
        onClose={() => setDeleting(false)}
      >
        The pipeline and the statuses its jobs reported are deleted. The commits stay.
      </ConfirmDialog>
    </Stack>
  );
}
