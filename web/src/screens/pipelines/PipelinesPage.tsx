import { useMemo } from 'react';
import { Anchor, Button, Group, NativeSelect, Stack, Text, TextInput, Title } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { Link, useParams } from 'react-router';
import { PIPELINE_SOURCES, PIPELINE_STATUSES, statusText, type PipelineBasic } from '../../../../shared/src/pipelines.ts';
import { useProjectPipelines, usePipelineJobs, type PipelinesQuery } from '../../api/pipelines.ts';
import { DataTable, TablePager } from '../../components/DataTable.tsx';
import { useListParams, useSearchBox } from '../../components/list-params.ts';
import { RequireAbility, RoleForbidden } from '../../components/ResourcePage.tsx';
import { EmptyState, NotFoundState, QueryContent } from '../../components/states.tsx';
import { formatRoundedDuration, fromNow } from '../../format.ts';
import { projectHref, sectionRest } from '../../paths.ts';
import { useProjectContext } from '../projects/project-context.ts';
import { PipelineDetail } from './PipelineDetail.tsx';
import { FORBIDDEN_HINT, FORBIDDEN_TITLE, JobIcon, StatusBadge } from './status.tsx';


/** /projects/<path>/-/pipelines[/<id>]: the project's pipelines, or one of them. */
export default function PipelinesPage() {
  const { '*': splat = '' } = useParams();
  const { project } = useProjectContext();
  const rest = sectionRest(splat);
  let screen: React.ReactNode;
  if (rest.length === 0) screen = <PipelinesList key={project.id} />;
  else if (rest.length === 1 && /^\d{1,10}$/.test(rest[0])) screen = <PipelineDetail key={rest[0]} pipelineId={Number(rest[0])} />;
  else {
    screen = (
      <NotFoundState
        title="No such pipeline page"
        action={
          <Button component={Link} to={projectHref(project.path_with_namespace, 'pipelines')} variant="default">
            All pipelines
          </Button>
        }
      >
        There is nothing at “{rest.join('/')}” here.
      </NotFoundState>
    );
  }
  return (
    <RequireAbility action="read_pipeline" title={FORBIDDEN_TITLE} hint={FORBIDDEN_HINT}>
      {screen}
    </RequireAbility>
  );
}

const STATUS_OPTIONS = PIPELINE_STATUSES.filter((s) => ['created', 'pending', 'running', 'success', 'failed', 'canceled', 'skipped'].includes(s));
const SOURCE_LABELS: Partial<Record<(typeof PIPELINE_SOURCES)[number], string>> = { push: 'Push', trigger: 'Trigger token', external: 'External CI', api: 'API', web: 'Web', schedule: 'Schedule' };
const sourceLabel = (s: string) => SOURCE_LABELS[s as keyof typeof SOURCE_LABELS] ?? s;

/** Status, source, ref and page live in the URL (only values the API knows are sent). */
function usePipelineParams() {
  const list = useListParams();
  const status = (STATUS_OPTIONS as readonly string[]).includes(list.get('status')) ? list.get('status') : '';
  const source = (PIPELINE_SOURCES as readonly string[]).includes(list.get('source')) ? list.get('source') : '';
  const ref = list.get('ref').slice(0, 255);
  const query: PipelinesQuery = { status: (status || undefined) as PipelinesQuery['status'], source: (source || undefined) as PipelinesQuery['source'], ref: ref || undefined, page: list.page };
  return { ...list, status, source, ref, query, filtered: Boolean(status || source || ref) };
}

/** The jobs of a row as status icons, read per row (a pipeline of an external CI has a handful). */
function JobIcons({ projectId, pipeline }: { projectId: number; pipeline: PipelineBasic }) {
  const jobs = usePipelineJobs(projectId, pipeline.id);
  if (jobs.isPending) return <Text size="xs" c="dimmed">…</Text>;
  if (jobs.isError) return <Text size="xs" c="dimmed">—</Text>;
  if (!jobs.data.length) return <Text size="xs" c="dimmed">No jobs yet</Text>;
  return (
    <Group gap={4} wrap="nowrap">
      {[...jobs.data].reverse().map((j) => (
        <JobIcon key={j.id} name={j.name} status={j.status} />
      ))}
    </Group>
  );
}

const col = createColumnHelper<PipelineBasic>();

