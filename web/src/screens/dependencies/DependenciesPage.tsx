import { useMemo } from 'react';
import { Badge, Button, Group, NativeSelect, Stack, Text, Title } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import type { Dependency } from '../../../../shared/src/dependencies.ts';
import { useProjectDependencies } from '../../api/dependencies.ts';
import { DataTable, TablePager } from '../../components/DataTable.tsx';
import { ExternalLink } from '../../components/ExternalLink.tsx';
import { useListParams } from '../../components/list-params.ts';
import { RequireAbility, RoleForbidden } from '../../components/ResourcePage.tsx';
import { EmptyState, QueryContent } from '../../components/states.tsx';
import { useProjectContext } from '../projects/project-context.ts';

const FORBIDDEN_TITLE = 'The dependency list is for Reporters';
const FORBIDDEN_HINT = 'Those who may read the project’s code see its dependencies.';

/** The platform's package managers, as SBOMs name them. */
const PACKAGE_MANAGERS = ['bundler', 'composer', 'conan', 'go', 'gradle', 'maven', 'npm', 'nuget', 'pip', 'pipenv', 'pnpm', 'poetry', 'sbt', 'setuptools', 'yarn'];

const col = createColumnHelper<Dependency>();
const columns = [
  col.accessor('name', { header: 'Component', cell: (i) => <Text size="sm" fw={600} ff="monospace">{i.getValue()}</Text> }),
  col.accessor('version', { header: 'Version', cell: (i) => <Text size="sm" ff="monospace">{i.getValue() ?? '—'}</Text> }),
  col.accessor('package_manager', { header: 'Packager', cell: (i) => i.getValue() ?? '—' }),
  col.accessor('licenses', {
    header: 'License',
    cell: (i) =>
      i.getValue().length ? (
        <Group gap={4}>
          {i.getValue().map((l) => (
            <ExternalLink key={l.name} href={l.url} size="sm">
              {l.spdx_identifier ?? l.name}
            </ExternalLink>
          ))}
        </Group>
      ) : (
        <Text size="sm" c="dimmed">Unknown</Text>
      ),
  }),
  col.accessor('dependency_file_path', { header: 'Location', cell: (i) => <Text size="sm" ff="monospace">{i.getValue() ?? '—'}</Text>, meta: { hideNarrow: true } }),
  col.accessor('vulnerabilities', {
    header: 'Vulnerabilities',
    cell: (i) => (i.getValue().length ? <Badge color="red" variant="light">{i.getValue().length}</Badge> : <Text size="sm" c="dimmed">—</Text>),
    meta: { hideNarrow: true },
  }),
];

/** /projects/<path>/-/dependencies: the components of the default branch's latest SBOMs. */
export default function DependenciesPage() {
  return (
    <RequireAbility action="read_dependency" title={FORBIDDEN_TITLE} hint={FORBIDDEN_HINT}>
      <DependencyList />
    </RequireAbility>
  );
}

function DependencyList() {
  const { project } = useProjectContext();
  const list = useListParams();
  const packager = PACKAGE_MANAGERS.includes(list.get('package_manager')) ? list.get('package_manager') : '';
  const deps = useProjectDependencies(project.id, { package_manager: packager || undefined, page: list.page });
  const items = useMemo(() => deps.data?.items ?? [], [deps.data]);

  return (
    <Stack gap="md">
      <div>
        <Title order={2} size="h3">
          Dependencies
        </Title>
        <Text c="dimmed" size="sm" maw={680}>
          The components of the default branch’s latest software bill of materials, with their licenses and known vulnerabilities.
        </Text>
      </div>
      <Group align="flex-end" gap="sm">
        <NativeSelect label="Packager" value={packager} onChange={(e) => list.update({ package_manager: e.currentTarget.value || null })} data={[{ value: '', label: 'Any packager' }, ...PACKAGE_MANAGERS]} />
      </Group>
      <QueryContent
        query={deps}
        what="dependencies"
        forbidden={<RoleForbidden title={FORBIDDEN_TITLE} hint={FORBIDDEN_HINT} />}
        empty={(data) =>
          data.items.length === 0 &&
          (packager ? (
            <EmptyState title={`No ${packager} dependencies`} action={<Button variant="default" onClick={() => list.update({ package_manager: null })}>Any packager</Button>} />
          ) : (
            <EmptyState title="No dependencies yet">
              The list appears when a CI job uploads a CycloneDX SBOM (<Text span ff="monospace">report_type=cyclonedx</Text>) to a pipeline of the default branch.
            </EmptyState>
          ))
        }
      >
        {() => <DataTable label="Dependencies" items={items} columns={columns} getRowId={(d) => `${d.name}@${d.version}@${d.dependency_file_path}`} busy={deps.isFetching && deps.isPlaceholderData} minWidth={760} />}
      </QueryContent>
      <TablePager info={deps.data?.page} shown={items.length} what={(n) => (n === 1 ? 'dependency' : 'dependencies')} onPage={list.setPage} />
    </Stack>
  );
}
