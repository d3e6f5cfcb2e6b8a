import { useMemo, useState } from 'react';
import { Alert, Badge, Button, CopyButton, Group, Modal, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { createColumnHelper } from '@tanstack/react-table';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { DEPLOY_TOKEN_SCOPES, deployTokenCreateBody, type DeployToken } from '../../../../shared/src/deploy-tokens.ts';
import type { GroupDetail } from '../../../../shared/src/groups.ts';
import { useCreateGroupDeployToken, useGroupDeployTokens, useRevokeGroupDeployToken } from '../../api/deploy-tokens.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { DataTable, TablePager } from '../../components/DataTable.tsx';
import { formatDate, sentence } from '../../components/format.ts';
import { IconAlert, IconPlus } from '../../components/icons.tsx';
import { useListParams } from '../../components/list-params.ts';
import { notifySuccess } from '../../components/notify.ts';
import { RequireAbility, RoleForbidden } from '../../components/ResourcePage.tsx';
import { formShowsFieldErrors, showServerFieldErrors } from '../../components/server-errors.ts';
import { EmptyState, ErrorState, LoadingState } from '../../components/states.tsx';
import { expiryBounds } from '../group-access-tokens/expiry.ts';
import { ScopeCheckboxes } from '../../components/ScopeCheckboxes.tsx';
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
  const [shown, setShown] = useState<(DeployToken & { token: string }) | null>(null);
  const [revoking, setRevoking] = useState<DeployToken | null>(null);
  const revoke = useRevokeGroupDeployToken(group.id, { meta: { errorTitle: 'The deploy token was not revoked' } });
  const columns = useMemo(
    () => [
      col.accessor('name', { header: 'Name', cell: (i) => <Text size="sm" fw={600}>{i.getValue()}</Text> }),
      col.accessor('username', { header: 'Username', cell: (i) => <Text size="sm" ff="monospace">{i.getValue()}</Text> }),
      col.accessor('scopes', {
        header: 'Scopes',
        cell: (i) => (
          <Group gap={4}>
            {i.getValue().map((s) => (
              <Badge key={s} variant="outline" color="gray" size="sm" tt="none" ff="monospace" fw={500}>
                {s}
              </Badge>
            ))}
          </Group>
        ),
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
  let body: React.ReactNode;
  if (tokens.isPending) body = <LoadingState label="Loading deploy tokens…" />;
  else if (tokens.isError && tokens.error.status === 403) body = <RoleForbidden title={FORBIDDEN_TITLE} hint={FORBIDDEN_HINT} />;
  else if (tokens.isError) body = <ErrorState title="Deploy tokens could not be loaded" error={tokens.error} onRetry={() => void tokens.refetch()} />;
  else if (items.length === 0) {
    body = (
      <EmptyState title="No active deploy tokens" action={<Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>Create deploy token</Button>}>
        A deploy token lets a server or registry client clone repositories or pull packages of {group.full_name} without a personal account.
      </EmptyState>
    );
  } else body = <DataTable label="Deploy tokens" items={items} columns={columns} getRowId={(t) => String(t.id)} busy={tokens.isFetching} />;

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
      {body}
      <TablePager info={tokens.data?.page} shown={items.length} what={(n) => (n === 1 ? 'deploy token' : 'deploy tokens')} onPage={list.setPage} />
      <CreateDeployTokenDialog group={group} opened={creating} onClose={() => setCreating(false)} onCreated={setShown} />
      <DeployTokenReveal token={shown} onClose={() => setShown(null)} />
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
type Body = z.output<typeof deployTokenCreateBody>;
const FIELDS = ['name', 'username', 'scopes', 'expires_at'] as const;
const emptyForm = (): Input => ({ name: '', username: undefined, scopes: [], expires_at: undefined });

function CreateDeployTokenDialog({ group, opened, onClose, onCreated }: { group: GroupDetail; opened: boolean; onClose: () => void; onCreated: (t: DeployToken & { token: string }) => void }) {
  const create = useCreateGroupDeployToken(group.id, { meta: { errorTitle: 'The deploy token was not created', showsError: formShowsFieldErrors } });
  const form = useForm<Input, unknown, Body>({ resolver: zodResolver(deployTokenCreateBody), defaultValues: emptyForm() });
  const bounds = expiryBounds();
  const close = () => {
    form.reset(emptyForm());
    create.reset();
    onClose();
  };
  const onValid = async (body: Body) => {
    try {
      const created = await create.mutateAsync({ ...body, username: body.username || undefined });
      create.reset();
      close();
      onCreated(created);
    } catch (e) {
      showServerFieldErrors(form.setError, e, { fieldOf: (p) => FIELDS.find((f) => f === p.split('.')[0]) ?? null, title: 'The deploy token was not created' });
    }
  };
  return (
    <Modal opened={opened} onClose={close} title="Create a deploy token" size="lg" closeOnClickOutside={!form.formState.isDirty}>
      <form onSubmit={form.handleSubmit(onValid)} noValidate aria-label="New deploy token">
        <Stack gap="md">
          <TextInput label="Name" withAsterisk data-autofocus autoComplete="off" error={sentence(form.formState.errors.name?.message)} {...form.register('name')} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label="Username"
              description="Optional; made up when empty."
              autoComplete="off"
              error={sentence(form.formState.errors.username?.message)}
              {...form.register('username', { setValueAs: (v: string) => v || undefined })}
            />
            <Controller
              control={form.control}
              name="expires_at"
              render={({ field: { ref, ...field }, fieldState }) => (
                <DatePickerInput
                  ref={ref}
                  label="Expiration date"
                  description="Optional; empty means never."
                  placeholder="Never"
                  clearable
                  value={typeof field.value === 'string' ? field.value : null}
                  onChange={(v) => field.onChange(v ?? undefined)}
                  minDate={bounds.min}
                  valueFormat="MMM D, YYYY"
                  error={sentence(fieldState.error?.message)}
                />
              )}
            />
          </SimpleGrid>
          <ScopeCheckboxes control={form.control} name="scopes" scopes={DEPLOY_TOKEN_SCOPES} help={SCOPE_HELP}  />
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={close} disabled={create.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Create deploy token
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/**
 * A deploy token is a username and token pair, so it gets its own reveal: the group token reveal
 * dialog shows a role and no username.
 */
function DeployTokenReveal({ token, onClose }: { token: (DeployToken & { token: string }) | null; onClose: () => void }) {
  return (
    <Modal opened={token !== null} onClose={onClose} title="Deploy token created: copy it now" size="lg" closeOnClickOutside={false} closeOnEscape={false}>
      {token && (
        <Stack gap="md">
          <Alert color="orange" variant="light" icon={<IconAlert />} title="You will not see it again">
            Store the username and token where the machine reads them. Once you close this dialog, Gatehouse cannot show the token again.
          </Alert>
          <TextInput label="Username" value={token.username} readOnly />
          <Group align="flex-end" wrap="nowrap">
            <TextInput label={`Token “${token.name}”`} value={token.token} readOnly data-autofocus style={{ flex: 1 }} styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }} />
            <CopyButton value={token.token}>{({ copied, copy }) => <Button onClick={copy}>{copied ? 'Copied' : 'Copy'}</Button>}</CopyButton>
          </Group>
          <Group justify="flex-end">
            <Button onClick={onClose}>I have copied it</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
