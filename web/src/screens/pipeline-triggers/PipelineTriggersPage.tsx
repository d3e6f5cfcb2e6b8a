import { useMemo, useState } from 'react';
import { Alert, Button, Code, CopyButton, Group, Modal, Stack, Text, TextInput, Title } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { pipelineTriggerCreateBody, type PipelineTrigger } from '../../../../shared/src/pipeline-triggers.ts';
import type { ProjectSummary } from '../../../../shared/src/projects.ts';
import { fetchTriggerToken, useCreatePipelineTrigger, usePipelineTriggers, useRevokePipelineTrigger, useUpdatePipelineTrigger } from '../../api/pipeline-triggers.ts';
import { useCurrentUser } from '../../api/session.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { DataTable, TablePager } from '../../components/DataTable.tsx';
import { Dialog } from '../../components/Dialog.tsx';
import { formatDate, fromNow, sentence } from '../../format.ts';
import { IconAlert, IconPlus } from '../../components/icons.tsx';
import { useListParams } from '../../components/list-params.ts';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { RequireAbility, RoleForbidden } from '../../components/ResourcePage.tsx';
import { formShowsFieldErrors, showServerFieldErrors } from '../../components/server-errors.ts';
import { EmptyState, QueryContent } from '../../components/states.tsx';
import { useProjectContext } from '../projects/project-context.ts';

const FORBIDDEN_TITLE = 'You need the Maintainer role to manage pipeline trigger tokens';
const FORBIDDEN_HINT = 'Trigger tokens start pipelines of the project from scripts; Maintainers and Owners manage them.';

/** The `curl` a CI script runs to trigger a pipeline with this token. */
export function curlExample(project: Pick<ProjectSummary, 'id' | 'web_url' | 'default_branch'>, token: string): string {
  const origin = new URL(project.web_url).origin;
  return [
    'curl --request POST \\',
    `  --form token=${token} \\`,
    `  --form ref=${project.default_branch ?? 'main'} \\`,
    '  --form "variables[DEPLOY_ENV]=staging" \\',
    `  "${origin}/api/v4/projects/${project.id}/trigger/pipeline"`,
  ].join('\n');
}

/** /projects/<path>/-/pipeline_triggers: tokens that let scripts start pipelines. */
export default function PipelineTriggersPage() {
  const { project } = useProjectContext();
  return (
    <RequireAbility action="admin_pipeline_triggers" title={FORBIDDEN_TITLE} hint={FORBIDDEN_HINT}>
      <PipelineTriggers key={project.id} project={project} />
    </RequireAbility>
  );
}

const col = createColumnHelper<PipelineTrigger>();

