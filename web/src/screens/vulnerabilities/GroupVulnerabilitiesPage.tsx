import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { useGroupVulnerabilities } from '../../api/vulnerabilities.ts';
import { DataTable, TablePager } from '../../components/DataTable.tsx';
import { RequireAbility, RoleForbidden } from '../../components/ResourcePage.tsx';
import { EmptyState, QueryContent } from '../../components/states.tsx';
import { groupHref } from '../../paths.ts';
import { useGroupContext } from '../groups/group-context.ts';
import { MOVES_ROLE } from './severity.tsx';
import { ReportFilters, useReportParams } from './report-filters.tsx';
import { useReportExport } from './report-export.tsx';
import { useSpanningColumns } from './spanning-columns.tsx';

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

function GroupReport() {
  const { group, role } = useGroupContext();
  const list = useReportParams();
  const found = useGroupVulnerabilities(group.id, list.query);
  const columns = useSpanningColumns(group.full_path);

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
