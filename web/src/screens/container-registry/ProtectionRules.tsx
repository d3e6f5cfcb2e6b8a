import { useMemo, useState } from 'react';
import { Alert, Button, Code, Group, NativeSelect, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { useForm } from 'react-hook-form';
import type { ProtectionLevelName, RegistryProtectionRule } from '../../../../shared/src/container-registry-protection.ts';
import type { ProjectSummary } from '../../../../shared/src/projects.ts';
import { isApiError } from '../../api/client.ts';
import { useDeleteProtectionRule, useProtectionRules, useSaveProtectionRule } from '../../api/container-registry.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { DataTable } from '../../components/DataTable.tsx';
import { Dialog } from '../../components/Dialog.tsx';
import { IconPlus } from '../../components/icons.tsx';
import { notifySuccess } from '../../components/notify.ts';
import { RoleForbidden } from '../../components/ResourcePage.tsx';
import { showInDialog } from '../../components/dialog-errors.ts';
import { formShowsFieldErrors } from '../../components/server-errors.ts';
import { EmptyState, QueryContent } from '../../components/states.tsx';
import { sentence } from '../../format.ts';
import {
  CHECK_ROLES,
  LEVEL_LABELS,
  checkRoleOf,
  levelReach,
  pushVerdict,
  ruleFieldErrors,
  ruleFieldOf,
  ruleFormValues,
  ruleResolver,
  updateBodyOf,
  type RuleFormBody,
  type RuleFormValues,
} from './registry-model.ts';

const FORBIDDEN_TITLE = 'You need the Maintainer role to manage protection rules';
const FORBIDDEN_HINT = 'Maintainers and Owners decide which image paths only they may push to or delete from.';

const col = createColumnHelper<RegistryProtectionRule>();

/** A rule's least role for an action, or that it says nothing of it. */
const levelCell = (level: RegistryProtectionRule['minimum_access_level_for_push']) =>
  level ? (
    <Text size="sm">{levelReach(level)}</Text>
  ) : (
    <Text size="sm" c="dimmed">
      Not restricted
    </Text>
  );

/** The Maintainers' part of the screen: the rules, their dialogs, and the live check. */
export function ProtectionRules({ project }: { project: ProjectSummary }) {
  const rules = useProtectionRules(project.id);
  const [editing, setEditing] = useState<RegistryProtectionRule | null>(null);
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<RegistryProtectionRule | null>(null);
  const remove = useDeleteProtectionRule(project.id, { meta: { errorTitle: 'The rule was not deleted' } });
  const columns = useMemo(
    () => [
      col.accessor('repository_path_pattern', {
        header: 'Path pattern',
        cell: (i) => (
          <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
            {i.getValue()}
          </Text>
        ),
      }),
      col.accessor('minimum_access_level_for_push', { header: 'Who may push', cell: (i) => levelCell(i.getValue()) }),
      col.accessor('minimum_access_level_for_delete', { header: 'Who may delete', cell: (i) => levelCell(i.getValue()) }),
      col.display({
        id: 'actions',
        header: () => <span className="gh-visually-hidden">Actions</span>,
        cell: ({ row }) => {
          const r = row.original;
          return (
            <Group gap={6} wrap="nowrap" justify="flex-end">
              <Button size="compact-sm" variant="default" onClick={() => setEditing(r)} aria-label={`Edit the rule ${r.repository_path_pattern}`}>
                Edit
              </Button>
              <Button size="compact-sm" variant="light" color="red" onClick={() => setDeleting(r)} aria-label={`Delete the rule ${r.repository_path_pattern}`}>
                Delete
              </Button>
            </Group>
          );
        },
      }),
    ],
    [],
  );
  const addButton = (
    <Button leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
      Add rule
    </Button>
  );
  return (
    <Stack gap="sm" component="section" aria-labelledby="protection-rules-title">
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={3} size="h4" id="protection-rules-title">
            Protection rules
          </Title>
          <Text c="dimmed" size="sm" maw={680}>
            A rule lets only the roles it names push to, or delete from, the image paths its pattern matches (<Code>*</Code> any characters, case aside). Administrators are never
            stopped.
          </Text>
        </div>
        {(rules.data?.length ?? 0) > 0 && addButton}
      </Group>
      <QueryContent
        query={rules}
        what="protection rules"
        forbidden={<RoleForbidden title={FORBIDDEN_TITLE} hint={FORBIDDEN_HINT} />}
        empty={(data) =>
          data.length === 0 && (
            <EmptyState title="No protection rules" action={addButton}>
              Every Developer may push to any path of {project.name_with_namespace}, and every Maintainer may delete.
            </EmptyState>
          )
        }
      >
        {(data) => <DataTable label="Protection rules" items={data} columns={columns} getRowId={(r) => String(r.id)} busy={rules.isFetching} />}
      </QueryContent>
      {rules.data && <PushCheck project={project} rules={rules.data} />}
      <RuleDialog project={project} rule={editing} opened={adding || editing !== null} onClose={() => (setAdding(false), setEditing(null))} />
      <ConfirmDialog
        opened={deleting !== null}
        title={deleting ? `Delete the rule ${deleting.repository_path_pattern}?` : ''}
        confirmLabel="Delete rule"
        loading={remove.isPending}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => {
              notifySuccess('Rule deleted', `Paths matching ${deleting.repository_path_pattern} follow the usual roles again, unless another rule matches them.`);
              setDeleting(null);
            },
          })
        }
        onClose={() => setDeleting(null)}
      >
        Developers may push to the paths it matched, and Maintainers delete there, unless another rule says otherwise.
      </ConfirmDialog>
    </Stack>
  );
}

