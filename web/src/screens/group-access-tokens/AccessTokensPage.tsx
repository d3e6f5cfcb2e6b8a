import { useMemo, useState } from 'react';
import { Button, Group, Loader, NativeSelect, Stack, Tabs, Text, TextInput, Title } from '@mantine/core';
import type { GroupAccessToken } from '../../../../shared/src/group-access-tokens.ts';
import type { GroupDetail } from '../../../../shared/src/groups.ts';
import { useGroupAccessTokens, useRevokeGroupAccessToken, useRotateGroupAccessToken } from '../../api/group-access-tokens.ts';
import { DataTable, TablePager } from '../../components/DataTable.tsx';
import { sortValue, useSearchBox } from '../../components/list-params.ts';
import { IconPlus, IconSearch } from '../../components/icons.tsx';
import { EmptyState, QueryContent } from '../../components/states.tsx';
import { useGroupContext } from '../groups/group-context.ts';
import { RequireAbility, RoleForbidden } from '../../components/ResourcePage.tsx';
import { tokenColumns } from '../../components/token-columns.tsx';
import { CreateTokenDialog } from './CreateTokenDialog.tsx';
import { DEFAULT_SORT, EXPIRES_FILTERS, SORT_OPTIONS, STATUS_FILTERS, USED_FILTERS, useTokenListParams } from './list-params.ts';
import { TokenActionDialogs, useTokenActions } from '../../components/TokenActions.tsx';

const FORBIDDEN_TITLE = 'You need the Owner role to manage access tokens';
const FORBIDDEN_HINT = 'Group access tokens are created, rotated and revoked by Owners of the group and administrators.';

/** /groups/<full path>/-/access_tokens: the group's access tokens, for Owners and administrators. */
export default function AccessTokensPage() {
  const { group } = useGroupContext();
  return (
    <RequireAbility title={FORBIDDEN_TITLE} hint={FORBIDDEN_HINT}>
      <AccessTokens key={group.id} group={group} />
    </RequireAbility>
  );
}

