import { lazy, Suspense, useState } from 'react';
import { Anchor, Badge, Button, Card, Group, Progress, SimpleGrid, Stack, Tabs, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import type { Milestone as MilestoneEntity } from '../../../../shared/src/group-milestones.ts';
import { useMilestoneByIid, useMilestoneIssues, useMilestoneMergeRequests, useSaveMilestone } from '../../api/milestones.ts';
import { formatDate } from '../../format.ts';
import { issueHrefOf, mergeRequestHref } from '../../paths.ts';
import { IconArrowLeft } from '../../components/icons.tsx';
import { notifySuccess } from '../../components/notify.ts';
import { EmptyState, LoadingState, NotFoundState, QueryContent, type QueryLike } from '../../components/states.tsx';
import { DueBadge } from './DueBadge.tsx';
import { MilestoneDialog } from './MilestoneDialog.tsx';
import { issueColumns, mergeRequestColumns, progressOf, type BoardItem } from './milestone-board.ts';
import { itemsOf, type MilestonesOf } from './milestones-of.ts';

// The charting library is large: only the milestone page loads it, when it shows the charts.
const BurndownCharts = lazy(() => import('./BurndownCharts.tsx'));

/** One milestone: its progress, its issues and merge requests in columns, and its charts. */
export function MilestoneDetail({ of, iid }: { of: MilestonesOf; iid: number }) {
  const found = useMilestoneByIid(of, iid);
  const back = (
    <Button component={Link} to={of.href} variant="default" leftSection={<IconArrowLeft size={16} />}>
      All milestones
    </Button>
  );
  return (
    <QueryContent query={found} what="the milestone">
      {(milestone) =>
        milestone ? (
          <Milestone of={of} milestone={milestone} back={back} />
        ) : (
          <NotFoundState title="No such milestone" action={back}>
            {of.name} has no milestone {iid}.
          </NotFoundState>
        )
      }
    </QueryContent>
  );
}

function Milestone({ of, milestone, back }: { of: MilestonesOf; milestone: MilestoneEntity; back: React.ReactNode }) {
  const { canPlan } = of;
  const issues = useMilestoneIssues(of, milestone.id);
  const mrs = useMilestoneMergeRequests(of, milestone.id);
  const [editing, setEditing] = useState(false);
  const save = useSaveMilestone(of, { meta: { errorTitle: 'The milestone was not changed' } });
  const closing = milestone.state === 'active';
  const toggle = () =>
    save.mutate({ id: milestone.id, body: { state_event: closing ? 'close' : 'activate' } }, { onSuccess: () => notifySuccess(closing ? 'Milestone closed' : 'Milestone reopened', `“${milestone.title}”.`) });
  const progress = progressOf((issues.data ?? []) as BoardItem[]);

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start">
        <div>
          <Group gap="xs">
            <Title order={2} size="h3">
              {milestone.title}
            </Title>
            <Badge variant="light" color={milestone.state === 'active' ? 'green' : 'gray'}>
              {milestone.state === 'active' ? 'Open' : 'Closed'}
            </Badge>
            <DueBadge milestone={milestone} />
          </Group>
          <Text size="sm" c="dimmed">
            {milestone.start_date ? `Starts ${formatDate(milestone.start_date)}` : 'No start date'} · {milestone.due_date ? `Due ${formatDate(milestone.due_date)}` : 'No due date'}
          </Text>
          {milestone.description && (
            <Text size="sm" mt="xs" maw={720} style={{ whiteSpace: 'pre-wrap' }}>
              {milestone.description}
            </Text>
          )}
        </div>
        <Group gap="xs">
          {back}
          {canPlan && (
            <>
              <Button variant="default" onClick={() => setEditing(true)}>
                Edit
              </Button>
              <Button variant="light" color={closing ? 'red' : 'green'} onClick={toggle} loading={save.isPending}>
                {closing ? 'Close milestone' : 'Reopen milestone'}
              </Button>
            </>
          )}
        </Group>
      </Group>

      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <ProgressCard label="Issues closed" done={progress.closedCount} total={progress.count} unit="issues" />
        <ProgressCard label="Weight completed" done={progress.closedWeight} total={progress.weight} unit="weight" />
      </SimpleGrid>

      <Card withBorder component="section" aria-labelledby="milestone-charts">
        <Title order={3} size="h4" id="milestone-charts" mb="sm">
          Burndown and burnup
        </Title>
        <Suspense fallback={<LoadingState label="Loading the charts…" />}>
          <BurndownCharts of={of} milestone={milestone} />
        </Suspense>
      </Card>

      <Tabs defaultValue="issues" variant="outline">
        <Tabs.List aria-label="Milestone contents">
          <Tabs.Tab value="issues">Issues {issues.data ? `(${issues.data.length})` : ''}</Tabs.Tab>
          <Tabs.Tab value="merge_requests">Merge requests {mrs.data ? `(${mrs.data.length})` : ''}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="issues" pt="md">
          <Board query={issues} columns={issueColumns} what="issues" from={itemsOf(of)} hrefOf={consoleIssueHref} />
        </Tabs.Panel>
        <Tabs.Panel value="merge_requests" pt="md">
          <Board query={mrs} columns={mergeRequestColumns} what="merge requests" from={itemsOf(of)} hrefOf={consoleMergeRequestHref} />
        </Tabs.Panel>
      </Tabs>
      <MilestoneDialog of={of} milestone={milestone} opened={editing} onClose={() => setEditing(false)} />
    </Stack>
  );
}

