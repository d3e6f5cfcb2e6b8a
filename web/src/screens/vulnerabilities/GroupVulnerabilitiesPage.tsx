import { useMemo } from 'react';
import { Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { Link } from 'react-router';
import type { Vulnerability } from '../../../../shared/src/vulnerabilities.ts';
import { useGroupVulnerabilities } from '../../api/vulnerabilities.ts';
import { DataTable, TablePager } from '../../components/DataTable.tsx';
import { RequireAbility, RoleForbidden } from '../../components/ResourcePage.tsx';
import { EmptyState, QueryContent } from '../../components/states.tsx';
import { fromNow } from '../../format.ts';
import { groupHref, projectHref } from '../../paths.ts';
import { useGroupContext } from '../groups/group-context.ts';
import { MOVES_ROLE, REPORT_TYPE_LABELS, SeverityBadge, STATE_LABELS } from './severity.tsx';
import { ReportFilters, useReportParams } from './report-filters.tsx';
import { useReportExport } from './report-export.tsx';

const TITLE = 'The group’s vulnerability report is for Developers';
const HINT = 'Developers, Maintainers and Owners of the group see the vulnerabilities of its projects; each project’s Maintainers and Owners change their status.';

/** /groups/<full path>/-/vulnerabilities: the vulnerabilities of every project of the group and its subgroups. */
export default function GroupVulnerabilitiesPage() {
  const { group } = useGroupContext();
  return (
    <RequireAbility action="read_vulnerability" title={TITLE} hint={HINT}>
      <GroupReport key={group.id} />
    </RequireAbility>
  );
}

const col = createColumnHelper<Vulnerability>();
/** "/acme/web" → "acme/web": the project's path as the console's links take it. */
const projectPath = (v: Vulnerability) => v.project.full_path.replace(/^\//, '');

function GroupReport() {
  const { group, role } = useGroupContext();
  const list = useReportParams();
  const found = useGroupVulnerabilities(group.id, list.query);
  const columns = useMemo(() => {
    // A project's path below the group ("web", "team/web"): the group's own path is on every row.
    const inGroup = (path: string) => (path.startsWith(`${group.full_path}/`) ? path.slice(group.full_path.length + 1) : path);
    return [
      col.accessor('severity', { header: 'Severity', cell: (i) => <SeverityBadge severity={i.getValue()} /> }),
      col.accessor('title', {
        header: 'Vulnerability',
        cell: (i) => (
          <Stack gap={2}>
            <Anchor component={Link} to={projectHref(projectPath(i.row.original), `vulnerabilities/${i.row.original.id}`)} size="sm" fw={600}>
              {i.getValue()}
            </Anchor>
            <Text size="xs" c="dimmed">
              {i.row.original.finding.identifiers.map((id) => id.name).join(' · ')}
            </Text>
          </Stack>
        ),
      }),
      col.accessor((v) => projectPath(v), {
        id: 'project',
        header: 'Project',
        cell: (i) => (
          <Anchor component={Link} to={projectHref(i.getValue(), 'vulnerabilities')} size="sm" title={i.row.original.project.full_name} style={{ whiteSpace: 'nowrap' }}>
            {inGroup(i.getValue())}
          </Anchor>
        ),
      }),
      col.accessor((v) => v.finding.scanner.name, { id: 'scanner', header: 'Tool', cell: (i) => <Stack gap={0}><Text size="sm">{i.getValue()}</Text><Text size="xs" c="dimmed">{REPORT_TYPE_LABELS[i.row.original.report_type] ?? i.row.original.report_type}</Text></Stack>, meta: { hideNarrow: true } }),
      col.accessor('state', { header: 'Status', cell: (i) => <Text size="sm">{STATE_LABELS[i.getValue()]}</Text> }),
      col.accessor('detected_at', { header: 'Detected', cell: (i) => <Text size="sm" title={i.getValue()}>{fromNow(i.getValue())}</Text>, meta: { hideNarrow: true } }),
    ];
  }, [group.full_path]);

  const exporter = useReportExport({
    scope: { kind: 'group', id: group.id },
    what: group.full_path,
    filters: list.exportFilters,
    summary: list.summary,
    count: found.data?.page.total ?? null,
    exportsHref: groupHref(group.full_path, 'exports'),
  });
  const items = found.data?.items ?? [];
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <div>
          <Title order={2} size="h3">
            Vulnerability report
          </Title>
          <Text c="dimmed" size="sm" maw={680}>
            What the scanners found in every project of {group.full_name} and its subgroups, most severe first. Open one in its project to see where it is and how to fix it. {MOVES_ROLE}
          </Text>
        </div>
        {role.can('create_vulnerability_export') && exporter.menu}
      </Group>
      {exporter.progress}
      <ReportFilters list={list} />
      <QueryContent
        query={found}
        what="vulnerabilities"
        forbidden={<RoleForbidden title={TITLE} hint={HINT} />}
        empty={(data) =>
          data.items.length === 0 &&
          (list.filtered ? (
            <EmptyState title="No vulnerability matches these filters" action={<Button variant="default" onClick={list.clear}>Clear filters</Button>} />
          ) : (
            <EmptyState title="No open vulnerabilities">No project of {group.full_name} or its subgroups has an open finding on its default branch.</EmptyState>
          ))
        }
      >
        {(data) => <DataTable label="Vulnerabilities of the group’s projects" items={data.items} columns={columns} getRowId={(v) => String(v.id)} busy={found.isFetching && found.isPlaceholderData} minWidth={760} />}
      </QueryContent>
      <TablePager info={found.data?.page} shown={items.length} what={(n) => (n === 1 ? 'vulnerability' : 'vulnerabilities')} onPage={list.setPage} />
    </Stack>
  );
}
