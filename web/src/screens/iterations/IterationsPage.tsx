import { useMemo, useState } from 'react';
import { Anchor, Badge, Button, Card, Group, List, NumberInput, Stack, Switch, Text, TextInput, Textarea, Title } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'react-router';
import type { z } from 'zod';
import {
  ITERATION_STATES,
  iterationCadenceCreateBody,
  iterationCreateBody,
  iterationDisplayName,
  type IterationCadence,
  type ProjectIteration,
} from '../../../../shared/src/iterations.ts';
import type { GroupDetail } from '../../../../shared/src/groups.ts';
import { useCadenceIterations, useCreateIteration, useCreateIterationCadence, useIterationCadences, useIterationIssues, useUpdateIterationCadence } from '../../api/iteration-cadences.ts';
import { DataTable, TablePager } from '../../components/DataTable.tsx';
import { Dialog } from '../../components/Dialog.tsx';
import { formatDate, formatTotal, sentence } from '../../format.ts';
import { IconPlus } from '../../components/icons.tsx';
import { useListParams } from '../../components/list-params.ts';
import { notifySuccess } from '../../components/notify.ts';
import { formShowsFieldErrors, showServerFieldErrors } from '../../components/server-errors.ts';
import { EmptyState, QueryContent } from '../../components/states.tsx';
import { issueHrefOf } from '../../paths.ts';
import { useGroupContext } from '../groups/group-context.ts';

const STATE_LABEL: Record<number, { label: string; color: string }> = {
  [ITERATION_STATES.upcoming]: { label: 'Upcoming', color: 'blue' },
  [ITERATION_STATES.current]: { label: 'Current', color: 'green' },
  [ITERATION_STATES.closed]: { label: 'Closed', color: 'gray' },
};

/** /groups/<full path>/-/iterations: the group's iteration cadences, each with its iterations. */
export default function IterationsPage() {
  const { group, role } = useGroupContext();
  return <Iterations key={group.id} group={group} canPlan={role.can('admin_milestones')} />;
}

function Iterations({ group, canPlan }: { group: GroupDetail; canPlan: boolean }) {
  const list = useListParams();
  const cadences = useIterationCadences(group.id, { page: list.page });
  const [creating, setCreating] = useState(false);
  const items = cadences.data?.items ?? [];
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={2} size="h3">
            Iterations
          </Title>
          <Text c="dimmed" size="sm" maw={640}>
            Iterations of the group’s cadences. Projects of the group and its subgroups plan their issues in them.
          </Text>
        </div>
        {canPlan && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
            New cadence
          </Button>
        )}
      </Group>
      <QueryContent
        query={cadences}
        what="iteration cadences"
        empty={(data) =>
          data.items.length === 0 && (
            <EmptyState title="No iteration cadences" action={canPlan && <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>New cadence</Button>}>
              A cadence schedules time-boxed iterations for the teams of {group.full_name}: automatically, a number of weeks at a time, or one by one.
            </EmptyState>
          )
        }
      >
        {(data) => data.items.map((c) => <CadenceCard key={c.id} group={group} cadence={c} canPlan={canPlan} />)}
      </QueryContent>
      <TablePager info={cadences.data?.page} shown={items.length} what={(n) => (n === 1 ? 'cadence' : 'cadences')} onPage={list.setPage} />
      <CadenceDialog group={group} opened={creating} onClose={() => setCreating(false)} />
    </Stack>
  );
}

const col = createColumnHelper<ProjectIteration>();

function CadenceCard({ group, cadence, canPlan }: { group: GroupDetail; cadence: IterationCadence; canPlan: boolean }) {
  const [page, setPage] = useState(1);
  const iterations = useCadenceIterations(group.id, cadence.id, { page });
  const [adding, setAdding] = useState(false);
  const columns = useMemo(
    () => [
      col.display({ id: 'name', header: 'Iteration', cell: ({ row }) => <Text size="sm" fw={600}>{iterationDisplayName(row.original)}</Text> }),
      col.accessor('start_date', { header: 'Starts', cell: (i) => formatDate(i.getValue()) }),
      col.accessor('due_date', { header: 'Ends', cell: (i) => formatDate(i.getValue()) }),
      col.accessor('state', {
        header: 'State',
        cell: (i) => (
          <Badge variant="light" color={STATE_LABEL[i.getValue()]?.color}>
            {STATE_LABEL[i.getValue()]?.label}
          </Badge>
        ),
      }),
    ],
    [],
  );
  const items = iterations.data?.items ?? [];
  const current = items.find((i) => i.state === ITERATION_STATES.current);
  const schedule = cadence.automatic
    ? `Automatic: ${cadence.duration_in_weeks}-week iterations from ${formatDate(cadence.start_date)}, ${cadence.iterations_in_advance} scheduled ahead`
    : 'Manual: iterations are added one by one';
  return (
    <Card withBorder component="section" aria-label={`Cadence ${cadence.title}`}>
      <Group justify="space-between" align="flex-start" mb="sm">
        <div>
          <Title order={3} size="h4">
            {cadence.title}
          </Title>
          <Text size="sm" c="dimmed">
            {schedule}
            {cadence.automatic && cadence.roll_over ? '; unfinished issues roll over' : ''}
          </Text>
          {canPlan && cadence.automatic && <RollOverSwitch group={group} cadence={cadence} />}
        </div>
        {canPlan && !cadence.automatic && (
          <Button variant="light" size="compact-sm" leftSection={<IconPlus size={14} />} onClick={() => setAdding(true)}>
            Add iteration
          </Button>
        )}
      </Group>
      <QueryContent
        query={iterations}
        what="iterations"
        empty={(data) =>
          data.items.length === 0 && (
            <Text size="sm" c="dimmed">
              No iterations yet.
            </Text>
          )
        }
      >
        {(data) => <DataTable label={`Iterations of ${cadence.title}`} items={data.items} columns={columns} getRowId={(i) => String(i.id)} busy={iterations.isFetching} minWidth={480} />}
      </QueryContent>
      <TablePager info={iterations.data?.page} shown={items.length} what={(n) => (n === 1 ? 'iteration' : 'iterations')} onPage={setPage} />
      {current && <CurrentIssues group={group} iteration={current} />}
      <IterationDialog group={group} cadence={cadence} opened={adding} onClose={() => setAdding(false)} />
    </Card>
  );
}

