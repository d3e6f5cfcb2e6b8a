import { useMemo } from 'react';
import { Code, Stack, Text } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import type { Commit } from '../../../../shared/src/branches.ts';
import type { MergeRequest } from '../../../../shared/src/merge-requests.ts';
import { useMergeRequestCommits } from '../../api/merge-requests.ts';
import { DataTable, TablePager } from '../../components/DataTable.tsx';
import { useListParams } from '../../components/list-params.ts';
import { EmptyState, QueryContent } from '../../components/states.tsx';
import { fromNow } from '../../format.ts';
import { useProjectContext } from '../projects/project-context.ts';

const col = createColumnHelper<Commit>();

/** The Commits tab: the commits of the source branch since the target, newest first, a page at a time. */
export function MergeRequestCommits({ mr }: { mr: MergeRequest }) {
  const { project } = useProjectContext();
  const list = useListParams();
  const commits = useMergeRequestCommits(project.id, mr.iid, list.page);
  const columns = useMemo(
    () => [
      col.accessor('title', {
        header: 'Commit',
        cell: ({ row }) => (
          <Stack gap={2}>
            <Text size="sm" fw={600}>
              {row.original.title}
            </Text>
            <Code style={{ width: 'fit-content' }}>{row.original.short_id}</Code>
          </Stack>
        ),
      }),
      col.accessor('author_name', { header: 'Author' }),
      col.accessor('authored_date', { header: 'Authored', cell: (i) => <Text size="sm" title={i.getValue()}>{fromNow(i.getValue())}</Text> }),
    ],
    [],
  );
  return (
    <Stack gap="sm">
      <QueryContent
        query={commits}
        what="commits"
        empty={(data) =>
          data.items.length === 0 && (
            <EmptyState title="No commits">
              {mr.state === 'merged' ? 'The source branch is gone or holds nothing the target lacks.' : `${mr.source_branch} holds no commit that ${mr.target_branch} does not have.`}
            </EmptyState>
          )
        }
      >
        {(data) => <DataTable label="Commits" items={data.items} columns={columns} getRowId={(c) => c.id} busy={commits.isFetching && commits.isPlaceholderData} minWidth={560} />}
      </QueryContent>
      <TablePager info={commits.data?.page} shown={commits.data?.items.length ?? 0} what={(n) => (n === 1 ? 'commit' : 'commits')} onPage={list.setPage} />
    </Stack>
  );
}
