import { useMemo } from 'react';
import { Anchor, Button, Group, NativeSelect, Stack, Text, Title } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { Link, useParams } from 'react-router';
import { SEVERITIES, VULNERABILITY_STATES, type Severity, type Vulnerability, type VulnerabilityState } from '../../../../shared/src/vulnerabilities.ts';
import { useProjectVulnerabilities, type VulnerabilitiesQuery } from '../../api/vulnerabilities.ts';
import { DataTable, TablePager } from '../../components/DataTable.tsx';
import { useListParams } from '../../components/list-params.ts';
import { RequireAbility, RoleForbidden } from '../../components/ResourcePage.tsx';
import { EmptyState, NotFoundState, QueryContent } from '../../components/states.tsx';
import { fromNow } from '../../format.ts';
import { projectHref, sectionRest } from '../../paths.ts';
import { useProjectContext } from '../projects/project-context.ts';
import { DashboardToggle } from './DashboardToggle.tsx';
import { VulnerabilityDetailPage } from './VulnerabilityDetail.tsx';
import { FORBIDDEN_HINT, FORBIDDEN_TITLE, lineOf, REPORT_TYPE_LABELS, SeverityBadge, STATE_LABELS, severityLabel } from './severity.tsx';

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

const oneOf = <T extends string>(values: readonly T[], v: string): T | '' => ((values as readonly string[]).includes(v) ? (v as T) : '');

/** Severity, status, tool and page live in the URL; a status filter left alone shows what is still open. */
function useReportParams() {
  const list = useListParams();
  const severity = oneOf(SEVERITIES, list.get('severity'));
  const state = list.get('state') === 'all' ? 'all' : oneOf(VULNERABILITY_STATES, list.get('state'));
  const reportType = oneOf(Object.keys(REPORT_TYPE_LABELS), list.get('report_type'));
  const query: VulnerabilitiesQuery = {
    severity: severity ? [severity as Severity] : undefined,
    state: state === 'all' ? undefined : state ? [state as VulnerabilityState] : ['detected', 'confirmed'],
    report_type: reportType ? [reportType] : undefined,
    page: list.page,
  };
  return { ...list, severity, state, reportType, query, filtered: Boolean(severity || state || reportType) };
}

const col = createColumnHelper<Vulnerability>();

function VulnerabilityReport() {
  const { project } = useProjectContext();
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

  const items = found.data?.items ?? [];
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={2} size="h3">
            Vulnerability report
          </Title>
          <Text c="dimmed" size="sm" maw={680}>
            What the scanners found on the default branch’s latest pipeline, most severe first. Open one to confirm, dismiss or resolve it.
          </Text>
        </div>
        <DashboardToggle projectId={project.id} />
      </Group>
      <Group align="flex-end" gap="sm">
        <NativeSelect label="Severity" value={list.severity} onChange={(e) => list.update({ severity: e.currentTarget.value || null })} data={[{ value: '', label: 'Any severity' }, ...SEVERITIES.map((s) => ({ value: s, label: severityLabel(s) }))]} />
        <NativeSelect
          label="Status"
          value={list.state}
          onChange={(e) => list.update({ state: e.currentTarget.value || null })}
          data={[{ value: '', label: 'Open (needs triage, confirmed)' }, { value: 'all', label: 'Any status' }, ...VULNERABILITY_STATES.map((s) => ({ value: s, label: STATE_LABELS[s] }))]}
        />
        <NativeSelect label="Tool" value={list.reportType} onChange={(e) => list.update({ report_type: e.currentTarget.value || null })} data={[{ value: '', label: 'Any tool' }, ...Object.entries(REPORT_TYPE_LABELS).map(([value, label]) => ({ value, label }))]} />
      </Group>
      <QueryContent
        query={found}
        what="vulnerabilities"
        forbidden={<RoleForbidden title={FORBIDDEN_TITLE} hint={FORBIDDEN_HINT} />}
        empty={(data) =>
          data.items.length === 0 &&
          (list.filtered ? (
            <EmptyState title="No vulnerability matches these filters" action={<Button variant="default" onClick={() => list.update({ severity: null, state: null, report_type: null })}>Clear filters</Button>} />
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