/** "Would a <role>'s push to <path> be allowed?", worked out in the browser from the saved rules. */
function PushCheck({ project, rules }: { project: ProjectSummary; rules: RegistryProtectionRule[] }) {
  const [role, setRole] = useState('30');
  const [path, setPath] = useState(`${project.path_with_namespace.toLowerCase()}/app`);
  const verdict = pushVerdict(rules, project.path_with_namespace, path, checkRoleOf(role));
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="push-check-title">
      <Stack gap="sm">
        <Title order={4} size="h5" id="push-check-title">
          Would this push be allowed?
        </Title>
        <Group align="flex-end" gap="sm" wrap="wrap">
          <NativeSelect label="Role" data={CHECK_ROLES} value={role} onChange={(e) => setRole(e.currentTarget.value)} w={170} />
          <TextInput
            label="Image path"
            value={path}
            onChange={(e) => setPath(e.currentTarget.value)}
            style={{ flex: 1, minWidth: 260 }}
            autoComplete="off"
            spellCheck={false}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          />
        </Group>
        <Alert color={verdict.allowed ? 'teal' : 'red'} variant="light" role="status" aria-live="polite" data-testid="push-verdict">
          {verdict.why}
        </Alert>
      </Stack>
    </Paper>
  );
}

/** A level's choices; '' is no rule for the action (the role's usual reach, `otherwise`). */
const LEVEL_OPTIONS = (otherwise: string) => [{ value: '', label: `No rule: ${otherwise}` }, ...(Object.keys(LEVEL_LABELS) as ProtectionLevelName[]).map((value) => ({ value, label: levelReach(value) }))];

/** Adds a rule, or edits `rule`: the shared schema checks it first, the server's 400 and 422 land under the fields they name. */
function RuleDialog({ project, rule, opened, onClose }: { project: ProjectSummary; rule: RegistryProtectionRule | null; opened: boolean; onClose: () => void }) {
  const what = rule ? 'The rule was not saved' : 'The rule was not added';
  const save = useSaveProtectionRule(project.id, { meta: { errorTitle: what, showsError: formShowsFieldErrors } });
  const form = useForm<RuleFormValues, unknown, RuleFormBody>({ resolver: ruleResolver, values: ruleFormValues(rule, project.path_with_namespace) });
  const close = () => {
    form.reset();
    save.reset();
    onClose();
  };
  const onValid = async (body: RuleFormBody) => {
    try {
      const saved = await save.mutateAsync(rule ? { id: rule.id, body: updateBodyOf(body) } : { id: null, body });
      notifySuccess(rule ? 'Rule saved' : 'Rule added', `${saved.repository_path_pattern} is protected.`);
      close();
    } catch (e) {
      if (!isApiError(e) || !e.fieldErrors) return;
      // Under the fields they name (focus on the first); what no field shows, at the dialog's top.
      const rest: string[] = [];
      let first = true;
      for (const [path, messages] of Object.entries(ruleFieldErrors(e.fieldErrors))) {
        const field = ruleFieldOf(path);
        if (!field) rest.push(...messages);
        else {
          form.setError(field, { type: 'server', message: messages.join(' ') }, { shouldFocus: first });
          first = false;
        }
      }
      if (rest.length) showInDialog({ title: what, message: rest.join(' ') });
    }
  };
  const error = (name: keyof RuleFormValues) => sentence(form.formState.errors[name]?.message);
  const asLevel = { setValueAs: (v: string) => (v === '' ? undefined : v) };
  return (
    <Dialog opened={opened} onClose={close} busy={save.isPending} dirty={form.formState.isDirty} title={rule ? 'Edit protection rule' : 'Add a protection rule'} size="lg">
      <form onSubmit={form.handleSubmit(onValid)} noValidate aria-label={rule ? 'Edit protection rule' : 'New protection rule'}>
        <Stack gap="md">
          <TextInput
            label="Path pattern"
            description={`The project’s path first (${project.path_with_namespace.toLowerCase()}), in lower case; * stands for any characters, slashes too.`}
            withAsterisk
            data-autofocus
            autoComplete="off"
            spellCheck={false}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            error={error('repository_path_pattern')}
            {...form.register('repository_path_pattern')}
          />
          <NativeSelect label="Who may push" data={LEVEL_OPTIONS('Developer and up')} error={error('minimum_access_level_for_push')} {...form.register('minimum_access_level_for_push', asLevel)} />
          <NativeSelect label="Who may delete" data={LEVEL_OPTIONS('Maintainer and up')} error={error('minimum_access_level_for_delete')} {...form.register('minimum_access_level_for_delete', asLevel)} />
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={close} disabled={save.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              {rule ? 'Save rule' : 'Add rule'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Dialog>
  );
}
