import { useMemo } from 'react';
import { Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { Link, useParams } from 'react-router';
import type { Vulnerability } from '../../../../shared/src/vulnerabilities.ts';
import { useProjectVulnerabilities } from '../../api/vulnerabilities.ts';
import { DataTable, TablePager } from '../../components/DataTable.tsx';
import { RequireAbility, RoleForbidden } from '../../components/ResourcePage.tsx';
import { EmptyState, NotFoundState, QueryContent } from '../../components/states.tsx';
import { fromNow } from '../../format.ts';
import { projectHref, sectionRest } from '../../paths.ts';
import { useProjectContext } from '../projects/project-context.ts';
import { DashboardToggle } from './DashboardToggle.tsx';
import { VulnerabilityDetailPage } from './VulnerabilityDetail.tsx';
import { FORBIDDEN_HINT, FORBIDDEN_TITLE, lineOf, MOVES_ROLE, REPORT_TYPE_LABELS, SeverityBadge, STATE_LABELS } from './severity.tsx';
import { ReportFilters, useReportParams } from './report-filters.tsx';
import { useReportExport } from './report-export.tsx';

/** /projects/<path>/-/vulnerabilities[/<id>]: the project's vulnerability report, or one vulnerability. */
export default function VulnerabilitiesPage() {
  const { '*': splat = '' } = useParams();
  const { project } = useProjectContext();
  const rest = sectionRest(splat);
  let screen: React.ReactNode;
  if (rest.length === 0) screen = <VulnerabilityReport key={project.id} />;
  else if (rest.length === 1 && /^\d{1,10}$/.test(rest[0])) screen = <VulnerabilityDetailPage key={rest[0]} id={Number(rest[0])} />;
  else {
    screen = (
      <NotFoundState title="No such vulnerability page" action={<Button component={Link} to={projectHref(project.path_with_namespace, 'vulnerabilities')} variant="default">Vulnerability report</Button>}>
        There is nothing at “{rest.join('/')}” here.
      </NotFoundState>
    );
  }
  return (
    <RequireAbility action="read_vulnerability" title={FORBIDDEN_TITLE} hint={FORBIDDEN_HINT}>
      {screen}
    </RequireAbility>
  );
}

const col = createColumnHelper<Vulnerability>();

function VulnerabilityReport() {
  const { project, role } = useProjectContext();
  const list = useReportParams();
  const found = useProjectVulnerabilities(project.id, list.query);
  const columns = useMemo(
    () => [
      col.accessor('severity', { header: 'Severity', cell: (i) => <SeverityBadge severity={i.getValue()} /> }),
      col.accessor('title', {
        header: 'Vulnerability',
        cell: (i) => (
          <Stack gap={2}>
            <Anchor component={Link} to={projectHref(project.path_with_namespace, `vulnerabilities/${i.row.original.id}`)} size="sm" fw={600}>
              {i.getValue()}
            </Anchor>
            <Text size="xs" c="dimmed">
              {i.row.original.finding.identifiers.map((id) => id.name).join(' · ')}
            </Text>
          </Stack>
        ),
      }),
      col.accessor('location_path', { header: 'Location', cell: (i) => <Text size="sm" ff="monospace">{i.getValue() ?? '—'}{lineOf(i.row.original)}</Text> }),
      col.accessor((v) => v.finding.scanner.name, { id: 'scanner', header: 'Tool', cell: (i) => <Stack gap={0}><Text size="sm">{i.getValue()}</Text><Text size="xs" c="dimmed">{REPORT_TYPE_LABELS[i.row.original.report_type] ?? i.row.original.report_type}</Text></Stack>, meta: { hideNarrow: true } }),
      col.accessor('state', {
        header: 'Status',
        cell: (i) => (
          <Stack gap={0}>
            <Text size="sm">{STATE_LABELS[i.getValue()]}</Text>
            {i.row.original.resolved_on_default_branch && i.getValue() !== 'resolved' && <Text size="xs" c="dimmed">No longer detected</Text>}
          </Stack>
        ),
      }),
      col.accessor('detected_at', { header: 'Detected', cell: (i) => <Text size="sm" title={i.getValue()}>{fromNow(i.getValue())}</Text>, meta: { hideNarrow: true } }),
    ],
    [project.path_with_namespace],
  );

  const exporter = useReportExport({
    scope: { kind: 'project', id: project.id },
    what: project.path_with_namespace,
    filters: list.exportFilters,
    summary: list.summary,
    count: found.data?.page.total ?? null,
    exportsHref: projectHref(project.path_with_namespace, 'exports'),
  });
  const items = found.data?.items ?? [];
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Stack gap="xs">
          <div>
            <Title order={2} size="h3">
              Vulnerability report
            </Title>
            <Text c="dimmed" size="sm" maw={680}>
              What the scanners found on the default branch’s latest pipeline, most severe first.{' '}
              {role.can('admin_vulnerability') ? 'Open one to confirm, dismiss or resolve it.' : `Open one to see where it is and how to fix it. ${MOVES_ROLE}`}
            </Text>
          </div>
          <DashboardToggle projectId={project.id} />
        </Stack>
        {role.can('create_vulnerability_export') && exporter.menu}
      </Group>
      {exporter.progress}
      <ReportFilters list={list} />
      <QueryContent
        query={found}
        what="vulnerabilities"
        forbidden={<RoleForbidden title={FORBIDDEN_TITLE} hint={FORBIDDEN_HINT} />}
        empty={(data) =>
          data.items.length === 0 &&
          (list.filtered ? (
            <EmptyState title="No vulnerability matches these filters" action={<Button variant="default" onClick={list.clear}>Clear filters</Button>} />
          ) : (
            <EmptyState title="No open vulnerabilities">
              Findings appear when a CI job uploads a scanner report to a pipeline of the default branch (see the README’s <Text span ff="monospace">curl</Text> example).
            </EmptyState>
          ))
        }
      >
        {(data) => <DataTable label="Vulnerabilities" items={data.items} columns={columns} getRowId={(v) => String(v.id)} busy={found.isFetching && found.isPlaceholderData} minWidth={820} />}
      </QueryContent>
      <TablePager info={found.data?.page} shown={items.length} what={(n) => (n === 1 ? 'vulnerability' : 'vulnerabilities')} onPage={list.setPage} />
    </Stack>
  );
}
