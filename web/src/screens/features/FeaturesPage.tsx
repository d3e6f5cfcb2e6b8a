import { useMemo, useState } from 'react';
import { ActionIcon, Button, Code, Group, Stack, Switch, Text, Title } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import type { ConsoleFeature, FeatureActor } from '../../../../shared/src/features.ts';
import { useFeatureFlags, useResetFeature, useSetFeature, type FeatureChange } from '../../api/features.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { DataTable } from '../../components/DataTable.tsx';
import { IconX } from '../../components/icons.tsx';
import { notifySuccess } from '../../components/notify.ts';
import { EmptyState, QueryContent } from '../../components/states.tsx';
import { formatPercent } from '../../format.ts';
import { AdminForbidden } from '../admin/admin-states.tsx';
import { ActorGateDialog } from './ActorGateDialog.tsx';

const READ_FOR = { user: 'users', group: 'groups', project: 'projects' } as const;
const onOff = (on: boolean) => (on ? 'On' : 'Off');

/** The gates that turning a flag on or off for everyone removes, in words ("2 gates for users, groups or projects and a percentage"), or null. */
function clearedGates(f: ConsoleFeature): string | null {
  const parts = [
    f.actors.length ? `${f.actors.length} ${f.actors.length === 1 ? 'gate' : 'gates'} for users, groups or projects` : null,
    f.percentage_of_time || f.percentage_of_actors ? 'its percentage' : null,
  ].filter(Boolean);
  return parts.length ? parts.join(' and ') : null;
}

/** What an actor gate is called on screen: `@alice`, `acme/web`, or the record's id when it is gone. */
const actorName = (a: FeatureActor) => a.label ?? `${a.flipper_id.replace(/:opt_out$/, '').replace(':', ' ')} (deleted)`;

/** The change that takes an actor's gate away: the gate off for them, or their opt-out removed. */
function removal(a: FeatureActor): FeatureChange | null {
  if (a.label === null || a.kind === 'other') return null;
  const path = a.kind === 'user' ? a.label.replace(/^@/, '') : a.label;
  return { value: a.opt_out ? 'remove_opt_out' : 'false', [a.kind]: path };
}

type Pending = { kind: 'everyone'; flag: ConsoleFeature; on: boolean; cleared: string } | { kind: 'reset'; flag: ConsoleFeature } | null;

const col = createColumnHelper<ConsoleFeature>();

/**
 * /admin/features: every feature flag Gatehouse reads, with what it does, its default (from its
 * definition or an environment variable), its state, a switch for everyone, and its gates for
 * users, groups and projects (added, removed); any flag set without a definition is listed
 * after them. Changes go through the platform's Features API and apply at once on every instance.
 */
