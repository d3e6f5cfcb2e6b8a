import { useMemo, useState } from 'react';
import { Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import type { PersonalAccessToken } from '../../../../shared/src/personal-access-tokens.ts';
import { useCurrentUser } from '../../api/session.ts';
import { useCreatePersonalAccessToken, usePersonalAccessTokens, useRevokePersonalAccessToken, useRotatePersonalAccessToken } from '../../api/personal-access-tokens.ts';
import { DataTable, TablePager } from '../../components/DataTable.tsx';
import { IconPlus, IconSearch } from '../../components/icons.tsx';
import { useListParams, useSearchBox } from '../../components/list-params.ts';
import { StateTabs } from '../../components/StateTabs.tsx';
import { EmptyState, ForbiddenState, QueryContent } from '../../components/states.tsx';
import { tokenColumns } from '../../components/token-columns.tsx';
import { tokenFormMeta } from '../../components/TokenFormDialog.tsx';
import { TokenActionDialogs, useTokenActions } from '../../components/TokenActions.tsx';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { CreatePersonalTokenDialog } from './CreatePersonalTokenDialog.tsx';

/** /user/access_tokens: the signed-in user's personal access tokens. */
export default function PersonalAccessTokensPage() {
  usePageTitle('Personal access tokens');
  const user = useCurrentUser();
  const list = useListParams();
  const state = list.get('state') === 'inactive' ? 'inactive' : 'active';
  const query = { state, search: list.search.trim() || undefined, page: list.page } as const;
  const tokens = usePersonalAccessTokens(user.id, query);
  const searchBox = useSearchBox(list.search, list.update);
  const actions = useTokenActions<PersonalAccessToken>();
  const [creating, setCreating] = useState(false);
  const rotate = useRotatePersonalAccessToken({ meta: { errorTitle: `“${actions.rotating?.name ?? 'The token'}” was not rotated` } });
  const revoke = useRevokePersonalAccessToken({ meta: { errorTitle: `“${actions.revoking?.name ?? 'The token'}” was not revoked` } });
  const create = useCreatePersonalAccessToken({ meta: tokenFormMeta() });
  const { onRotate, onRevoke } = actions;
  const cols = useMemo(() => tokenColumns<PersonalAccessToken>({ actions: state === 'active' ? { onRotate, onRevoke } : null }), [state, onRotate, onRevoke]);

  const items = tokens.data?.items ?? [];
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start" gap="sm">
        <div style={{ flex: '1 1 320px' }}>
          <Title order={1} size="h2">
            Personal access tokens
          </Title>
          <Text c="dimmed" size="sm" maw={640}>
            Tokens that act as you ({user.username}) through the API and git. Each is shown once, when it is created or rotated.
          </Text>
        </div>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
          Create token
        </Button>
      </Group>
      <StateTabs state={state} onChange={(v) => list.update({ state: v === 'inactive' ? 'inactive' : null })}>
        <Stack gap="md">
          <TextInput label="Search" placeholder="Token name" type="search" leftSection={<IconSearch size={16} />} {...searchBox} maw={360} />
          <QueryContent
            query={tokens}
            what="your tokens"
            forbidden={<ForbiddenState title="You may not list personal access tokens">Ask an administrator about your account.</ForbiddenState>}
            empty={(data) =>
              data.items.length === 0 &&
              (query.search ? (
                <EmptyState title="No tokens match">No {state} token is named like “{query.search}”.</EmptyState>
              ) : state === 'active' ? (
                <EmptyState
                  title="No active personal access tokens"
                  action={
                    <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
                      Create token
                    </Button>
                  }
                >
                  A personal access token lets scripts and API clients act as you, limited to the scopes you choose.
                </EmptyState>
              ) : (
                <EmptyState title="No inactive tokens">Your revoked and expired tokens are listed here.</EmptyState>
              ))
            }
          >
            {(data) => <DataTable label="Personal access tokens" items={data.items} columns={cols} getRowId={(t) => String(t.id)} busy={tokens.isFetching} />}
          </QueryContent>
          <TablePager info={tokens.data?.page} shown={items.length} what={(n) => `${state} ${n === 1 ? 'token' : 'tokens'}`} onPage={list.setPage} />
        </Stack>
      </StateTabs>

      <CreatePersonalTokenDialog
        ownerIsAdmin={user.is_admin}
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={actions.showCreated}
        mutation={create}
        intro="The token acts as you, with your roles in every group and project, limited to the scopes you choose."
      />
      <TokenActionDialogs actions={actions} rotate={rotate} revoke={revoke} revokeWarning="Anything that uses this token loses its access at once." />
    </Stack>
  );
}
