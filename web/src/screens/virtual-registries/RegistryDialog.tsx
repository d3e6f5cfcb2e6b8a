import { useEffect } from 'react';
import { Button, Group, Stack, TextInput, Textarea } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { virtualRegistryCreateBody, type VirtualRegistry } from '../../../../shared/src/virtual-registries.ts';
import { isApiError } from '../../api/client.ts';
import { useSaveRegistry } from '../../api/virtual-registries.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { showInDialog } from '../../components/dialog-errors.ts';
import { notifySuccess } from '../../components/notify.ts';
import { formShowsFieldErrors } from '../../components/server-errors.ts';
import { sentence } from '../../format.ts';
import type { RegistryFormValues } from './registry-model.ts';

type Parsed = z.output<typeof virtualRegistryCreateBody>;
const FIELDS = ['name', 'description'] as const;
const valuesOf = (r: VirtualRegistry | null): RegistryFormValues => ({ name: r?.name ?? '', description: r?.description ?? '' });

/** Creates a registry in the group, or renames one: name and description, checked with the shared body schema. */
export function RegistryDialog({
  groupId,
  registry,
  opened,
  onClose,
  onCreated,
}: {
  groupId: number;
  registry: VirtualRegistry | null;
  opened: boolean;
  onClose: () => void;
  onCreated?: (r: VirtualRegistry) => void;
}) {
  const editing = registry !== null;
  const errorTitle = editing ? 'The registry was not saved' : 'The registry was not created';
  const save = useSaveRegistry(groupId, { meta: { errorTitle, showsError: formShowsFieldErrors } });
  const form = useForm<RegistryFormValues, unknown, Parsed>({ resolver: zodResolver(virtualRegistryCreateBody), defaultValues: valuesOf(registry) });
  useEffect(() => {
    if (opened) form.reset(valuesOf(registry));
  }, [opened, registry, form]);
  const error = (name: keyof RegistryFormValues) => sentence(form.formState.errors[name]?.message);
  const onValid = async (body: Parsed) => {
    try {
      const saved = await save.mutateAsync({ registryId: registry?.id ?? null, body: { name: body.name, description: body.description ?? '' } });
      notifySuccess(editing ? 'Registry saved' : 'Registry created', editing ? `${saved.name} is up to date.` : `${saved.name} is ready: add its upstreams.`);
      onClose();
      if (!editing) onCreated?.(saved);
    } catch (e) {
      if (!isApiError(e) || !e.fieldErrors) return;
      // Under the fields they name; what no field shows, at the dialog's top.
      const rest: string[] = [];
      let first = true;
      for (const [path, messages] of Object.entries(e.fieldErrors)) {
        const field = FIELDS.find((f) => f === path);
        if (!field) rest.push(path === 'group' ? `This group ${messages.join(', ')}.` : `${path}: ${messages.join(', ')}`);
        else {
          form.setError(field, { type: 'server', message: messages.join(' ') }, { shouldFocus: first });
          first = false;
        }
      }
      if (rest.length) showInDialog({ title: errorTitle, message: rest.join(' ') });
    }
  };
  return (
    <Dialog opened={opened} onClose={onClose} dirty={form.formState.isDirty} busy={save.isPending} title={editing ? `Edit ${registry.name}` : 'New virtual registry'} size="lg">
      <form onSubmit={form.handleSubmit(onValid)} noValidate aria-label={editing ? 'Edit virtual registry' : 'New virtual registry'}>
        <Stack gap="md">
          <TextInput label="Name" withAsterisk data-autofocus autoComplete="off" error={error('name')} {...form.register('name')} />
          <Textarea label="Description" description="Optional: what the registry is for, for the group’s members." autosize minRows={2} error={error('description')} {...form.register('description')} />
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onClose} disabled={save.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              {editing ? 'Save registry' : 'Create registry'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Dialog>
  );
}
