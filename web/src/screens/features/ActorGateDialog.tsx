import { useEffect } from 'react';
import { Button, Group, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { featureActorGateInput, type ConsoleFeature, type FeatureActorGateInput } from '../../../../shared/src/features.ts';
import { isApiError } from '../../api/client.ts';
import { useSetFeature, type FeatureChange } from '../../api/features.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { sentence } from '../../format.ts';
import { notifySuccess } from '../../components/notify.ts';

const KIND_LABELS = { user: 'User', group: 'Group', project: 'Project' } as const;
const PATH_LABELS = { user: 'Username', group: 'Group full path', project: 'Project full path' } as const;
const PLACEHOLDERS = { user: 'alice', group: 'acme/platform', project: 'acme/platform/web' } as const;

/**
 * A gate for one user, group or project. A flag that is on for everyone can only be turned off
 * for someone (an opt-out); one that is not, only turned on for someone. An opt-out of a flag
 * that is on by its default first sets it on for everyone: once a flag is set, its default no
 * longer applies, and an opt-out alone would leave it off for everyone else (as on the platform).
 */
export function ActorGateDialog({ flag, opened, onClose }: { flag: ConsoleFeature; opened: boolean; onClose: () => void }) {
  const turningOff = flag.on_for_everyone;
  const kinds = flag.read_for;
  const errorTitle = 'The gate was not added';
  const set = useSetFeature({ meta: { errorTitle, showsError: (e) => e.status === 400 } });
  const defaults: FeatureActorGateInput = { kind: kinds[0] ?? 'user', path: '' };
  const form = useForm<FeatureActorGateInput>({ resolver: zodResolver(featureActorGateInput), defaultValues: defaults, mode: 'onSubmit', reValidateMode: 'onChange' });
  useEffect(() => {
    if (opened) form.reset({ kind: kinds[0] ?? 'user', path: '' });
  }, [opened, kinds, form]);
  const kind = useWatch({ control: form.control, name: 'kind' });
  // The server's message names the path as it was typed: not made a sentence.
  const pathError = form.formState.errors.path;

  const onValid = async ({ kind, path }: FeatureActorGateInput) => {
    const changes: FeatureChange[] = [];
    if (turningOff && !flag.persisted) changes.push({ value: 'true' });
    changes.push({ value: turningOff ? 'opt_out' : 'true', [kind]: path });
    try {
      await set.mutateAsync({ name: flag.name, changes });
      notifySuccess('Gate added', `${flag.name} is ${turningOff ? 'off' : 'on'} for ${kind === 'user' ? `@${path}` : path} now.`);
      onClose();
    } catch (e) {
      // The platform's 400 names the actor it could not find, or the rule the gate breaks.
      if (isApiError(e) && e.status === 400) form.setError('path', { type: 'server', message: e.message.replace(/^400 Bad request - /, '') }, { shouldFocus: true });
    }
  };

  const title = `Turn ${flag.name} ${turningOff ? 'off' : 'on'} for…`;
  return (
    <Dialog opened={opened} onClose={onClose} dirty={form.formState.isDirty} busy={set.isPending} title={title} size="lg">
      <form onSubmit={form.handleSubmit(onValid)} noValidate aria-label={title}>
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            {turningOff
              ? `It is on for everyone${flag.persisted ? '' : ' (its default)'}. It will be off for the ${kinds.length > 1 ? 'user, group or project' : KIND_LABELS[kinds[0]!].toLowerCase()} you name, and stay on for everyone else.`
              : `It will be on for the ${kinds.length > 1 ? 'user, group or project' : KIND_LABELS[kinds[0]!].toLowerCase()} you name, and stay as it is for everyone else.`}
          </Text>
          <Controller
            control={form.control}
            name="kind"
            render={({ field }) => (
              <NativeSelect
                label="Whom"
                data={kinds.map((k) => ({ value: k, label: KIND_LABELS[k] }))}
                value={field.value}
                onChange={(e) => field.onChange(e.currentTarget.value)}
                onBlur={field.onBlur}
                disabled={kinds.length < 2}
                w={220}
              />
            )}
          />
          <TextInput label={PATH_LABELS[kind]} placeholder={PLACEHOLDERS[kind]} withAsterisk data-autofocus error={pathError?.type === 'server' ? pathError.message : sentence(pathError?.message)} {...form.register('path')} />
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onClose} disabled={set.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={set.isPending}>
              {turningOff ? 'Turn off for them' : 'Turn on for them'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Dialog>
  );
}
