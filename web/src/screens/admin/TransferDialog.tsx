import { useState } from 'react';
import { Alert, Button, Group, Select, Stack, Text } from '@mantine/core';
import type { ApiError } from '../../api/client.ts';
import { useTransferGroup, useTransferProject, useTransferTargets } from '../../api/admin.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { IconAlert } from '../../components/icons.tsx';
import { notifySuccess } from '../../components/notify.ts';
import { transferRefusal } from './transfer-model.ts';

/** What is being moved: a project (to another group) or a group (under another parent, or to the top level). */
export type TransferSubject = { kind: 'project'; id: number; name: string; fullPath: string } | { kind: 'group'; id: number; name: string; fullPath: string; parentId: number | null };

const TOP_LEVEL = 'top';

/**
 * The admin lists' Transfer: a searchable picker of groups, the move sent as the platform's API,
 * and a refusal told inside the dialog in plain words until the next try.
 */
export function TransferDialog({ subject, onClose }: { subject: TransferSubject | null; onClose: () => void }) {
  const [search, setSearch] = useState('');
  const [target, setTarget] = useState<string | null>(null);
  const targets = useTransferTargets(search);
  const keep = { meta: { showsError: () => true } };
  const project = useTransferProject(keep);
  const group = useTransferGroup(keep);
  const move = subject?.kind === 'group' ? group : project;
  const error = move.error as ApiError | null;

  const close = () => {
    setSearch('');
    setTarget(null);
    project.reset();
    group.reset();
    onClose();
  };
  // A group cannot go under itself or its own subgroups: they are left out of the picker.
  const options = (targets.data?.items ?? [])
    .filter((g) => !subject || subject.kind === 'project' || (g.id !== subject.id && !`${g.full_path}/`.startsWith(`${subject.fullPath}/`)))
    .map((g) => ({ value: String(g.id), label: g.full_path }));
  const data = subject?.kind === 'group' && subject.parentId !== null ? [{ value: TOP_LEVEL, label: 'No parent: make it a top-level group' }, ...options] : options;

  const submit = () => {
    if (!subject || !target) return;
    const done = (to: string) => {
      notifySuccess(subject.kind === 'project' ? 'Project transferred' : 'Group transferred', `${subject.fullPath} is now ${to}.`);
      close();
    };
    if (subject.kind === 'project') project.mutate({ id: subject.id, namespace: target }, { onSuccess: (p) => done(p.path_with_namespace) });
    else group.mutate({ id: subject.id, parentId: target === TOP_LEVEL ? null : Number(target) }, { onSuccess: (g) => done(g.full_path) });
  };

  return (
    <Dialog opened={subject !== null} onClose={close} busy={move.isPending} dirty={target !== null} title={subject ? `Transfer ${subject.fullPath}` : ''} size="lg">
      <Stack gap="md">
        {error && (
          <Alert role="alert" color="red" variant="light" icon={<IconAlert />} title={`${subject?.kind === 'group' ? 'The group' : 'The project'} was not transferred`}>
            {transferRefusal(error)}
          </Alert>
        )}
        <Text size="sm">
          {subject?.kind === 'group'
            ? 'The group moves with its subgroups and projects; their addresses change to the new parent’s. Clones must use the new addresses.'
            : 'The project moves with its repository, issues and merge requests; its address changes to the new group’s. Clones must use the new address.'}
        </Text>
        <Select
          label={subject?.kind === 'group' ? 'New parent group' : 'New group'}
          placeholder="Search groups by name or path"
          searchable
          searchValue={search}
          onSearchChange={setSearch}
          data={data}
          value={target}
          onChange={setTarget}
          nothingFoundMessage={targets.isFetching ? 'Searching…' : 'No group matches'}
          data-autofocus
          // A short list without its own scroll region (axe: a scroll region needs keyboard access); typing narrows it.
          limit={8}
          withScrollArea={false}
          comboboxProps={{ withinPortal: true }}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={close} disabled={move.isPending}>
            Cancel
          </Button>
          <Button onClick={submit} loading={move.isPending} disabled={!target}>
            Transfer
          </Button>
        </Group>
      </Stack>
    </Dialog>
  );
}
