import { useMemo, useState } from 'react';
import { Button, Group, Loader, NativeSelect, Stack, Text, TextInput, Title } from '@mantine/core';
import { useUsers, type UsersQuery } from '../../api/users.ts';
import { useCurrentUser } from '../../api/session.ts';
import { DataTable, TablePager } from '../../components/DataTable.tsx';
import { IconPlus, IconSearch } from '../../components/icons.tsx';
import { useListParams, useSearchBox, type Sort } from '../../components/list-params.ts';
import { EmptyState, QueryContent } from '../../components/states.tsx';
import { AdminForbidden } from './admin-states.tsx';
import { CreateUserDialog } from './CreateUserDialog.tsx';
import { userColumns } from './user-columns.tsx';

const SORT_KEYS = ['name', 'created'] as const;
const DEFAULT_SORT: Sort<(typeof SORT_KEYS)[number]> = { key: 'created', dir: 'desc' };

/** The "Show" filter, in the URL as `state`, and what it asks GET /users for. */
const FILTERS = [
  { value: 'active', label: 'Active', query: { active: true } },
  { value: 'blocked', label: 'Blocked', query: { blocked: true } },
  { value: 'admins', label: 'Administrators', query: { admins: true } },
] as const;

function useUserListParams() {
  const list = useListParams({ sortKeys: SORT_KEYS, defaultSort: DEFAULT_SORT });
  const filter = FILTERS.find((f) => f.value === list.get('state'));
  const sort = list.sort ?? DEFAULT_SORT;
  const query: UsersQuery = {
    search: list.search.trim() || undefined,
    order_by: sort.key === 'created' ? 'created_at' : sort.key,
    sort: sort.dir,
    page: list.page,
    per_page: list.perPage,
    ...filter?.query,
  };
  const filtered = Boolean(query.search || filter);
  return { ...list, sort, filter, query, filtered, clearFilters: () => list.update({ search: null, state: null }) };
}

/** /admin/users: every account, searchable and filtered by state, with "New user". */
export default function UsersListPage() {
  const me = useCurrentUser();
  const list = useUserListParams();
  const users = useUsers(list.query);
  const searchBox = useSearchBox(list.search, list.update);
  const [creating, setCreating] = useState(false);
  const columns = useMemo(() => userColumns(me.id), [me.id]);
  const items = users.data?.items ?? [];

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start" gap="sm">
        <div style={{ flex: '1 1 320px' }}>
          <Title order={2} size="h3">
            Users
          </Title>
          <Text c="dimmed" size="sm" maw={640}>
            Every account of the instance, bots behind access tokens included. Open one to block it, make it an administrator or manage its
            personal access tokens.
          </Text>
        </div>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
          New user
        </Button>
      </Group>

      <Group gap="sm" align="flex-end" wrap="wrap">
        <TextInput
          label="Search"
          placeholder="Name, username or full email"
          leftSection={<IconSearch size={16} />}
          rightSection={users.isFetching && !users.isPending ? <Loader size={14} /> : null}
          {...searchBox}
          style={{ flex: '1 1 240px', maxWidth: 360 }}
          type="search"
        />
        <NativeSelect
          label="Show"
          value={list.filter?.value ?? ''}
          onChange={(e) => list.update({ state: e.currentTarget.value || null })}
          data={[{ value: '', label: 'All users' }, ...FILTERS.map(({ value, label }) => ({ value, label }))]}
          style={{ flex: '1 1 150px', maxWidth: 220 }}
        />
      </Group>

      <QueryContent
        query={users}
        what="users"
        forbidden={<AdminForbidden />}
        empty={(data) =>
          data.items.length === 0 &&
          (list.filtered ? (
            <EmptyState
              title="No users match"
              action={
                <Button variant="default" onClick={list.clearFilters}>
                  Clear search and filter
                </Button>
              }
            >
              Search looks at names and usernames, and at email addresses written in full.
            </EmptyState>
          ) : (
            <EmptyState
              title="No users yet"
              action={
                <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
                  New user
                </Button>
              }
            >
              Accounts created here or through the API are listed here.
            </EmptyState>
          ))
        }
      >
        {(data) => (
          <DataTable label="Users" items={data.items} columns={columns} getRowId={(u) => String(u.id)} busy={users.isFetching} sort={list.sort} onSort={list.setSort} />
        )}
      </QueryContent>

      <TablePager info={users.data?.page} shown={items.length} what={(n) => (n === 1 ? 'user' : 'users')} onPage={list.setPage} />
      <CreateUserDialog opened={creating} onClose={() => setCreating(false)} />
    </Stack>
  );
}
