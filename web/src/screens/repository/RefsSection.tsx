import { Button, Stack, Tabs, TextInput } from '@mantine/core';
import { useBranches } from '../../api/branches.ts';
import { useTags } from '../../api/tags.ts';
import { DataTable, TablePager } from '../../components/DataTable.tsx';
import { IconSearch } from '../../components/icons.tsx';
import { useListParams, useSearchBox } from '../../components/list-params.ts';
import { EmptyState, QueryContent } from '../../components/states.tsx';
import { branchColumns, tagColumns } from './ref-columns.tsx';

type Kind = 'branches' | 'tags';

/** Branches or tags (the tab, search and page in the URL), each with its last commit. */
export function RefsSection({ projectId }: { projectId: number }) {
  const list = useListParams();
  const kind: Kind = list.get('refs') === 'tags' ? 'tags' : 'branches';
  const searchBox = useSearchBox(list.search, list.update);
  const query = { search: list.search.trim(), page: list.page };
  const branches = useBranches(projectId, query);
  const tags = useTags(projectId, query);
  const current = kind === 'tags' ? tags : branches;
  const noun = kind === 'tags' ? 'tag' : 'branch';

  // What the two tabs share: the wording of their states and of an empty list.
  const states = {
    what: kind,
    errorTitle: `The ${kind} could not be loaded`,
    empty: ({ items }: { items: unknown[] }) =>
      items.length === 0 &&
      (list.search ? (
        <EmptyState title={`No ${noun} matches`} action={<Button variant="default" onClick={() => list.update({ search: null })}>Clear search</Button>}>
          No {noun} name contains “{list.search}”.
        </EmptyState>
      ) : (
        <EmptyState title={`No ${kind} yet`}>{kind === 'tags' ? 'Tag a commit with git tag and push it, or through the API.' : 'Push a branch to see it here.'}</EmptyState>
      )),
  };

  return (
    <Tabs value={kind} onChange={(v) => list.update({ refs: v === 'tags' ? 'tags' : null, search: null })} variant="outline">
      <Tabs.List aria-label="Branches and tags">
        {(['branches', 'tags'] as const).map((k) => (
          // The other tab leads to another URL and claims no panel.
          <Tabs.Tab key={k} value={k} {...(k !== kind && { 'aria-controls': undefined })}>
            {k === 'tags' ? 'Tags' : 'Branches'}
          </Tabs.Tab>
        ))}
      </Tabs.List>
      <Tabs.Panel value={kind} pt="md">
        <Stack gap="md">
          <TextInput
            label={`Search ${kind}`}
            placeholder="Part of the name; ^ and $ anchor it"
            leftSection={<IconSearch size={16} />}
            maw={360}
            {...searchBox}
          />
          {kind === 'tags' ? (
            <QueryContent query={tags} {...states}>
              {(data) => <DataTable label="Tags" items={data.items} columns={tagColumns} getRowId={(t) => t.name} busy={tags.isFetching} minWidth={560} />}
            </QueryContent>
          ) : (
            <QueryContent query={branches} {...states}>
              {(data) => <DataTable label="Branches" items={data.items} columns={branchColumns} getRowId={(b) => b.name} busy={branches.isFetching} minWidth={560} />}
            </QueryContent>
          )}
          <TablePager info={current.data?.page} shown={current.data?.items.length ?? 0} what={(n) => (n === 1 ? noun : kind === 'tags' ? 'tags' : 'branches')} onPage={list.setPage} />
        </Stack>
      </Tabs.Panel>
    </Tabs>
  );
}
