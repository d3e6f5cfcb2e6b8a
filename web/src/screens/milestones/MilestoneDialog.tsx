import { useEffect } from 'react';
import { Button, Group, Stack, TextInput, Textarea } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { groupMilestoneCreateBody, type Milestone } from '../../../../shared/src/group-milestones.ts';
import { useSaveMilestone } from '../../api/milestones.ts';
import type { MilestonesOf } from './milestones-of.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { sentence } from '../../format.ts';
import { notifySuccess } from '../../components/notify.ts';
import { formShowsFieldErrors, showServerFieldErrors } from '../../components/server-errors.ts';

type Values = z.input<typeof groupMilestoneCreateBody>;
type Parsed = z.output<typeof groupMilestoneCreateBody>;
const FIELDS = ['title', 'description', 'start_date', 'due_date'] as const;
const valuesOf = (m: Milestone | null): Values => ({ title: m?.title ?? '', description: m?.description ?? '', start_date: m?.start_date ?? '', due_date: m?.due_date ?? '' });

/** Creates a milestone, or edits one: title, description and dates, checked with the shared body schema. */
export function MilestoneDialog({ of, milestone, opened, onClose }: { of: MilestonesOf; milestone: Milestone | null; opened: boolean; onClose: () => void }) {
  const editing = milestone !== null;
  const errorTitle = editing ? 'The milestone was not saved' : 'The milestone was not created';
  const save = useSaveMilestone(of, { meta: { errorTitle, showsError: formShowsFieldErrors } });
  const form = useForm<Values, unknown, Parsed>({ resolver: zodResolver(groupMilestoneCreateBody), defaultValues: valuesOf(milestone), mode: 'onSubmit', reValidateMode: 'onChange' });
  useEffect(() => {
    if (opened) form.reset(valuesOf(milestone));
  }, [opened, milestone, form]);
  const error = (name: keyof Values) => sentence(form.formState.errors[name]?.message);
  const onValid = async (body: Parsed) => {
    try {
      const saved = await save.mutateAsync({ id: milestone?.id ?? null, body: { ...body, description: body.description ?? '' } });
      notifySuccess(editing ? 'Milestone saved' : 'Milestone created', `“${saved.title}” is ${editing ? 'up to date' : 'ready for issues'}.`);
      onClose();
    } catch (e) {
      showServerFieldErrors(form.setError, e, { fieldOf: (p) => FIELDS.find((f) => f === p) ?? null, title: errorTitle });
    }
  };
  return (
    <Dialog opened={opened} onClose={onClose} dirty={form.formState.isDirty} busy={save.isPending} title={editing ? `Edit ${milestone.title}` : 'New milestone'} size="lg">
      <form onSubmit={form.handleSubmit(onValid)} noValidate aria-label={editing ? 'Edit milestone' : 'New milestone'}>
        <Stack gap="md">
          <TextInput label="Title" withAsterisk data-autofocus error={error('title')} {...form.register('title')} />
          <Textarea label="Description" autosize minRows={3} error={error('description')} {...form.register('description')} />
          <Group grow>
            <TextInput label="Start date" type="date" error={error('start_date')} {...form.register('start_date')} />
            <TextInput label="Due date" type="date" error={error('due_date')} {...form.register('due_date')} />
          </Group>
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onClose} disabled={save.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              {editing ? 'Save milestone' : 'Create milestone'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Dialog>
  );
}
