import { Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useDashboardVulnerabilities } from '../../api/vulnerabilities.ts';
import { DataTable, TablePager } from '../../components/DataTable.tsx';
import { EmptyState, QueryContent } from '../../components/states.tsx';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { MOVES_ROLE } from './severity.tsx';
import { ReportFilters, useReportParams } from './report-filters.tsx';
import { useReportExport } from './report-export.tsx';
import { useSpanningColumns } from './spanning-columns.tsx';

/** /security/vulnerabilities: the vulnerabilities of the projects on the user's security dashboard, which its export covers. */
export default function DashboardVulnerabilitiesPage() {
  usePageTitle('Security dashboard');
  const list = useReportParams();
  const found = useDashboardVulnerabilities(list.query);
  const columns = useSpanningColumns(null);
  const exporter = useReportExport({
    scope: { kind: 'dashboard' },
    what: 'your security dashboard',
    filters: list.exportFilters,
    summary: list.summary,
    count: found.data?.page.total ?? null,
    exportsHref: '/security/exports',
  });
  const items = found.data?.items ?? [];
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <div>
          <Title order={2} size="h3">
            Security dashboard
          </Title>
          <Text c="dimmed" size="sm" maw={680}>
            The vulnerabilities of the projects you put on your security dashboard (from each project’s vulnerability report), most severe first. {MOVES_ROLE}
          </Text>
        </div>
        {exporter.menu}
      </Group>
      {exporter.progress}
      <ReportFilters list={list} />
      <QueryContent
        query={found}
        what="vulnerabilities"
        empty={(data) =>
          data.items.length === 0 &&
          (list.filtered ? (
            <EmptyState title="No vulnerability matches these filters" action={<Button variant="default" onClick={list.clear}>Clear filters</Button>} />
          ) : (
            <EmptyState title="No open vulnerabilities on your dashboard">
              Turn on “On my security dashboard” in a project’s vulnerability report to follow it here. <Anchor component={Link} to="/groups" size="sm">Find a project</Anchor>
            </EmptyState>
          ))
        }
      >
        {(data) => <DataTable label="Vulnerabilities of your dashboard’s projects" items={data.items} columns={columns} getRowId={(v) => String(v.id)} busy={found.isFetching && found.isPlaceholderData} minWidth={760} />}
      </QueryContent>
      <TablePager info={found.data?.page} shown={items.length} what={(n) => (n === 1 ? 'vulnerability' : 'vulnerabilities')} onPage={list.setPage} />
    </Stack>
  );
}
