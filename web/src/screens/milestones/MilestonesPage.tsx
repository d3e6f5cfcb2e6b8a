import { useMemo, useState } from 'react';
import { Anchor, Button, Group, Menu, Stack, Tabs, Text, TextInput, Title } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { Link, useParams } from 'react-router';
import type { Milestone } from '../../../../shared/src/group-milestones.ts';
import { useDeleteMilestone, useMilestones, useSaveMilestone, type MilestonesQuery } from '../../api/milestones.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { DataTable, TablePager } from '../../components/DataTable.tsx';
import { formatDate } from '../../format.ts';
import { IconPlus, IconSearch } from '../../components/icons.tsx';
import { useListParams, useSearchBox } from '../../components/list-params.ts';
import { notifySuccess } from '../../components/notify.ts';
import { EmptyState, NotFoundState, QueryContent } from '../../components/states.tsx';
import { groupHref, sectionRest } from '../../paths.ts';
import { useGroupContext } from '../groups/group-context.ts';
import { DueBadge } from './DueBadge.tsx';
import { MilestoneDetail } from './MilestoneDetail.tsx';
import { MilestoneDialog } from './MilestoneDialog.tsx';
import type { MilestonesOf } from './milestones-of.ts';

/** /groups/<full path>/-/milestones[/<iid>]: the group's milestones, or one of them. */
export default function GroupMilestonesPage() {
  const { group, role } = useGroupContext();
  const of: MilestonesOf = { scope: 'groups', id: group.id, name: group.full_name, href: groupHref(group.full_path, 'milestones'), canPlan: role.can('admin_milestones'), canDelete: role.can('destroy_milestones') };
  return <MilestonesSection of={of} />;
}

/** The list, or the milestone the URL names after the section (`…/-/milestones/<iid>`). */
export function MilestonesSection({ of }: { of: MilestonesOf }) {
  const { '*': splat = '' } = useParams();
  const rest = sectionRest(splat);
  const key = `${of.scope}/${of.id}`;
  if (rest.length === 0) return <MilestonesList key={key} of={of} />;
  if (rest.length === 1 && /^\d{1,9}$/.test(rest[0])) return <MilestoneDetail key={`${key}/${rest[0]}`} of={of} iid={Number(rest[0])} />;
  return (
    <NotFoundState
      title="No such milestone page"
      action={
        <Button component={Link} to={of.href} variant="default">
          All milestones
        </Button>
      }
    >
      There is nothing at “{rest.join('/')}” here.
    </NotFoundState>
  );
}

const isDate = (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v);

/** State tab, search and a date range (both ends, as the API takes them) live in the URL. */
function useMilestoneParams() {
  const list = useListParams();
  const state: 'active' | 'closed' = list.get('state') === 'closed' ? 'closed' : 'active';
  const from = isDate(list.get('from')) ? list.get('from') : '';
  const to = isDate(list.get('to')) ? list.get('to') : '';
  const ranged = Boolean(from && to && from <= to);
  const query: MilestonesQuery = { state, search: list.search || undefined, ...(ranged && { start_date: from, end_date: to }), page: list.page };
  return { ...list, state, from, to, query, filtered: Boolean(list.search || ranged) };
}

const col = createColumnHelper<Milestone>();

