import { useEffect } from 'react';
import { Button, Group, MultiSelect, NativeSelect, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { Controller, useForm, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { issueCreateBody, issueUpdateBody, type Issue } from '../../../../shared/src/issues.ts';
import { useAssigneeChoices, useCreateIssue, useMilestoneChoices, useUpdateIssue } from '../../api/issues.ts';
import { useLabels } from '../../api/labels.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { notifySuccess } from '../../components/notify.ts';
import { formShowsFieldErrors, showServerFieldErrors } from '../../components/server-errors.ts';
import { sentence } from '../../format.ts';
import { issueHrefOf } from '../../paths.ts';

/** The fields the dialogs write, checked with the shared bodies (title required in both). */
const PICKED = { title: true, description: true, labels: true, milestone_id: true, assignee_ids: true, due_date: true, weight: true } as const;
const editBody = issueUpdateBody.pick(PICKED).required({ title: true });
const createBody = issueCreateBody.pick(PICKED);
type Parsed = z.output<typeof editBody>;
interface Values {
  title: string;
  description: string;
  labels: string[];
  milestone_id: string;
  assignee_ids: string[];
  due_date: string;
  weight: string;
}
const FIELDS = ['title', 'description', 'labels', 'milestone_id', 'assignee_ids', 'due_date', 'weight'] as const;
const fieldOf = (p: string) => FIELDS.find((f) => f === p) ?? null;

const BLANK: Values = { title: '', description: '', labels: [], milestone_id: '', assignee_ids: [], due_date: '', weight: '' };
const valuesOf = (i: Issue): Values => ({
  title: i.title,
  description: i.description ?? '',
  labels: i.labels,
  milestone_id: i.milestone ? String(i.milestone.id) : '',
  assignee_ids: i.assignees.map((a) => String(a.id)),
  due_date: i.due_date ?? '',
  weight: i.weight === null ? '' : String(i.weight),
});

/** What only those who triage set (the API ignores it from others). */
const triageless = (body: Parsed) => ({ title: body.title, description: body.description ?? '' });

interface FormProps {
  projectId: number;
  canTriage: boolean;
  opened: boolean;
  onClose: () => void;
}

/**
 * Edits an issue: its title and description for its author and those who triage; labels,
 * milestone, assignees, due date and weight for those who triage (Reporters and up), as the API allows.
 */
export function IssueEditDialog({ issue, ...props }: FormProps & { issue: Issue }) {
  const errorTitle = 'The issue was not saved';
  const update = useUpdateIssue(props.projectId, issue.iid, { meta: { errorTitle, showsError: formShowsFieldErrors } });
  return (
    <IssueFormDialog
      {...props}
      issue={issue}
      title={`Edit issue #${issue.iid}`}
      submitLabel="Save issue"
      errorTitle={errorTitle}
      busy={update.isPending}
      onSave={async (body) => {
        const sent = props.canTriage ? body : triageless(body);
        await update.mutateAsync({ ...sent, description: sent.description ?? '' });
        notifySuccess('Issue saved', `“${body.title}” is up to date.`);
        props.onClose();
      }}
    />
  );
}

/** Opens an issue in a project, then goes to its page. */
export function NewIssueDialog(props: FormProps) {
  const errorTitle = 'The issue was not created';
  const create = useCreateIssue(props.projectId, { meta: { errorTitle, showsError: formShowsFieldErrors } });
  const navigate = useNavigate();
  return (
    <IssueFormDialog
      {...props}
      issue={null}
      title="New issue"
      submitLabel="Create issue"
      errorTitle={errorTitle}
      busy={create.isPending}
      onSave={async (body) => {
        const sent = props.canTriage ? body : triageless(body);
        const created = await create.mutateAsync(sent);
        notifySuccess('Issue created', `“${created.title}” is #${created.iid}.`);
        props.onClose();
        void navigate(issueHrefOf(created));
      }}
    />
  );
}

function IssueFormDialog({
  projectId,
  issue,
  canTriage,
  opened,
  onClose,
  title,
  submitLabel,
  errorTitle,
  busy,
  onSave,
}: FormProps & { issue: Issue | null; title: string; submitLabel: string; errorTitle: string; busy: boolean; onSave: (body: Parsed) => Promise<void> }) {
  const labels = useLabels({ scope: 'projects', id: projectId });
  const milestones = useMilestoneChoices({ scope: 'projects', id: projectId }, opened && canTriage);
  const people = useAssigneeChoices(projectId, opened && canTriage);
  const schema = issue ? editBody : createBody;
  const form = useForm<Values, unknown, Parsed>({ resolver: zodResolver(schema) as unknown as Resolver<Values, unknown, Parsed>, defaultValues: issue ? valuesOf(issue) : BLANK, mode: 'onSubmit', reValidateMode: 'onChange' });
  useEffect(() => {
    if (opened) form.reset(issue ? valuesOf(issue) : BLANK);
  }, [opened, issue, form]);
  const error = (name: keyof Values) => sentence(form.formState.errors[name]?.message);

  const onValid = async (body: Parsed) => {
    try {
      await onSave(body);
    } catch (e) {
      showServerFieldErrors(form.setError, e, { fieldOf, title: errorTitle });
    }
  };

  // The current choices stay offered even when the lists do not hold them (a closed milestone, a former member).
  const milestoneData = [
    { value: '', label: 'No milestone' },
    ...(issue?.milestone && !milestones.data?.some((m) => m.id === issue.milestone!.id) ? [{ value: String(issue.milestone.id), label: issue.milestone.title }] : []),
    ...(milestones.data ?? []).map((m) => ({ value: String(m.id), label: m.title })),
  ];
  const current = issue?.assignees ?? [];
  const peopleData = [
    ...current.filter((a) => !people.data?.some((p) => p.id === a.id)).map((a) => ({ value: String(a.id), label: `${a.name} (@${a.username})` })),
    ...(people.data ?? []).map((p) => ({ value: String(p.id), label: `${p.name} (@${p.username})` })),
  ];
  const labelData = [...new Set([...(labels.data ?? []).map((l) => l.name), ...(issue?.labels ?? [])])];

  return (
    <Dialog opened={opened} onClose={onClose} dirty={form.formState.isDirty} busy={busy} title={title} size="lg">
      <form onSubmit={form.handleSubmit(onValid)} noValidate aria-label={title}>
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
                <TextInput label="Weight" type="number" min={0} step={1} inputMode="numeric" placeholder="None" error={error('weight')} {...form.register('weight')} />
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
              Labels, milestone, assignees, due date and weight are set by the project’s Reporters and up.
            </Text>
          )}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onClose} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Dialog>
  );
}
