import { useMemo, useState } from 'react';
import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { PersonalAccessToken } from '../../../../shared/src/personal-access-tokens.ts';
import type { User } from '../../../../shared/src/users.ts';
import { useCreateUserToken, useRevokeUserToken, useUserTokens } from '../../api/users.ts';
import { DataTable, TablePager } from '../../components/DataTable.tsx';
import { IconPlus } from '../../components/icons.tsx';
import { useListParams } from '../../components/list-params.ts';
import { StateTabs } from '../../components/StateTabs.tsx';
import { EmptyState, QueryContent } from '../../components/states.tsx';
import { tokenColumns } from '../../components/token-columns.tsx';
import { tokenFormMeta } from '../../components/TokenFormDialog.tsx';
import { TokenActionDialogs, useTokenActions } from '../../components/TokenActions.tsx';
import { CreatePersonalTokenDialog } from '../personal-access-tokens/CreatePersonalTokenDialog.tsx';
import { AdminForbidden } from './admin-states.tsx';

/** The user's personal access tokens, active or inactive (tab and page in the URL): revoke one, or create one for them. */
export function UserTokensSection({ user }: { user: User }) {
  const list = useListParams();
  const state = list.get('tokens') === 'inactive' ? 'inactive' : 'active';
  const tokens = useUserTokens(user.id, { state, page: list.page });
  const actions = useTokenActions<PersonalAccessToken>();
  const [creating, setCreating] = useState(false);
  const revoke = useRevokeUserToken(user.id, { meta: { errorTitle: `“${actions.revoking?.name ?? 'The token'}” was not revoked` } });
  const create = useCreateUserToken(user.id, { meta: tokenFormMeta() });
  // An administrator revokes a user's token; rotating it would hand them its replacement.
  const { onRevoke } = actions;
  const columns = useMemo(() => tokenColumns<PersonalAccessToken>({ actions: state === 'active' ? { onRevoke } : null }), [state, onRevoke]);
  const items = tokens.data?.items ?? [];
  const canCreate = !user.bot;

  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby="user-tokens">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" gap="sm">
          <div style={{ flex: '1 1 320px' }}>
            <Title order={3} size="h4" id="user-tokens">
              Personal access tokens
            </Title>
            <Text size="sm" c="dimmed" maw={640}>
              Tokens act as {user.name} through the API and git. A token you create here is shown once; give it to them over a safe channel.
            </Text>
          </div>
          {canCreate && (
            <Button leftSection={<IconPlus size={16} />} variant="default" onClick={() => setCreating(true)}>
              Create token
            </Button>
          )}
        </Group>
        <StateTabs state={state} onChange={(v) => list.update({ tokens: v === 'inactive' ? 'inactive' : null })}>
          <Stack gap="md">
            <QueryContent
              query={tokens}
              what="tokens"
              forbidden={<AdminForbidden />}
              empty={(data) =>
                data.items.length === 0 &&
                (state === 'active' ? (
                  <EmptyState title="No active personal access tokens">
                    {user.bot ? 'A bot user’s tokens are managed where its access token was created.' : `${user.name} has no token that works now.`}
                  </EmptyState>
                ) : (
                  <EmptyState title="No inactive personal access tokens">Revoked and expired tokens of {user.name} are listed here.</EmptyState>
                ))
              }
            >
              {(data) => <DataTable label="Personal access tokens" items={data.items} columns={columns} getRowId={(t) => String(t.id)} busy={tokens.isFetching} minWidth={640} />}
            </QueryContent>
            <TablePager info={tokens.data?.page} shown={items.length} what={(n) => `${state} ${n === 1 ? 'token' : 'tokens'}`} onPage={list.setPage} />
          </Stack>
        </StateTabs>
      </Stack>
      <CreatePersonalTokenDialog
        title={`New token for @${user.username}`}
        ownerIsAdmin={Boolean(user.is_admin)}
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={actions.showCreated}
        mutation={create}
        intro={`The token acts as ${user.name}, with their access, limited to the scopes you choose.`}
      />
      <TokenActionDialogs
        actions={actions}
        revoke={revoke}
        revokeWarning={`Anything that uses this token as @${user.username} loses its access immediately.`}
        revokedMessage={(t) => `“${t.name}” of @${user.username} no longer works.`}
      />
    </Paper>
  );
}
