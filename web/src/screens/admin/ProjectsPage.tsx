import { useMemo, useState } from 'react';
import { Anchor, Button, Loader, Stack, Text, TextInput, Title } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { Link } from 'react-router';
import type { ProjectSummary } from '../../../../shared/src/projects.ts';
import { useAdminProjects, useDeleteProject, type AdminProjectsQuery } from '../../api/admin.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { TransferDialog, type TransferSubject } from './TransferDialog.tsx';
import { RowActions } from './RowActions.tsx';
import { DataTable, TablePager } from '../../components/DataTable.tsx';
import { IconSearch } from '../../components/icons.tsx';
import { useListParams, useSearchBox, type Sort } from '../../components/list-params.ts';
import { notifySuccess } from '../../components/notify.ts';
import { EmptyState, QueryContent } from '../../components/states.tsx';
import { VisibilityBadge } from '../../components/VisibilityBadge.tsx';
import { formatDate } from '../../format.ts';
import { groupHref, projectHref } from '../../paths.ts';
import { AdminForbidden } from './admin-states.tsx';

const SORT_KEYS = ['name', 'path', 'created', 'activity'] as const;
const DEFAULT_SORT: Sort<(typeof SORT_KEYS)[number]> = { key: 'path', dir: 'asc' };
const ORDER_BY = { name: 'name', path: 'path', created: 'created_at', activity: 'last_activity_at' } as const;

const col = createColumnHelper<ProjectSummary>();

/** /admin/projects: every project of the instance, searchable, with Delete. */
export default function ProjectsPage() {
  const list = useListParams({ sortKeys: SORT_KEYS, defaultSort: DEFAULT_SORT });
  const sort = list.sort ?? DEFAULT_SORT;
  const query: AdminProjectsQuery = { search: list.search.trim() || undefined, order_by: ORDER_BY[sort.key], sort: sort.dir, page: list.page, per_page: list.perPage };
  const projects = useAdminProjects(query);
  const searchBox = useSearchBox(list.search, list.update);
  const [deleting, setDeleting] = useState<ProjectSummary | null>(null);
  const [transferring, setTransferring] = useState<TransferSubject | null>(null);
  const remove = useDeleteProject({ meta: { errorTitle: 'The project was not deleted' } });

  const columns = useMemo(
    () => [
      col.accessor('name_with_namespace', {
        id: 'name',
        header: 'Project',
        meta: { sortKey: 'name' },
        cell: ({ row }) => (
          <Stack gap={0} miw={160}>
            <Anchor component={Link} to={projectHref(row.original.path_with_namespace)} fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
              {row.original.name}
            </Anchor>
            <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              in{' '}
              <Anchor component={Link} to={groupHref(row.original.namespace.full_path)} inherit>
                {row.original.namespace.name}
              </Anchor>
            </Text>
          </Stack>
        ),
      }),
      col.accessor('path_with_namespace', {
        id: 'path',
        header: 'Path',
        meta: { sortKey: 'path' },
        cell: (i) => (
          <Text size="sm" ff="monospace" miw={200} style={{ overflowWrap: 'anywhere' }}>
            {i.getValue()}
          </Text>
        ),
      }),
      col.accessor('visibility', { header: 'Visibility', meta: { width: 110 }, cell: (i) => <VisibilityBadge visibility={i.getValue()} /> }),
      col.accessor('created_at', { id: 'created', header: 'Created', meta: { sortKey: 'created', hideNarrow: true, width: 130 }, cell: (i) => <Text size="sm">{formatDate(i.getValue())}</Text> }),
      col.accessor('last_activity_at', { id: 'activity', header: 'Active', meta: { sortKey: 'activity', hideNarrow: true, width: 130 }, cell: (i) => <Text size="sm">{formatDate(i.getValue())}</Text> }),
      col.display({
        id: 'actions',
        header: () => <span className="gh-visually-hidden">Actions</span>,
        meta: { width: 76 },
        cell: ({ row }) => (
          <RowActions
            fullPath={row.original.path_with_namespace}
            onTransfer={() => setTransferring({ kind: 'project', id: row.original.id, name: row.original.name, fullPath: row.original.path_with_namespace })}
            onDelete={() => setDeleting(row.original)}
          />
        ),
      }),
    ],
    [],
  );

  return (
    <Stack gap="md">
      <div>
        <Title order={2} size="h3">
          Projects
        </Title>
        <Text c="dimmed" size="sm" maw={640}>
          Every project of the instance, in every group, whatever its visibility. Open one to see its repository, members and settings.
        </Text>
      </div>
      <TextInput
        label="Search"
        placeholder="Name or path"
        leftSection={<IconSearch size={16} />}
        rightSection={projects.isFetching && !projects.isPending ? <Loader size={14} /> : null}
        {...searchBox}
        style={{ maxWidth: 360 }}
        type="search"
      />
      <QueryContent
        query={projects}
        what="projects"
        forbidden={<AdminForbidden />}
        empty={(data) =>
          data.items.length === 0 &&
          (query.search ? (
            <EmptyState
              title="No projects match"
              action={
                <Button variant="default" onClick={() => list.update({ search: null })}>
                  Clear search
                </Button>
              }
            >
              Search looks at project names and paths.
            </EmptyState>
          ) : (
            <EmptyState title="No projects yet">Projects created in any group of the instance are listed here.</EmptyState>
          ))
        }
      >
        {(data) => <DataTable label="Projects" items={data.items} columns={columns} getRowId={(p) => String(p.id)} busy={projects.isFetching} sort={sort} onSort={list.setSort} />}
      </QueryContent>
      <TablePager info={projects.data?.page} shown={projects.data?.items.length ?? 0} what={(n) => (n === 1 ? 'project' : 'projects')} onPage={list.setPage} />
      <ConfirmDialog
        opened={deleting !== null}
        title={deleting ? `Delete ${deleting.path_with_namespace}?` : ''}
        confirmLabel="Delete project"
        loading={remove.isPending}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => {
              notifySuccess('Project deleted', `${deleting.path_with_namespace} and its repository are gone.`);
              setDeleting(null);
            },
          })
        }
        onClose={() => setDeleting(null)}
      >
        <strong>{deleting?.name_with_namespace}</strong> is deleted at once, with its repository, issues, merge requests, members and webhooks. This cannot be undone.
      </ConfirmDialog>
      <TransferDialog subject={transferring} onClose={() => setTransferring(null)} />
    </Stack>
  );
}
