import { useEffect } from 'react';
import { Button, Group, MultiSelect, NativeSelect, Stack, TextInput, Textarea } from '@mantine/core';
import { Controller, useForm, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { mergeRequestUpdateBody, type MergeRequest } from '../../../../shared/src/merge-requests.ts';
import { useAssigneeChoices, useMilestoneChoices } from '../../api/issues.ts';
import { useLabels } from '../../api/labels.ts';
import { useUpdateMergeRequest } from '../../api/merge-requests.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { notifySuccess } from '../../components/notify.ts';
import { formShowsFieldErrors, showServerFieldErrors } from '../../components/server-errors.ts';
import { sentence } from '../../format.ts';

/** The fields the dialog edits, checked with the shared update body (title required here). */
const editBody = mergeRequestUpdateBody.pick({ title: true, description: true, labels: true, milestone_id: true, assignee_ids: true }).required({ title: true });
type Parsed = z.output<typeof editBody>;
interface Values {
  title: string;
  description: string;
  labels: string[];
  milestone_id: string;
  assignee_ids: string[];
}
const FIELDS = ['title', 'description', 'labels', 'milestone_id', 'assignee_ids'] as const;

const valuesOf = (mr: MergeRequest): Values => ({
  title: mr.title,
  description: mr.description ?? '',
  labels: mr.labels,
  milestone_id: mr.milestone ? String(mr.milestone.id) : '',
  assignee_ids: mr.assignees.map((a) => String(a.id)),
});

/** Edits a merge request's title, description, labels, milestone and assignees (Developers and up, as the API allows). */
export function MergeRequestEditDialog({ projectId, mr, opened, onClose }: { projectId: number; mr: MergeRequest; opened: boolean; onClose: () => void }) {
  const errorTitle = 'The merge request was not saved';
  const update = useUpdateMergeRequest(projectId, mr.iid, { meta: { errorTitle, showsError: formShowsFieldErrors } });
  const labels = useLabels({ scope: 'projects', id: projectId });
  const milestones = useMilestoneChoices({ scope: 'projects', id: projectId }, opened);
  const people = useAssigneeChoices(projectId, opened);
  const form = useForm<Values, unknown, Parsed>({ resolver: zodResolver(editBody) as unknown as Resolver<Values, unknown, Parsed>, defaultValues: valuesOf(mr), mode: 'onSubmit', reValidateMode: 'onChange' });
  useEffect(() => {
    if (opened) form.reset(valuesOf(mr));
    // Only when it opens: the page reads the merge request again while its pipeline runs, which must not wipe an edit.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened, form]);
  const error = (name: keyof Values) => sentence(form.formState.errors[name]?.message);

  const onValid = async (body: Parsed) => {
    try {
      await update.mutateAsync({ ...body, description: body.description ?? '' });
      notifySuccess('Merge request saved', `“${body.title}” is up to date.`);
      onClose();
    } catch (e) {
      showServerFieldErrors(form.setError, e, { fieldOf: (p) => FIELDS.find((f) => f === p) ?? null, title: errorTitle });
    }
  };

  // The current choices stay offered even when the lists do not hold them (a closed milestone, a former member).
  const milestoneData = [
    { value: '', label: 'No milestone' },
    ...(mr.milestone && !milestones.data?.some((m) => m.id === mr.milestone!.id) ? [{ value: String(mr.milestone.id), label: mr.milestone.title }] : []),
    ...(milestones.data ?? []).map((m) => ({ value: String(m.id), label: m.title })),
  ];
  const peopleData = [
    ...mr.assignees.filter((a) => !people.data?.some((p) => p.id === a.id)).map((a) => ({ value: String(a.id), label: `${a.name} (@${a.username})` })),
    ...(people.data ?? []).map((p) => ({ value: String(p.id), label: `${p.name} (@${p.username})` })),
  ];
  const labelData = [...new Set([...(labels.data ?? []).map((l) => l.name), ...mr.labels])];

  return (
    <Dialog opened={opened} onClose={onClose} dirty={form.formState.isDirty} busy={update.isPending} title={`Edit merge request !${mr.iid}`} size="lg">
      <form onSubmit={form.handleSubmit(onValid)} noValidate aria-label="Edit merge request">
        <Stack gap="md">
          <TextInput label="Title" withAsterisk data-autofocus maxLength={255} error={error('title')} {...form.register('title')} />
          <Textarea label="Description" description="Markdown: **bold**, `code`, lists, links and tables." autosize minRows={4} maxRows={16} error={error('description')} {...form.register('description')} />
          <Controller
            control={form.control}
            name="labels"
            render={({ field }) => <MultiSelect label="Labels" placeholder="Choose labels" data={labelData} value={field.value} onChange={field.onChange} onBlur={field.onBlur} searchable clearable error={error('labels')} />}
          />
          <NativeSelect label="Milestone" data={milestoneData} error={error('milestone_id')} {...form.register('milestone_id')} />
          <Controller
            control={form.control}
            name="assignee_ids"
            render={({ field }) => (
              <MultiSelect label="Assignees" placeholder="Choose people" data={peopleData} value={field.value} onChange={field.onChange} onBlur={field.onBlur} searchable clearable error={error('assignee_ids')} />
            )}
          />
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onClose} disabled={update.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={update.isPending}>
              Save merge request
            </Button>
          </Group>
        </Stack>
      </form>
    </Dialog>
  );
}