/** Whether open issues move on when an iteration ends (the platform rolls over automatic cadences only). */
function RollOverSwitch({ group, cadence }: { group: GroupDetail; cadence: IterationCadence }) {
  const update = useUpdateIterationCadence(group.id, { meta: { errorTitle: 'The cadence was not changed' } });
  // Shows the choice at once; the cadence's own value once the server has answered (or refused).
  const [asked, setAsked] = useState<{ from: boolean; to: boolean } | null>(null);
  const checked = asked && asked.from === cadence.roll_over ? asked.to : cadence.roll_over;
  const change = async (roll_over: boolean) => {
    setAsked({ from: cadence.roll_over, to: roll_over });
    try {
      await update.mutateAsync({ cadenceId: cadence.id, body: { roll_over } });
    } catch (e) {
      setAsked(null);
      throw e;
    }
    notifySuccess(roll_over ? 'Issues will roll over' : 'Issues will stay', roll_over ? `When an iteration of “${cadence.title}” ends, its open issues move to the next one.` : `Open issues stay in the iterations of “${cadence.title}” that end.`);
  };
  return (
    <Switch
      mt="xs"
      label="Roll over unfinished issues"
      description="When an iteration ends, its open issues move to the next one."
      checked={checked}
      disabled={update.isPending}
      onChange={(e) => void change(e.currentTarget.checked).catch(() => undefined)}
    />
  );
}

/** The open issues of the current iteration: where rolled-over issues show up. */
function CurrentIssues({ group, iteration }: { group: GroupDetail; iteration: ProjectIteration }) {
  const issues = useIterationIssues(group.id, iteration.id);
  const name = iterationDisplayName(iteration);
  const items = issues.data?.items ?? [];
  const total = issues.data?.page.total ?? items.length;
  return (
    <Stack gap={4} mt="md" component="section" aria-label={`Open issues of ${name}`}>
      <Title order={4} size="h5">
        Open issues of {name}
        {issues.data ? ` (${formatTotal(total)})` : ''}
      </Title>
      <QueryContent
        query={issues}
        what="issues"
        empty={(data) =>
          data.items.length === 0 && (
            <Text size="sm" c="dimmed">
              No open issues in this iteration.
            </Text>
          )
        }
      >
        {(data) => (
          <List size="sm" spacing={2}>
            {data.items.map((i) => (
              <List.Item key={i.id}>
                <Anchor component={Link} to={issueHrefOf(i)} size="sm">
                  {i.title}
                </Anchor>{' '}
                <Text span size="xs" c="dimmed">
                  {i.references.full}
                </Text>
              </List.Item>
            ))}
          </List>
        )}
      </QueryContent>
      {(total === null || total > items.length) && (
        <Text size="xs" c="dimmed">
          The first {items.length} of {formatTotal(total)}.
        </Text>
      )}
    </Stack>
  );
}

type CadenceValues = z.input<typeof iterationCadenceCreateBody>;
const cadenceDefaults = (): CadenceValues => ({ title: '', automatic: true, start_date: undefined, duration_in_weeks: 2, iterations_in_advance: 2, roll_over: false });
const CADENCE_FIELDS = ['title', 'start_date', 'duration_in_weeks', 'iterations_in_advance'] as const;
const blankAsUndefined = (v: string) => v || undefined;