function ProgressCard({ label, done, total, unit }: { label: string; done: number; total: number; unit: string }) {
  const percent = total === 0 ? 0 : Math.round((done / total) * 100);
  return (
    <Card withBorder>
      <Group justify="space-between" mb={6}>
        <Text size="sm" fw={600}>
          {label}
        </Text>
        <Text size="sm" aria-label={`${label}: ${done} of ${total} ${unit}`}>
          {done} / {total} ({percent}%)
        </Text>
      </Group>
      <Progress value={percent} aria-label={label} />
    </Card>
  );
}

type BoardColumn = { title: string; holds: (i: BoardItem) => boolean };

/** An issue's page in the console (its `web_url` is the platform's page, which the console does not serve). */
const consoleIssueHref = (i: BoardItem) => (i.references ? issueHrefOf({ iid: i.iid, references: i.references }) : null);

/** A merge request's page in the console, from its full reference (`acme/website!4`). */
const consoleMergeRequestHref = (i: BoardItem) => {
  const full = i.references?.full;
  const at = full?.lastIndexOf('!') ?? -1;
  return full && at > 0 ? mergeRequestHref(full.slice(0, at), i.iid) : null;
};

/** The platform's milestone board: each column a state the items are in. */
function Board({ query, columns, what, from, hrefOf }: { query: QueryLike<unknown[]>; columns: BoardColumn[]; what: string; from: string; hrefOf?: (i: BoardItem) => string | null }) {
  return (
    <QueryContent
      query={query}
      what={what}
      errorTitle={`The ${what} could not be loaded`}
      empty={(data) => data.length === 0 && <EmptyState title={`No ${what} in this milestone`}>Set this milestone on {what} of {from} to see them here.</EmptyState>}
    >
      {(data) => <BoardColumns items={data as BoardItem[]} columns={columns} what={what} hrefOf={hrefOf} />}
    </QueryContent>
  );
}

function BoardColumns({ items, columns, what, hrefOf }: { items: BoardItem[]; columns: BoardColumn[]; what: string; hrefOf?: (i: BoardItem) => string | null }) {
  return (
    <SimpleGrid cols={{ base: 1, md: columns.length }}>
      {columns.map((c) => {
        const held = items.filter(c.holds);
        return (
          <Card withBorder key={c.title} component="section" aria-label={`${c.title} ${what}`} padding="sm">
            <Group justify="space-between" mb="xs">
              <Text fw={600} size="sm">
                {c.title}
              </Text>
              <Badge variant="light" color="gray">
                {held.length}
              </Badge>
            </Group>
            <Stack gap={6}>
              {held.map((i) => (
                <Card key={i.id} withBorder padding="xs">
                  <ItemLink item={i} to={hrefOf?.(i) ?? null} />
                  <Text size="xs" c="dimmed">
                    {i.references?.full ?? `#${i.iid}`}
                    {typeof i.weight === 'number' ? ` · weight ${i.weight}` : ''}
                  </Text>
                </Card>
              ))}
            </Stack>
          </Card>
        );
      })}
    </SimpleGrid>
  );
}

/** An item's title, linked to its console page where it has one, else to its web_url. */
function ItemLink({ item, to }: { item: BoardItem; to: string | null }) {
  return to ? (
    <Anchor component={Link} to={to} size="sm" fw={500}>
      {item.title}
    </Anchor>
  ) : (
    <Anchor href={item.web_url} size="sm" fw={500}>
      {item.title}
    </Anchor>
  );
}