function PipelinesList() {
  const { project } = useProjectContext();
  const list = usePipelineParams();
  const pipelines = useProjectPipelines(project.id, list.query);
  const refBox = useSearchBox(list.ref, (changes, opts) => list.update({ ref: changes.search ?? null }, opts));
  const hrefOf = (id: number) => projectHref(project.path_with_namespace, `pipelines/${id}`);
  const columns = useMemo(
    () => [
      col.accessor('status', { header: 'Status', cell: (i) => <StatusBadge status={i.getValue()} /> }),
      col.accessor('id', {
        header: 'Pipeline',
        cell: (i) => (
          <Anchor component={Link} to={hrefOf(i.getValue())} size="sm" fw={600}>
            #{i.getValue()}
          </Anchor>
        ),
      }),
      col.accessor('ref', {
        header: 'Ref and commit',
        cell: (i) => (
          <Stack gap={0}>
            <Text size="sm" ff="monospace">{i.getValue()}</Text>
            <Text size="xs" c="dimmed" ff="monospace">{i.row.original.sha.slice(0, 8)}</Text>
          </Stack>
        ),
      }),
      col.accessor('source', { header: 'Source', cell: (i) => sourceLabel(i.getValue()), meta: { hideNarrow: true } }),
      col.accessor((p) => p.user?.username ?? '', { id: 'user', header: 'Started by', cell: (i) => i.row.original.user?.name ?? '—', meta: { hideNarrow: true } }),
      col.display({ id: 'jobs', header: 'Jobs', cell: ({ row }) => <JobIcons projectId={project.id} pipeline={row.original} /> }),
      col.accessor('duration', { header: 'Duration', cell: (i) => formatRoundedDuration(i.getValue()) }),
      col.accessor('created_at', { header: 'Created', cell: (i) => <Text size="sm" title={i.getValue()}>{fromNow(i.getValue())}</Text>, meta: { hideNarrow: true } }),
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps -- hrefOf depends on the project only
    [project.id, project.path_with_namespace],
  );

  const items = pipelines.data?.items ?? [];
  return (
    <Stack gap="md">
      <div>
        <Title order={2} size="h3">
          Pipelines
        </Title>
        <Text c="dimmed" size="sm" maw={680}>
          Pipelines run by external CI systems, which report each job’s status on a commit, and pipelines started with a trigger token. Running ones update by themselves.
        </Text>
      </div>
      <Group align="flex-end" gap="sm">
        <NativeSelect
          label="Status"
          value={list.status}
          onChange={(e) => list.update({ status: e.currentTarget.value || null })}
          data={[{ value: '', label: 'Any status' }, ...STATUS_OPTIONS.map((s) => ({ value: s, label: statusText(s) }))]}
        />
        <NativeSelect
          label="Source"
          value={list.source}
          onChange={(e) => list.update({ source: e.currentTarget.value || null })}
          data={[{ value: '', label: 'Any source' }, ...PIPELINE_SOURCES.filter((s) => SOURCE_LABELS[s]).map((s) => ({ value: s, label: sourceLabel(s) }))]}
        />
        <TextInput label="Branch or tag" placeholder="Any branch or tag" value={refBox.value} onChange={refBox.onChange} autoComplete="off" />
      </Group>
      <QueryContent
        query={pipelines}
        what="pipelines"
        forbidden={<RoleForbidden title={FORBIDDEN_TITLE} hint={FORBIDDEN_HINT} />}
        empty={(data) =>
          data.items.length === 0 &&
          (list.filtered ? (
            <EmptyState title="No pipeline matches these filters" action={<Button variant="default" onClick={() => list.update({ status: null, source: null, ref: null })}>Clear filters</Button>} />
          ) : (
            <EmptyState title="No pipelines yet">
              A pipeline appears when a CI system reports a commit status, or when a script triggers one with a pipeline trigger token.
            </EmptyState>
          ))
        }
      >
        {(data) => <DataTable label="Pipelines" items={data.items} columns={columns} getRowId={(p) => String(p.id)} busy={pipelines.isFetching && pipelines.isPlaceholderData} minWidth={760} />}
      </QueryContent>
      <TablePager info={pipelines.data?.page} shown={items.length} what={(n) => (n === 1 ? 'pipeline' : 'pipelines')} onPage={list.setPage} />
    </Stack>
  );
}