export default function FeaturesPage() {
  const flags = useFeatureFlags();
  const set = useSetFeature({ meta: { errorTitle: 'The flag was not changed', forbidden: 'Only administrators can change feature flags.' } });
  const reset = useResetFeature({ meta: { errorTitle: 'The flag was not reset', forbidden: 'Only administrators can change feature flags.' } });
  const [pending, setPending] = useState<Pending>(null);
  const [adding, setAdding] = useState<ConsoleFeature | null>(null);

  const setForEveryone = (flag: ConsoleFeature, on: boolean) =>
    set.mutate({ name: flag.name, changes: [{ value: on ? 'true' : 'false' }] }, { onSuccess: () => notifySuccess(`${flag.name} is ${on ? 'on' : 'off'} for everyone`, 'Every instance uses it now.') });
  const onSwitch = (flag: ConsoleFeature, on: boolean) => {
    const cleared = clearedGates(flag);
    if (cleared) setPending({ kind: 'everyone', flag, on, cleared });
    else setForEveryone(flag, on);
  };
  const removeGate = (flag: ConsoleFeature, a: FeatureActor, change: FeatureChange) =>
    set.mutate({ name: flag.name, changes: [change] }, { onSuccess: () => notifySuccess('Gate removed', `${flag.name} no longer has a gate for ${actorName(a)}.`) });
  const busy = set.isPending || reset.isPending;

  const columns = useMemo(
    () => [
      col.accessor('name', {
        header: 'Flag',
        cell: ({ row: { original: f } }) => (
          <Stack gap={4}>
            <Code fw={600} w="fit-content">
              {f.name}
            </Code>
            <Text size="sm">{f.description ?? 'Not defined here: Gatehouse reads no flag by this name (it was set with force=true).'}</Text>
            {f.definition && (
              <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {f.read_for.length ? `Read for ${f.read_for.map((k) => READ_FOR[k]).join(', ')}` : 'Read for everyone at once'} · default{' '}
                {onOff(f.definition.default_enabled).toLowerCase()}
                {f.default_from === 'definition' ? '' : ` (${f.default_from})`} · {f.definition.type}
                {f.definition.milestone ? `, platform ${f.definition.milestone}` : ''}
              </Text>
            )}
          </Stack>
        ),
      }),
      col.display({
        id: 'everyone',
        header: 'For everyone',
        meta: { width: 150 },
        cell: ({ row: { original: f } }) => (
          <Stack gap={4} align="flex-start">
            <Switch
              aria-label={`On for everyone: ${f.name}`}
              label={onOff(f.on_for_everyone)}
              checked={f.on_for_everyone}
              disabled={!f.definition || busy}
              onChange={(e) => onSwitch(f, e.currentTarget.checked)}
            />
            <Text size="xs" c="dimmed">
              {!f.persisted ? 'Its default' : f.state === 'conditional' ? 'Set: on for some' : `Set ${onOff(f.state === 'on').toLowerCase()}`}
            </Text>
            {f.percentage_of_time !== null && <Text size="xs">{formatPercent(f.percentage_of_time)} of the time</Text>}
            {f.percentage_of_actors !== null && <Text size="xs">{formatPercent(f.percentage_of_actors)} of actors</Text>}
          </Stack>
        ),
      }),
      col.display({
        id: 'gates',
        header: 'For users, groups and projects',
        meta: { width: 260 },
        cell: ({ row: { original: f } }) => (
          <Stack gap={4} align="flex-start">
            {f.actors.length === 0 && (
              <Text size="xs" c="dimmed">
                {f.read_for.length ? 'No gates' : 'None: read for everyone at once'}
              </Text>
            )}
            {f.actors.map((a) => {
              const change = removal(a);
              return (
                <Group key={a.flipper_id} gap={4} wrap="nowrap" align="flex-start">
                  <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                    <Text span fw={600} c={a.opt_out ? 'var(--mantine-color-orange-text)' : 'var(--mantine-color-teal-text)'}>
                      {a.opt_out ? 'Off' : 'On'}
                    </Text>{' '}
                    for {actorName(a)}
                  </Text>
                  {change && (
                    <ActionIcon variant="subtle" color="gray" size="sm" aria-label={`Remove the gate for ${actorName(a)} from ${f.name}`} disabled={busy} onClick={() => removeGate(f, a, change)}>
                      <IconX size={14} />
                    </ActionIcon>
                  )}
                </Group>
              );
            })}
            {f.definition && f.read_for.length > 0 && (
              <Button size="compact-sm" variant="subtle" px={0} onClick={() => setAdding(f)} aria-label={`Turn ${f.name} ${f.on_for_everyone ? 'off' : 'on'} for a user, group or project`}>
                {f.on_for_everyone ? 'Turn off for…' : 'Turn on for…'}
              </Button>
            )}
          </Stack>
        ),
      }),
      col.display({
        id: 'actions',
        header: () => <span className="gh-visually-hidden">Actions</span>,
        meta: { width: 96 },
        cell: ({ row: { original: f } }) => (
          <Button size="xs" variant="default" disabled={!f.persisted || busy} onClick={() => setPending({ kind: 'reset', flag: f })} aria-label={`${f.definition ? 'Reset' : 'Remove'} ${f.name}`}>
            {f.definition ? 'Reset' : 'Remove'}
          </Button>
        ),
      }),
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the handlers only read the mutations, which keep their identity
    [busy],
  );

  return (
    <Stack gap="lg">
      <div>
        <Title order={2} size="h3">
          Feature flags
        </Title>
        <Text size="sm" c="dimmed" maw={760}>
          Turn features on and off without a restart: for everyone, or for some users, groups and projects. A change applies at once, on every
          instance sharing this database. A flag that was never set (or was reset) has its default; once set, its gates alone decide. Scripts use
          the Features API (<Code>/api/v4/features</Code>) for the same.
        </Text>
      </div>
      <QueryContent
        query={flags}
        what="the feature flags"
        forbidden={<AdminForbidden />}
        empty={(list) => list.length === 0 && <EmptyState title="No feature flags">This instance reads no feature flags, and none was set.</EmptyState>}
      >
        {(list) => <DataTable label="Feature flags" items={list} columns={columns} getRowId={(f) => f.name} busy={flags.isFetching && !flags.isLoading} minWidth={820} />}
      </QueryContent>
      {adding && <ActorGateDialog flag={adding} opened onClose={() => setAdding(null)} />}
      <ConfirmDialog
        opened={pending?.kind === 'everyone'}
        title={pending?.kind === 'everyone' ? `Turn ${pending.flag.name} ${pending.on ? 'on' : 'off'} for everyone?` : ''}
        confirmLabel={pending?.kind === 'everyone' && pending.on ? 'Turn on for everyone' : 'Turn off for everyone'}
        color="blue"
        loading={set.isPending}
        onClose={() => setPending(null)}
        onConfirm={() => {
          if (pending?.kind !== 'everyone') return;
          set.mutate({ name: pending.flag.name, changes: [{ value: pending.on ? 'true' : 'false' }] }, { onSettled: () => setPending(null), onSuccess: () => notifySuccess(`${pending.flag.name} is ${pending.on ? 'on' : 'off'} for everyone`, 'Its other gates were removed.') });
        }}
      >
        {pending?.kind === 'everyone' && <>This also removes {pending.cleared}, as the platform does: a flag on or off for everyone has no other gates.</>}
      </ConfirmDialog>
      <ConfirmDialog
        opened={pending?.kind === 'reset'}
        title={pending?.kind === 'reset' ? `${pending.flag.definition ? 'Reset' : 'Remove'} ${pending.flag.name}?` : ''}
        confirmLabel={pending?.kind === 'reset' && pending.flag.definition ? 'Reset to default' : 'Remove flag'}
        loading={reset.isPending}
        onClose={() => setPending(null)}
        onConfirm={() => {
          if (pending?.kind !== 'reset') return;
          const { flag } = pending;
          reset.mutate(flag.name, { onSettled: () => setPending(null), onSuccess: () => notifySuccess(flag.definition ? 'Flag reset' : 'Flag removed', `${flag.name} ${flag.definition ? `has its default again (${onOff(flag.definition.default_enabled).toLowerCase()})` : 'is gone'}.`) });
        }}
      >
        {pending?.kind === 'reset' &&
          (pending.flag.definition ? (
            <>
              Its gates go, and it is {onOff(pending.flag.definition.default_enabled).toLowerCase()} for everyone again, as its default says
              {pending.flag.default_from === 'definition' ? '' : ` (${pending.flag.default_from})`}.
            </>
          ) : (
            <>Gatehouse reads no flag by this name: removing it changes nothing else.</>
          ))}
      </ConfirmDialog>
    </Stack>
  );
}
