import { useMemo, useState } from 'react';
import { Alert, Button, Code, CopyButton, Group, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { Link } from 'react-router';
import type { ErrorTrackingClientKey } from '../../../../shared/src/error-tracking.ts';
import { useClientKeys, useCreateClientKey, useErrorTrackingSetting, useRevokeClientKey, useSaveErrorTrackingSetting } from '../../api/error-tracking.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { DataTable, TablePager } from '../../components/DataTable.tsx';
import { IconAlert, IconArrowLeft, IconPlus } from '../../components/icons.tsx';
import { useListParams } from '../../components/list-params.ts';
import { notifySuccess } from '../../components/notify.ts';
import { EmptyState, QueryContent } from '../../components/states.tsx';
import { errorTrackingHref } from '../../paths.ts';
import { useProjectContext } from '../projects/project-context.ts';

const col = createColumnHelper<ErrorTrackingClientKey>();
/** `glet_1a2b3c4d…`: enough of a public key to tell keys apart in a sentence. */
const shortKey = (k: ErrorTrackingClientKey) => `${k.public_key.slice(0, 13)}…`;

/** …/-/error_tracking/settings (Maintainers): integrated error tracking on or off, and the keys (DSNs) applications report with. */
export function ErrorTrackingSettings() {
  const { project } = useProjectContext();
  const list = useListParams();
  const setting = useErrorTrackingSetting(project.id);
  const save = useSaveErrorTrackingSetting(project.id, { meta: { errorTitle: 'Error tracking was not changed' } });
  const keys = useClientKeys(project.id, list.page);
  const create = useCreateClientKey(project.id, { meta: { errorTitle: 'The key was not created' } });
  const revoke = useRevokeClientKey(project.id, { meta: { errorTitle: 'The key was not revoked' } });
  const [revoking, setRevoking] = useState<ErrorTrackingClientKey | null>(null);
  const on = Boolean(setting.data?.active && setting.data.integrated);
  const createKey = () => create.mutate(undefined, { onSuccess: (k) => notifySuccess('Key created', `Applications can report with the DSN of ${shortKey(k)}.`) });

  const columns = useMemo(
    () => [
      col.accessor('sentry_dsn', {
        header: 'DSN',
        cell: (i) => (
          <Stack gap={4}>
            <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="dsn">
              {i.getValue()}
            </Code>
            {!i.row.original.active && (
              <Text size="xs" c="orange.9">
                Inactive: events sent with it are refused.
              </Text>
            )}
          </Stack>
        ),
      }),
      col.display({
        id: 'actions',
        header: () => <span className="gh-visually-hidden">Actions</span>,
        cell: ({ row }) => {
          const k = row.original;
          return (
            <Group gap={6} wrap="nowrap" justify="flex-end">
              <CopyButton value={k.sentry_dsn}>
                {({ copied, copy }) => (
                  <Button size="compact-sm" variant={copied ? 'light' : 'default'} color={copied ? 'teal' : undefined} onClick={copy} aria-label={`Copy the DSN of key ${shortKey(k)}`}>
                    {copied ? 'Copied' : 'Copy'}
                  </Button>
                )}
              </CopyButton>
              <Button size="compact-sm" variant="light" color="red" onClick={() => setRevoking(k)} aria-label={`Revoke key ${shortKey(k)}`}>
                Revoke
              </Button>
            </Group>
          );
        },
      }),
    ],
    [],
  );
  const items = keys.data?.items ?? [];
  const example = items[0]?.sentry_dsn ?? '<DSN>';

  return (
    <Stack gap="lg">
      <Button component={Link} to={errorTrackingHref(project.path_with_namespace)} variant="subtle" leftSection={<IconArrowLeft size={16} />} px={0} w="fit-content">
        Errors
      </Button>
      <div>
        <Title order={2} size="h3">
          Error tracking settings
        </Title>
        <Text c="dimmed" size="sm" maw={680}>
          Applications instrumented with a Sentry SDK report their errors to {project.name_with_namespace} when they are configured with one of its DSNs below.
        </Text>
      </div>
      <Paper withBorder p="md" radius="md">
        <QueryContent query={setting} what="the error tracking setting">
          {() => (
            <Stack gap="xs">
              <Switch
                checked={on}
                disabled={save.isPending}
                onChange={(e) => {
                  const next = e.currentTarget.checked;
                  save.mutate(next, { onSuccess: () => notifySuccess(next ? 'Error tracking is on' : 'Error tracking is off', next ? 'Errors sent with an active key are recorded.' : 'Errors sent from now on are refused; those recorded stay.') });
                }}
                label="Integrated error tracking"
                description={on ? 'On: errors sent with an active key are recorded.' : 'Off: the collector refuses every error sent to this project.'}
                size="md"
              />
              {setting.data?.active && !setting.data.integrated && (
                <Alert color="orange" variant="light" icon={<IconAlert size={16} />} p="sm">
                  Error tracking is set to an external Sentry through the API; Gatehouse records nothing while it is. Turning integrated tracking on records errors here.
                </Alert>
              )}
            </Stack>
          )}
        </QueryContent>
      </Paper>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-end">
          <div>
            <Title order={3} size="h4">
              Client keys
            </Title>
            <Text c="dimmed" size="sm" maw={640}>
              Each key is a DSN an SDK reports with. To rotate one, create a new key, move the applications to it, then revoke the old one.
            </Text>
          </div>
          <Button leftSection={<IconPlus size={16} />} onClick={createKey} loading={create.isPending}>
            Create key
          </Button>
        </Group>
        {!on && items.length > 0 && (
          <Text size="sm" c="orange.9">
            Error tracking is off: events sent with these keys are refused until it is turned on.
          </Text>
        )}
        <QueryContent
          query={keys}
          what="client keys"
          empty={(data) =>
            data.items.length === 0 && (
              <EmptyState title="No client keys" action={<Button leftSection={<IconPlus size={16} />} onClick={createKey} loading={create.isPending}>Create key</Button>}>
                Create a key to get a DSN to configure an application’s Sentry SDK with.
              </EmptyState>
            )
          }
        >
          {(data) => <DataTable label="Client keys" items={data.items} columns={columns} getRowId={(k) => String(k.id)} busy={keys.isFetching && keys.isPlaceholderData} minWidth={560} />}
        </QueryContent>
        <TablePager info={keys.data?.page} shown={items.length} what={(n) => (n === 1 ? 'key' : 'keys')} onPage={list.setPage} />
      </Stack>
      {items.length > 0 && (
        <Stack gap={4}>
          <Text size="sm" fw={500} id="sdk-example-label">
            For example, in a Node application
          </Text>
          <Code block role="region" aria-labelledby="sdk-example-label" tabIndex={0} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {`import * as Sentry from '@sentry/node';\n\nSentry.init({ dsn: '${example}' });`}
          </Code>
        </Stack>
      )}
      <ConfirmDialog
        opened={revoking !== null}
        title={revoking ? `Revoke key ${shortKey(revoking)}?` : ''}
        confirmLabel="Revoke key"
        loading={revoke.isPending}
        onConfirm={() =>
          revoking &&
          revoke.mutate(revoking.id, {
            onSuccess: () => {
              notifySuccess('Key revoked', `Errors sent with ${shortKey(revoking)} are refused from now on.`);
              setRevoking(null);
            },
          })
        }
        onClose={() => setRevoking(null)}
      >
        Applications configured with this DSN can no longer report errors. The errors they reported stay.
      </ConfirmDialog>
    </Stack>
  );
}