function AccessTokens({ group }: { group: GroupDetail }) {
  const list = useTokenListParams();
  const tokens = useGroupAccessTokens(group.id, list.query);
  const actions = useTokenActions<GroupAccessToken>();
  const { onRotate, onRevoke } = actions;
  const [creating, setCreating] = useState(false);
  const rotate = useRotateGroupAccessToken(group.id, {
    meta: { errorTitle: `“${actions.rotating?.name ?? 'The token'}” was not rotated`, forbidden: 'You need the Owner role to rotate access tokens of this group.' },
  });
  const revoke = useRevokeGroupAccessToken(group.id, {
    meta: { errorTitle: `“${actions.revoking?.name ?? 'The token'}” was not revoked`, forbidden: 'You need the Owner role to revoke access tokens of this group.' },
  });

  // The box follows the URL (back/forward), and the URL follows the box after a pause in typing.
  const searchBox = useSearchBox(list.search, list.update);

  const columns = useMemo(
    () => tokenColumns<GroupAccessToken>({ role: true, actions: list.state === 'active' ? { onRotate, onRevoke } : null }),
    [list.state, onRotate, onRevoke],
  );

  const items = tokens.data?.items ?? [];
  const info = tokens.data?.page;

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start" gap="sm">
        <div style={{ flex: '1 1 320px' }}>
          <Title order={2} size="h3">
            Group access tokens
          </Title>
          <Text c="dimmed" size="sm" maw={640}>
            Each token acts as a bot member of {group.full_name} with the role and scopes chosen when it was created. The token itself is shown
            once, when it is created or rotated.
          </Text>
        </div>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
          Create token
        </Button>
      </Group>

      <Tabs
        value={list.state}
        onChange={(v) => list.update({ state: v === 'inactive' ? 'inactive' : null, expires: null, status: null })}
        variant="outline"
      >
        <Tabs.List aria-label="Token state">
          {(['active', 'inactive'] as const).map((state) => (
            // Only the current tab's panel is on the page.
            <Tabs.Tab key={state} value={state} {...(state !== list.state && { 'aria-controls': undefined })}>
              {state === 'active' ? 'Active' : 'Inactive'}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value={list.state} pt="md">
          <Stack gap="md">
            <Group gap="sm" align="flex-end" wrap="wrap">
              <TextInput
                label="Search"
                placeholder="Token name"
                leftSection={<IconSearch size={16} />}
                rightSection={tokens.isFetching && !tokens.isPending ? <Loader size={14} /> : null}
                {...searchBox}
                style={{ flex: '1 1 240px', maxWidth: 360 }}
                type="search"
              />
              {list.state === 'active' ? (
                <NativeSelect
                  label="Expires"
                  value={list.expires ?? ''}
                  onChange={(e) => list.update({ expires: e.currentTarget.value || null })}
                  data={[{ value: '', label: 'Any time' }, ...EXPIRES_FILTERS.map(({ value, label }) => ({ value, label }))]}
                  style={{ flex: '1 1 150px', maxWidth: 220 }}
                />
              ) : (
                <NativeSelect
                  label="Status"
                  value={list.status ?? ''}
                  onChange={(e) => list.update({ status: e.currentTarget.value || null })}
                  data={[{ value: '', label: 'All inactive' }, ...STATUS_FILTERS.map(({ value, label }) => ({ value, label }))]}
                  style={{ flex: '1 1 150px', maxWidth: 220 }}
                />
              )}
              <NativeSelect
                label="Last used"
                value={list.used ?? ''}
                onChange={(e) => list.update({ used: e.currentTarget.value || null })}
                data={[{ value: '', label: 'Any time or never' }, ...USED_FILTERS.map(({ value, label }) => ({ value, label }))]}
                style={{ flex: '1 1 150px', maxWidth: 220 }}
              />
              <NativeSelect
                label="Sort by"
                value={sortValue(list.sort)}
                onChange={(e) => list.update({ sort: e.currentTarget.value === sortValue(DEFAULT_SORT) ? null : e.currentTarget.value })}
                data={SORT_OPTIONS}
                style={{ flex: '1 1 150px', maxWidth: 220 }}
              />
            </Group>

            <QueryContent
              query={tokens}
              what="access tokens"
              forbidden={<RoleForbidden title={FORBIDDEN_TITLE} hint={FORBIDDEN_HINT} />}
              empty={(data) =>
                data.items.length === 0 &&
                (list.filtered ? (
                  <EmptyState
                    title="No tokens match"
                    action={
                      <Button variant="default" onClick={list.clearFilters}>
                        Clear search and filters
                      </Button>
                    }
                  >
                    No {list.state} token of {group.full_name} matches the search and filters you chose.
                  </EmptyState>
                ) : list.state === 'active' ? (
                  <EmptyState
                    title="No active access tokens"
                    action={
                      <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
                        Create token
                      </Button>
                    }
                  >
                    Give scripts and CI jobs their own credential for {group.full_name}, with only the role and scopes they need.
                  </EmptyState>
                ) : (
                  <EmptyState title="No inactive access tokens">Revoked and expired tokens of {group.full_name} are listed here.</EmptyState>
                ))
              }
            >
              {(data) => (
                <DataTable label="Access tokens" items={data.items} columns={columns} getRowId={(t) => String(t.id)} busy={tokens.isFetching} sort={list.sort} onSort={list.setSort} />
              )}
            </QueryContent>

            <TablePager info={info} shown={items.length} what={(n) => `${list.state} ${n === 1 ? 'token' : 'tokens'}`} onPage={list.setPage} />
          </Stack>
        </Tabs.Panel>
      </Tabs>

      <CreateTokenDialog group={group} opened={creating} onClose={() => setCreating(false)} onCreated={actions.showCreated} />
      <TokenActionDialogs
        actions={actions}
        rotate={rotate}
        revoke={revoke}
        revokeWarning={`Anything that uses this token loses its access to ${group.full_name} immediately.`}
      />
    </Stack>
  );
}