function PipelineTriggers({ project }: { project: ProjectSummary }) {
  const me = useCurrentUser();
  const list = useListParams();
  const triggers = usePipelineTriggers(project.id, { page: list.page });
  const [creating, setCreating] = useState(false);
  const [shown, setShown] = useState<PipelineTrigger | null>(null);
  const [editing, setEditing] = useState<PipelineTrigger | null>(null);
  const [revoking, setRevoking] = useState<PipelineTrigger | null>(null);
  const revoke = useRevokePipelineTrigger(project.id, { meta: { errorTitle: 'The trigger token was not revoked' } });
  const copyWhole = async (t: PipelineTrigger) => {
    try {
      await navigator.clipboard.writeText(await fetchTriggerToken(project.id, t.id));
      notifySuccess('Token copied', `The whole token of “${t.description}” is on the clipboard.`);
    } catch (e) {
      notifyError('The token was not copied', e);
    }
  };
  const columns = useMemo(
    () => [
      col.accessor('description', { header: 'Description', cell: (i) => <Text size="sm" fw={600}>{i.getValue()}</Text> }),
      col.accessor('token', {
        header: 'Token',
        cell: (i) => (
          <Text size="sm" ff="monospace">
            {i.getValue()}…
          </Text>
        ),
      }),
      col.accessor((t) => t.owner?.name ?? '', { id: 'owner', header: 'Owner', cell: (i) => i.getValue() || '—', meta: { hideNarrow: true } }),
      col.accessor('last_used', { header: 'Last used', cell: (i) => (i.getValue() ? <span title={i.getValue()!}>{fromNow(i.getValue()!)}</span> : 'Never') }),
      col.accessor('created_at', { header: 'Created', cell: (i) => formatDate(i.getValue()), meta: { hideNarrow: true } }),
      col.display({
        id: 'actions',
        header: () => <span className="gh-visually-hidden">Actions</span>,
        cell: ({ row }) => {
          const t = row.original;
          return (
            <Group gap={6} wrap="nowrap" justify="flex-end">
              {t.owner?.id === me.id && (
                <Button size="compact-sm" variant="default" onClick={() => void copyWhole(t)} aria-label={`Copy the token of ${t.description}`}>
                  Copy
                </Button>
              )}
              <Button size="compact-sm" variant="default" onClick={() => setEditing(t)} aria-label={`Edit ${t.description}`}>
                Edit
              </Button>
              <Button size="compact-sm" variant="light" color="red" onClick={() => setRevoking(t)} aria-label={`Revoke ${t.description}`}>
                Revoke
              </Button>
            </Group>
          );
        },
      }),
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps -- copyWhole reads the project and user only
    [project.id, me.id],
  );

  const items = triggers.data?.items ?? [];
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={2} size="h3">
            Pipeline trigger tokens
          </Title>
          <Text c="dimmed" size="sm" maw={640}>
            Each token starts pipelines as its owner. Others see the first four characters; its owner may copy it whole.
          </Text>
        </div>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
          Create trigger token
        </Button>
      </Group>
      <QueryContent
        query={triggers}
        what="trigger tokens"
        forbidden={<RoleForbidden title={FORBIDDEN_TITLE} hint={FORBIDDEN_HINT} />}
        empty={(data) =>
          data.items.length === 0 && (
            <EmptyState title="No pipeline trigger tokens" action={<Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>Create trigger token</Button>}>
              A trigger token lets a script or another CI system start a pipeline of {project.name_with_namespace} on a branch or tag, with variables.
            </EmptyState>
          )
        }
      >
        {(data) => <DataTable label="Pipeline trigger tokens" items={data.items} columns={columns} getRowId={(t) => String(t.id)} busy={triggers.isFetching} />}
      </QueryContent>
      <TablePager info={triggers.data?.page} shown={items.length} what={(n) => (n === 1 ? 'trigger token' : 'trigger tokens')} onPage={list.setPage} />
      <DescriptionDialog project={project} trigger={editing} opened={creating || editing !== null} onClose={() => (setCreating(false), setEditing(null))} onCreated={setShown} />
      <TriggerReveal project={project} trigger={shown} onClose={() => setShown(null)} />
      <ConfirmDialog
        opened={revoking !== null}
        title={revoking ? `Revoke “${revoking.description}”?` : ''}
        confirmLabel="Revoke trigger token"
        loading={revoke.isPending}
        onConfirm={() =>
          revoking &&
          revoke.mutate(revoking.id, {
            onSuccess: () => {
              notifySuccess('Trigger token revoked', `“${revoking.description}” no longer starts pipelines.`);
              setRevoking(null);
            },
          })
        }
        onClose={() => setRevoking(null)}
      >
        Scripts that trigger pipelines with this token get 404 from now on. Pipelines it started stay.
      </ConfirmDialog>
    </Stack>
  );
}

type Input = z.input<typeof pipelineTriggerCreateBody>;
type Body = z.output<typeof pipelineTriggerCreateBody>;

