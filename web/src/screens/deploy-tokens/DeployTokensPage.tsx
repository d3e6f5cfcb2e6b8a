import { useMemo, useRef, useState } from 'react';
import { Button, Stack, Text, TextInput, Title, Group } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import type { z } from 'zod';
import { DEPLOY_TOKEN_SCOPES, deployTokenCreateBody, type DeployToken } from '../../../../shared/src/deploy-tokens.ts';
import type { GroupDetail } from '../../../../shared/src/groups.ts';
import { useCreateGroupDeployToken, useGroupDeployTokens, useRevokeGroupDeployToken } from '../../api/deploy-tokens.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { DataTable, TablePager } from '../../components/DataTable.tsx';
import { formatDate, sentence } from '../../format.ts';
import { IconPlus } from '../../components/icons.tsx';
import { useListParams } from '../../components/list-params.ts';
import { notifySuccess } from '../../components/notify.ts';
import { RequireAbility, RoleForbidden } from '../../components/ResourcePage.tsx';
import { EmptyState, QueryContent } from '../../components/states.tsx';
import { ScopeBadges } from '../../components/token-columns.tsx';
import { TokenFormDialog, tokenFormMeta } from '../../components/TokenFormDialog.tsx';
import { TokenRevealDialog, type RevealedToken, type TokenRevealHandle } from '../../components/TokenRevealDialog.tsx';
import { useGroupContext } from '../groups/group-context.ts';

const FORBIDDEN_TITLE = 'You need the Maintainer role to manage deploy tokens';
const FORBIDDEN_HINT = 'Deploy tokens are created and revoked by Maintainers and Owners of the group.';

const SCOPE_HELP: Record<(typeof DEPLOY_TOKEN_SCOPES)[number], string> = {
  read_repository: 'Clone the group’s repositories.',
  read_registry: 'Pull container images.',
  write_registry: 'Push container images.',
  read_package_registry: 'Download packages.',
  write_package_registry: 'Publish packages.',
  read_virtual_registry: 'Pull through virtual registries.',
  write_virtual_registry: 'Push to virtual registries.',
};

const col = createColumnHelper<DeployToken>();

/** /groups/<full path>/-/deploy_tokens: credentials for machines that only read or publish, not act as a person. */
export default function DeployTokensPage() {
  const { group } = useGroupContext();
  return (
    <RequireAbility action="admin_deploy_tokens" title={FORBIDDEN_TITLE} hint={FORBIDDEN_HINT}>
      <DeployTokens key={group.id} group={group} />
    </RequireAbility>
  );
}

function DeployTokens({ group }: { group: GroupDetail }) {
  const list = useListParams();
  const tokens = useGroupDeployTokens(group.id, { active: true, page: list.page });
  const [creating, setCreating] = useState(false);
  const reveal = useRef<TokenRevealHandle>(null);
  const [revoking, setRevoking] = useState<DeployToken | null>(null);
  const revoke = useRevokeGroupDeployToken(group.id, { meta: { errorTitle: 'The deploy token was not revoked' } });
  const columns = useMemo(
    () => [
      col.accessor('name', { header: 'Name', cell: (i) => <Text size="sm" fw={600}>{i.getValue()}</Text> }),
      col.accessor('username', { header: 'Username', cell: (i) => <Text size="sm" ff="monospace">{i.getValue()}</Text> }),
      col.accessor('scopes', {
        header: 'Scopes',
        cell: (i) => <ScopeBadges scopes={i.getValue()} />,
      }),
      col.accessor('expires_at', { header: 'Expires', cell: (i) => (i.getValue() ? formatDate(i.getValue()) : 'Never') }),
      col.display({
        id: 'actions',
        header: () => <span className="gh-visually-hidden">Actions</span>,
        cell: ({ row }) => (
          <Button size="compact-sm" variant="light" color="red" onClick={() => setRevoking(row.original)} aria-label={`Revoke ${row.original.name}`}>
            Revoke
          </Button>
        ),
      }),
    ],
    [],
  );

  const items = tokens.data?.items ?? [];
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={2} size="h3">
            Deploy tokens
          </Title>
          <Text c="dimmed" size="sm" maw={640}>
            A username and token pair for machines, with read or publish scopes on the group’s repositories and registries. The token is shown once.
          </Text>
        </div>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
          Create deploy token
        </Button>
      </Group>
      <QueryContent
        query={tokens}
        what="deploy tokens"
        forbidden={<RoleForbidden title={FORBIDDEN_TITLE} hint={FORBIDDEN_HINT} />}
        empty={(data) =>
          data.items.length === 0 && (
            <EmptyState title="No active deploy tokens" action={<Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>Create deploy token</Button>}>
              A deploy token lets a server or registry client clone repositories or pull packages of {group.full_name} without a personal account.
            </EmptyState>
          )
        }
      >
        {(data) => <DataTable label="Deploy tokens" items={data.items} columns={columns} getRowId={(t) => String(t.id)} busy={tokens.isFetching} />}
      </QueryContent>
      <TablePager info={tokens.data?.page} shown={items.length} what={(n) => (n === 1 ? 'deploy token' : 'deploy tokens')} onPage={list.setPage} />
      <CreateDeployTokenDialog group={group} opened={creating} onClose={() => setCreating(false)} onCreated={(t) => reveal.current?.show(t, 'created')} />
      <TokenRevealDialog ref={reveal} noun="Deploy token" />
      <ConfirmDialog
        opened={revoking !== null}
        title={revoking ? `Revoke “${revoking.name}”?` : ''}
        confirmLabel="Revoke deploy token"
        loading={revoke.isPending}
        onConfirm={() =>
          revoking &&
          revoke.mutate(revoking.id, {
            onSuccess: () => {
              notifySuccess('Deploy token revoked', `“${revoking.name}” no longer works.`);
              setRevoking(null);
            },
          })
        }
        onClose={() => setRevoking(null)}
      >
        Anything that clones or pulls with this token loses its access at once.
      </ConfirmDialog>
    </Stack>
  );
}

type Input = z.input<typeof deployTokenCreateBody>;
const emptyForm = (): Input => ({ name: '', username: undefined, scopes: [], expires_at: undefined });

/** The shared token form with the username the token is used with (made up by the server when empty). */
function CreateDeployTokenDialog({ group, opened, onClose, onCreated }: { group: GroupDetail; opened: boolean; onClose: () => void; onCreated: (t: RevealedToken) => void }) {
  const create = useCreateGroupDeployToken(group.id, { meta: tokenFormMeta('The deploy token was not created') });
  return (
    <TokenFormDialog
      opened={opened}
      onClose={onClose}
      onCreated={onCreated}
      title="Create a deploy token"
      formLabel="New deploy token"
      schema={deployTokenCreateBody}
      defaults={emptyForm}
      mutation={create}
      expiry="optional"
      scopes={DEPLOY_TOKEN_SCOPES}
      scopeHelp={SCOPE_HELP}
      scopesHint="What the machine may read or publish."
      submitLabel="Create deploy token"
      errorTitle="The deploy token was not created"
      extraLabels={{ username: 'Username' }}
      extra={(form) => (
        <TextInput
          label="Username"
          description="Optional; made up when empty."
          autoComplete="off"
          error={sentence(form.formState.errors.username?.message)}
          {...form.register('username', { setValueAs: (v: string) => v || undefined })}
        />
      )}
    />
  );
}