function MilestonesList({ of }: { of: MilestonesOf }) {
  const { canPlan, canDelete } = of;
  const params = useMilestoneParams();
  const searchBox = useSearchBox(params.search, params.update);
  const milestones = useMilestones(of, params.query);
  const [editing, setEditing] = useState<Milestone | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Milestone | null>(null);
  const save = useSaveMilestone(of, { meta: { errorTitle: 'The milestone was not changed' } });
  const remove = useDeleteMilestone(of, { meta: { errorTitle: 'The milestone was not deleted' } });

  const setState = (m: Milestone, state_event: 'close' | 'activate') =>
    save.mutate({ id: m.id, body: { state_event } }, { onSuccess: () => notifySuccess(state_event === 'close' ? 'Milestone closed' : 'Milestone reopened', `“${m.title}” is ${state_event === 'close' ? 'closed' : 'open again'}.`) });

  const columns = useMemo(
    () => [
      col.accessor('title', {
        header: 'Milestone',
        cell: ({ row }) => (
          <Anchor component={Link} to={`${of.href}/${row.original.iid}`} fw={600} size="sm">
            {row.original.title}
          </Anchor>
        ),
      }),
      col.accessor('start_date', { header: 'Starts', cell: (i) => formatDate(i.getValue()) }),
      col.accessor('due_date', { header: 'Due', cell: (i) => formatDate(i.getValue()) }),
      col.display({ id: 'status', header: 'Status', cell: ({ row }) => <DueBadge milestone={row.original} /> }),
      col.display({
        id: 'actions',
        header: () => <span className="gh-visually-hidden">Actions</span>,
        cell: ({ row }) =>
          (canPlan || canDelete) && (
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <Button size="compact-sm" variant="default" aria-label={`Actions for ${row.original.title}`}>
                  Actions
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                {canPlan && <Menu.Item onClick={() => setEditing(row.original)}>Edit</Menu.Item>}
                {canPlan && row.original.state === 'active' && <Menu.Item onClick={() => setState(row.original, 'close')}>Close</Menu.Item>}
                {canPlan && row.original.state === 'closed' && <Menu.Item onClick={() => setState(row.original, 'activate')}>Reopen</Menu.Item>}
                {canDelete && (
                  <Menu.Item color="red" onClick={() => setDeleting(row.original)}>
                    Delete
                  </Menu.Item>
                )}
              </Menu.Dropdown>
            </Menu>
          ),
      }),
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [of.href, canPlan, canDelete],
  );

  const items = milestones.data?.items ?? [];
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={2} size="h3">
            Milestones
          </Title>
          <Text c="dimmed" size="sm" maw={640}>
            Plan what {of.scope === 'groups' ? 'the group’s projects deliver' : 'the project delivers'} by a date, and follow it with burndown and burnup charts.
          </Text>
        </div>
        {canPlan && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
            New milestone
          </Button>
        )}
      </Group>
      <Group gap="sm" align="flex-end" wrap="wrap">
        <TextInput label="Search" placeholder="Title or description" leftSection={<IconSearch size={16} />} value={searchBox.value} onChange={searchBox.onChange} w={260} />
        <TextInput label="Active from" type="date" value={params.from} onChange={(e) => params.update({ from: e.currentTarget.value || null })} />
        <TextInput label="Active to" type="date" value={params.to} onChange={(e) => params.update({ to: e.currentTarget.value || null })} />
        {(params.from || params.to) && (
          <Button variant="subtle" onClick={() => params.update({ from: null, to: null })}>
            Clear dates
          </Button>
        )}
      </Group>
      <Tabs value={params.state} onChange={(v) => params.update({ state: v === 'closed' ? 'closed' : null })} variant="outline">
        <Tabs.List aria-label="Milestone state">
          {(['active', 'closed'] as const).map((s) => (
            <Tabs.Tab key={s} value={s} {...(s !== params.state && { 'aria-controls': undefined })}>
              {s === 'active' ? 'Open' : 'Closed'}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value={params.state} pt="md">
          <QueryContent
            query={milestones}
            what="milestones"
            empty={(data) =>
              data.items.length === 0 &&
              (params.filtered ? (
                <EmptyState title="No milestones match">Change the search or the dates.</EmptyState>
              ) : (
                <EmptyState title={params.state === 'closed' ? 'No closed milestones' : 'No open milestones'} action={canPlan && params.state === 'active' && <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>New milestone</Button>}>
                  A milestone gathers the issues and merge requests of {of.scope === 'groups' ? `${of.name}’s projects` : of.name} that are due together, and charts their progress.
                </EmptyState>
              ))
            }
          >
            {(data) => <DataTable label={params.state === 'closed' ? 'Closed milestones' : 'Open milestones'} items={data.items} columns={columns} getRowId={(m) => String(m.id)} busy={milestones.isFetching} />}
          </QueryContent>
        </Tabs.Panel>
      </Tabs>
      <TablePager info={milestones.data?.page} shown={items.length} what={(n) => (n === 1 ? 'milestone' : 'milestones')} onPage={params.setPage} />
      <MilestoneDialog of={of} milestone={editing === 'new' ? null : editing} opened={editing !== null} onClose={() => setEditing(null)} />
      <ConfirmDialog
        opened={deleting !== null}
        title={deleting ? `Delete “${deleting.title}”?` : ''}
        confirmLabel="Delete milestone"
        loading={remove.isPending}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => {
              notifySuccess('Milestone deleted', `“${deleting.title}” is gone.`);
              setDeleting(null);
            },
          })
        }
        onClose={() => setDeleting(null)}
      >
        Its issues and merge requests stay, without a milestone. Its charts are lost.
      </ConfirmDialog>
    </Stack>
  );
}
