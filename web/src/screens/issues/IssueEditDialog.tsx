import { useEffect } from 'react';
import { Button, Group, MultiSelect, NativeSelect, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { Controller, useForm, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { issueUpdateBody, type Issue } from '../../../../shared/src/issues.ts';
import { useAssigneeChoices, useMilestoneChoices, useUpdateIssue } from '../../api/issues.ts';
import { useLabels } from '../../api/labels.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { notifySuccess } from '../../components/notify.ts';
import { formShowsFieldErrors, showServerFieldErrors } from '../../components/server-errors.ts';
import { sentence } from '../../format.ts';

/** The fields the dialog edits, checked with the shared update body (title required here). */
const editBody = issueUpdateBody.pick({ title: true, description: true, labels: true, milestone_id: true, assignee_ids: true, due_date: true }).required({ title: true });
type Parsed = z.output<typeof editBody>;
interface Values {
  title: string;
  description: string;
  labels: string[];
  milestone_id: string;
  assignee_ids: string[];
  due_date: string;
}
const FIELDS = ['title', 'description', 'labels', 'milestone_id', 'assignee_ids', 'due_date'] as const;

const valuesOf = (i: Issue): Values => ({
  title: i.title,
  description: i.description ?? '',
  labels: i.labels,
  milestone_id: i.milestone ? String(i.milestone.id) : '',
  assignee_ids: i.assignees.map((a) => String(a.id)),
  due_date: i.due_date ?? '',
});

/**
 * Edits an issue: its title and description for its author and those who triage; labels,
 * milestone, assignees and due date for those who triage (Reporters and up), as the API allows.
 */
export function IssueEditDialog({ projectId, issue, canTriage, opened, onClose }: { projectId: number; issue: Issue; canTriage: boolean; opened: boolean; onClose: () => void }) {
  const errorTitle = 'The issue was not saved';
  const update = useUpdateIssue(projectId, issue.iid, { meta: { errorTitle, showsError: formShowsFieldErrors } });
  const labels = useLabels({ scope: 'projects', id: projectId });
  const milestones = useMilestoneChoices({ scope: 'projects', id: projectId }, opened && canTriage);
  const people = useAssigneeChoices(projectId, opened && canTriage);
  const form = useForm<Values, unknown, Parsed>({ resolver: zodResolver(editBody) as unknown as Resolver<Values, unknown, Parsed>, defaultValues: valuesOf(issue), mode: 'onSubmit', reValidateMode: 'onChange' });
  useEffect(() => {
    if (opened) form.reset(valuesOf(issue));
  }, [opened, issue, form]);
  const error = (name: keyof Values) => sentence(form.formState.errors[name]?.message);

  const onValid = async (body: Parsed) => {
    try {
      const sent = canTriage ? body : { title: body.title, description: body.description };
      await update.mutateAsync({ ...sent, description: sent.description ?? '' });
      notifySuccess('Issue saved', `“${body.title}” is up to date.`);
      onClose();
    } catch (e) {
      showServerFieldErrors(form.setError, e, { fieldOf: (p) => FIELDS.find((f) => f === p) ?? null, title: errorTitle });
    }
  };

  // The current choices stay offered even when the lists do not hold them (a closed milestone, a former member).
  const milestoneData = [
    { value: '', label: 'No milestone' },
    ...(issue.milestone && !milestones.data?.some((m) => m.id === issue.milestone!.id) ? [{ value: String(issue.milestone.id), label: issue.milestone.title }] : []),
    ...(milestones.data ?? []).map((m) => ({ value: String(m.id), label: m.title })),
  ];
  const peopleData = [
    ...issue.assignees.filter((a) => !people.data?.some((p) => p.id === a.id)).map((a) => ({ value: String(a.id), label: `${a.name} (@${a.username})` })),
    ...(people.data ?? []).map((p) => ({ value: String(p.id), label: `${p.name} (@${p.username})` })),
  ];
  const labelData = [...new Set([...(labels.data ?? []).map((l) => l.name), ...issue.labels])];

  return (
    <Dialog opened={opened} onClose={onClose} dirty={form.formState.isDirty} busy={update.isPending} title={`Edit issue #${issue.iid}`} size="lg">
      <form onSubmit={form.handleSubmit(onValid)} noValidate aria-label="Edit issue">
        <Stack gap="md">
          <TextInput label="Title" withAsterisk data-autofocus maxLength={255} error={error('title')} {...form.register('title')} />
          <Textarea label="Description" description="Markdown: **bold**, `code`, lists, links and tables." autosize minRows={4} maxRows={16} error={error('description')} {...form.register('description')} />
          {canTriage ? (
            <>
              <Controller
                control={form.control}
                name="labels"
                render={({ field }) => <MultiSelect label="Labels" placeholder="Choose labels" data={labelData} value={field.value} onChange={field.onChange} onBlur={field.onBlur} searchable clearable error={error('labels')} />}
              />
              <Group grow align="flex-start">
                <NativeSelect label="Milestone" data={milestoneData} error={error('milestone_id')} {...form.register('milestone_id')} />
                <TextInput label="Due date" type="date" error={error('due_date')} {...form.register('due_date')} />
              </Group>
              <Controller
                control={form.control}
                name="assignee_ids"
                render={({ field }) => (
                  <MultiSelect label="Assignees" placeholder="Choose people" data={peopleData} value={field.value} onChange={field.onChange} onBlur={field.onBlur} searchable clearable error={error('assignee_ids')} />
                )}
              />
            </>
          ) : (
            <Text size="sm" c="dimmed">
              Labels, milestone, assignees and due date are set by the project’s Reporters and up.
            </Text>
          )}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onClose} disabled={update.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={update.isPending}>
              Save issue
            </Button>
          </Group>
        </Stack>
      </form>
    </Dialog>
  );
}
