import { useMemo, useState } from 'react';
import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { Link } from 'react-router';
import type { Webhook } from '../../../../shared/src/hooks.ts';
import { useDeleteHook, useHooks } from '../../api/hooks.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { IconPlus } from '../../components/icons.tsx';
import { notifySuccess } from '../../components/notify.ts';
import { EmptyState, QueryContent } from '../../components/states.tsx';
import { DataTable } from '../../components/DataTable.tsx';
import { DisabledBanner } from './DisabledBanner.tsx';
import { hookColumns } from './hook-columns.tsx';
import { hookTitle } from './hook-format.ts';
import { HookCards } from './HookCards.tsx';
import { useHookScope } from './hook-scope.ts';

/** The hooks of a group or project: what they listen to, how they are doing, and what can be done with each. */
export function HooksListPage() {
  const { owner, ownerName, href, forbidden } = useHookScope();
  const hooks = useHooks(owner);
  const [deleting, setDeleting] = useState<Webhook | null>(null);
  const remove = useDeleteHook(owner, {
    meta: { errorTitle: `“${deleting ? hookTitle(deleting) : 'The webhook'}” was not deleted`, forbidden: 'You no longer have the role to manage these webhooks.' },
  });
  const narrow = useMediaQuery('(max-width: 48em)');
  const columns = useMemo(() => hookColumns({ scope: owner.scope, href, onDelete: setDeleting }), [owner.scope, href]);

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => {
        notifySuccess('Webhook deleted', `${hookTitle(deleting)} no longer receives events.`);
        setDeleting(null);
      },
    });
  };

  const system = owner.scope === 'system';
  const addButton = (
    <Button component={Link} to={href('new')} leftSection={<IconPlus size={16} />}>
      Add webhook
    </Button>
  );

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start" gap="sm">
        <div style={{ flex: '1 1 320px' }}>
          <Title order={2} size="h3">
            {system ? 'System hooks' : 'Webhooks'}
          </Title>
          <Text c="dimmed" size="sm" maw={640}>
            {system
              ? 'Gatehouse POSTs a JSON payload to each system hook’s URL whenever a project, group or user is created, renamed, transferred or deleted anywhere in this instance, and on the project events each hook chooses (pushes, tag pushes, merge requests, repository updates) in every project.'
              : `Gatehouse POSTs a JSON payload to each webhook’s URL when one of its events happens in ${ownerName}${owner.scope === 'groups' ? ', its subgroups or its projects' : ''}.`}
          </Text>
        </div>
        {hooks.isSuccess && hooks.data.length > 0 && addButton}
      </Group>
      <QueryContent
        query={hooks}
        what="webhooks"
        forbidden={forbidden()}
        empty={(data) =>
          data.length === 0 && (
            <EmptyState title={system ? 'No system hooks yet' : 'No webhooks yet'} action={addButton}>
              {system
                ? 'A system hook sends an HTTP POST to a URL of yours whenever a user, group or project is created, renamed or deleted, and on pushes or merge requests in any project. Use it to keep a directory, an audit log or another system in step.'
                : `A webhook sends an HTTP POST to a URL of yours whenever something happens in ${ownerName}: a push, a new member, a pipeline that finished. Use it to notify chat, start a build or keep another system in step.`}
            </EmptyState>
          )
        }
      >
        {(data) => (
          <Stack gap="md">
            <DisabledBanner hooks={data} />
            {narrow ? (
              <HookCards hooks={data} scope={owner.scope} href={href} onDelete={setDeleting} />
            ) : (
              <DataTable label="Webhooks" items={data} columns={columns} getRowId={(h) => String(h.id)} busy={hooks.isFetching} minWidth={860} />
            )}
            <Text size="sm" c="dimmed">
              {data.length} {data.length === 1 ? 'webhook' : 'webhooks'}. Health counts the deliveries of the past seven days and shows the last failure.
            </Text>
          </Stack>
        )}
      </QueryContent>
      <ConfirmDialog
        opened={deleting !== null}
        title={deleting ? `Delete “${hookTitle(deleting)}”?` : ''}
        confirmLabel="Delete webhook"
        loading={remove.isPending}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(null)}
      >
        Gatehouse stops sending events to <b style={{ overflowWrap: 'anywhere' }}>{deleting?.url}</b> at once, and its delivery log is deleted with it.
        This cannot be undone.
      </ConfirmDialog>
    </Stack>
  );
}