function CadenceDialog({ group, opened, onClose }: { group: GroupDetail; opened: boolean; onClose: () => void }) {
  const create = useCreateIterationCadence(group.id, { meta: { errorTitle: 'The cadence was not created', showsError: formShowsFieldErrors } });
  const form = useForm<CadenceValues, unknown, z.output<typeof iterationCadenceCreateBody>>({ resolver: zodResolver(iterationCadenceCreateBody), defaultValues: cadenceDefaults() });
  const automatic = useWatch({ control: form.control, name: 'automatic' });
  const error = (name: keyof CadenceValues) => sentence(form.formState.errors[name]?.message);
  const close = () => {
    form.reset(cadenceDefaults());
    onClose();
  };
  const onValid = async (body: z.output<typeof iterationCadenceCreateBody>) => {
    try {
      const cadence = await create.mutateAsync(body.automatic === false ? { title: body.title, automatic: false, roll_over: body.roll_over } : body);
      notifySuccess('Cadence created', cadence.automatic ? `“${cadence.title}” scheduled its iterations.` : `Add iterations to “${cadence.title}”.`);
      close();
    } catch (e) {
      showServerFieldErrors(form.setError, e, { fieldOf: (p) => CADENCE_FIELDS.find((f) => f === p) ?? null, title: 'The cadence was not created' });
    }
  };
  return (
    <Dialog opened={opened} onClose={close} dirty={form.formState.isDirty} busy={create.isPending} title="New iteration cadence" size="lg">
      <form onSubmit={form.handleSubmit(onValid)} noValidate aria-label="New iteration cadence">
        <Stack gap="md">
          <TextInput label="Title" withAsterisk data-autofocus error={error('title')} {...form.register('title')} />
          <Textarea label="Description" autosize minRows={2} {...form.register('description', { setValueAs: blankAsUndefined })} />
          <Controller
            control={form.control}
            name="automatic"
            render={({ field }) => (
              <Switch label="Automatic scheduling" description="Iterations are created ahead of time, back to back, without titles." checked={field.value !== false} onChange={(e) => field.onChange(e.currentTarget.checked)} />
            )}
          />
          {automatic !== false && (
            <>
              <TextInput label="First iteration starts" type="date" withAsterisk error={error('start_date')} {...form.register('start_date', { setValueAs: blankAsUndefined })} />
              <Group grow>
                <Controller
                  control={form.control}
                  name="duration_in_weeks"
                  render={({ field }) => <NumberInput label="Weeks per iteration" min={1} max={4} value={field.value as number | undefined} onChange={(v) => field.onChange(typeof v === 'number' ? v : undefined)} error={error('duration_in_weeks')} />}
                />
                <Controller
                  control={form.control}
                  name="iterations_in_advance"
                  render={({ field }) => <NumberInput label="Upcoming iterations" min={1} max={10} value={field.value as number | undefined} onChange={(v) => field.onChange(typeof v === 'number' ? v : undefined)} error={error('iterations_in_advance')} />}
                />
              </Group>
            </>
          )}
          <Controller
            control={form.control}
            name="roll_over"
            render={({ field }) => <Switch label="Roll over unfinished issues" checked={field.value === true} onChange={(e) => field.onChange(e.currentTarget.checked)} />}
          />
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={close} disabled={create.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Create cadence
            </Button>
          </Group>
        </Stack>
      </form>
    </Dialog>
  );
}

type IterationValues = z.input<typeof iterationCreateBody>;
const iterationDefaults = (): IterationValues => ({ title: undefined, start_date: '', due_date: '' });

function IterationDialog({ group, cadence, opened, onClose }: { group: GroupDetail; cadence: IterationCadence; opened: boolean; onClose: () => void }) {
  const create = useCreateIteration(group.id, cadence.id, { meta: { errorTitle: 'The iteration was not added', showsError: formShowsFieldErrors } });
  const form = useForm<IterationValues, unknown, z.output<typeof iterationCreateBody>>({ resolver: zodResolver(iterationCreateBody), defaultValues: iterationDefaults() });
  const error = (name: keyof IterationValues) => sentence(form.formState.errors[name]?.message);
  const close = () => {
    form.reset(iterationDefaults());
    onClose();
  };
  const onValid = async (body: z.output<typeof iterationCreateBody>) => {
    try {
      const it = await create.mutateAsync(body);
      notifySuccess('Iteration added', `${iterationDisplayName(it)} is in “${cadence.title}”.`);
      close();
    } catch (e) {
      showServerFieldErrors(form.setError, e, { fieldOf: (p) => (['title', 'start_date', 'due_date'] as const).find((f) => f === p) ?? null, labelOf: () => 'Dates', title: 'The iteration was not added' });
    }
  };
  return (
    <Dialog opened={opened} onClose={close} dirty={form.formState.isDirty} busy={create.isPending} title={`Add an iteration to ${cadence.title}`}>
      <form onSubmit={form.handleSubmit(onValid)} noValidate aria-label="New iteration">
        <Stack gap="md">
          <TextInput label="Title" description="Optional." data-autofocus error={error('title')} {...form.register('title', { setValueAs: blankAsUndefined })} />
          <Group grow>
            <TextInput label="Starts" type="date" withAsterisk error={error('start_date')} {...form.register('start_date')} />
            <TextInput label="Ends" type="date" withAsterisk error={error('due_date')} {...form.register('due_date')} />
          </Group>
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={close} disabled={create.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Add iteration
            </Button>
          </Group>
        </Stack>
      </form>
    </Dialog>
  );
}