/** Creates a token (a description is all it takes) or changes an existing token's description. */
function DescriptionDialog({
  project,
  trigger,
  opened,
  onClose,
  onCreated,
}: {
  project: ProjectSummary;
  trigger: PipelineTrigger | null;
  opened: boolean;
  onClose: () => void;
  onCreated: (t: PipelineTrigger) => void;
}) {
  const what = trigger ? 'The trigger token was not saved' : 'The trigger token was not created';
  const create = useCreatePipelineTrigger(project.id, { meta: { errorTitle: what, showsError: formShowsFieldErrors } });
  const update = useUpdatePipelineTrigger(project.id, { meta: { errorTitle: what, showsError: formShowsFieldErrors } });
  const form = useForm<Input, unknown, Body>({ resolver: zodResolver(pipelineTriggerCreateBody), values: { description: trigger?.description ?? '' } });
  const busy = create.isPending || update.isPending;
  const close = () => {
    form.reset({ description: '' });
    create.reset();
    onClose();
  };
  const onValid = async (body: Body) => {
    try {
      if (trigger) {
        await update.mutateAsync({ id: trigger.id, description: body.description });
        notifySuccess('Trigger token saved', `Its description is now “${body.description}”.`);
        close();
      } else {
        const created = await create.mutateAsync(body.description);
        create.reset();
        close();
        onCreated(created);
      }
    } catch (e) {
      showServerFieldErrors(form.setError, e, { fieldOf: (p) => (p.split('.')[0] === 'description' ? 'description' : null), title: what });
    }
  };
  return (
    <Dialog opened={opened} onClose={close} busy={busy} dirty={form.formState.isDirty} title={trigger ? 'Edit trigger token' : 'Create a pipeline trigger token'}>
      <form onSubmit={form.handleSubmit(onValid)} noValidate aria-label={trigger ? 'Edit trigger token' : 'New trigger token'}>
        <Stack gap="md">
          <TextInput
            label="Description"
            description="Say what uses it, for example “Nightly deploy from Jenkins”."
            withAsterisk
            data-autofocus
            autoComplete="off"
            error={sentence(form.formState.errors.description?.message)}
            {...form.register('description')}
          />
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={close} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              {trigger ? 'Save' : 'Create trigger token'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Dialog>
  );
}

/** The new token, whole, with the `curl` a script runs to use it. */
function TriggerReveal({ project, trigger, onClose }: { project: ProjectSummary; trigger: PipelineTrigger | null; onClose: () => void }) {
  const curl = trigger ? curlExample(project, trigger.token) : '';
  return (
    <Modal opened={trigger !== null} onClose={onClose} title="Trigger token created" size="xl" closeOnClickOutside={false}>
      {trigger && (
        <Stack gap="md">
          <Alert color="orange" variant="light" icon={<IconAlert />} title="Keep it secret">
            Anyone with this token can start pipelines of {project.name_with_namespace} as you. Store it in the calling system’s secrets.
          </Alert>
          <Group align="flex-end" wrap="nowrap">
            <TextInput label={`Token “${trigger.description}”`} value={trigger.token} readOnly data-autofocus style={{ flex: 1 }} styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }} />
            <CopyButton value={trigger.token}>{({ copied, copy }) => <Button onClick={copy}>{copied ? 'Copied' : 'Copy'}</Button>}</CopyButton>
          </Group>
          <div>
            <Group justify="space-between" align="flex-end" mb={4}>
              <Text size="sm" fw={500} id="curl-example-label">
                Trigger a pipeline with curl
              </Text>
              <CopyButton value={curl}>
                {({ copied, copy }) => (
                  <Button size="compact-sm" variant="default" onClick={copy}>
                    {copied ? 'Copied' : 'Copy command'}
                  </Button>
                )}
              </CopyButton>
            </Group>
            <Code block role="region" aria-labelledby="curl-example-label" tabIndex={0}>
              {curl}
            </Code>
          </div>
          <Group justify="flex-end">
            <Button onClick={onClose}>Done</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
