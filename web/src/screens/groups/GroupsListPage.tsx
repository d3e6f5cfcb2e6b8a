import { Button, Group, Loader, SegmentedControl, Stack, Text, TextInput, Title } from '@mantine/core';
import { useGroups, type GroupsListQuery } from '../../api/groups.ts';
import { useCurrentUser } from '../../api/session.ts';
import { DataTable, TablePager } from '../../components/DataTable.tsx';
import { IconSearch } from '../../components/icons.tsx';
import { useListParams, useSearchBox } from '../../components/list-params.ts';
import { EmptyState, ForbiddenState, QueryContent } from '../../components/states.tsx';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { groupColumns } from './columns.tsx';

const ORDER_BY = ['name', 'path', 'id'] as const;
type Scope = 'all' | 'member';

/** Search, sort, page and scope (my groups or all) live in the URL. */
function useGroupListParams(defaultScope: Scope) {
  const list = useListParams({ sortKeys: ORDER_BY, defaultSort: { key: 'name', dir: 'asc' } });
  const scopeParam = list.get('scope');
  const scope: Scope = scopeParam === 'all' || scopeParam === 'member' ? scopeParam : defaultScope;
  const sort = list.sort ?? { key: 'name', dir: 'asc' };
  const query: GroupsListQuery = {
    search: list.search.trim() || undefined,
    order_by: sort.key,
    sort: sort.dir,
    page: list.page,
    per_page: list.perPage,
    all_available: scope === 'all',
  };
  return { ...list, sort, scope, query };
}

export default function GroupsListPage() {
  usePageTitle('Groups');
  const user = useCurrentUser();
  const list = useGroupListParams(user.is_admin ? 'all' : 'member');
  const groups = useGroups(list.query);
  const searchBox = useSearchBox(list.search, list.update);

  const info = groups.data?.page;
  const items = groups.data?.items ?? [];

  return (
    <Stack gap="md">
      <div>
        <Title order={1} size="h2">
          Groups
        </Title>
        <Text c="dimmed" size="sm">
          Groups organise projects and their members. Open one to see its projects and change its settings.
        </Text>
      </div>

      <Group justify="space-between" gap="sm" align="center">
        <TextInput
          aria-label="Search groups"
          placeholder="Search by name or path"
          leftSection={<IconSearch size={16} />}
          rightSection={groups.isFetching && !groups.isPending ? <Loader size={14} /> : null}
          {...searchBox}
          style={{ flex: '1 1 260px', maxWidth: 420 }}
          type="search"
        />
        <SegmentedControl
          aria-label="Which groups"
          value={list.scope}
          onChange={(v) => list.update({ scope: v })}
          data={[
            { value: 'member', label: 'My groups' },
            { value: 'all', label: 'All groups' },
          ]}
        />
      </Group>

      <QueryContent
        query={groups}
        what="groups"
        forbidden={<ForbiddenState>You are not allowed to list groups.</ForbiddenState>}
        empty={(data) =>
          data.items.length === 0 &&
          (list.search ? (
            <EmptyState
              title={`No groups match “${list.search}”`}
              action={
                <Button variant="default" onClick={() => list.update({ search: null })}>
                  Clear search
                </Button>
              }
            >
              Search looks at group names and paths.
            </EmptyState>
          ) : list.scope === 'member' ? (
            <EmptyState
              title="You are not a member of any group"
              action={
                <Button variant="default" onClick={() => list.update({ scope: 'all' })}>
                  Show all groups
                </Button>
              }
            >
              Groups you are added to appear here. You can still browse the groups visible to you.
            </EmptyState>
          ) : (
            <EmptyState title="No groups yet">Groups created through the API appear here.</EmptyState>
          ))
        }
      >
        {(data) => (
          <DataTable
            label="Groups"
            items={data.items}
            columns={groupColumns}
            getRowId={(g) => String(g.id)}
            busy={groups.isFetching}
            minWidth={320}
            sort={list.sort}
            onSort={list.setSort}
          />
        )}
      </QueryContent>

      <TablePager info={info} shown={items.length} what={(n) => (n === 1 ? 'group' : 'groups')} onPage={list.setPage} />
    </Stack>
  );
}
