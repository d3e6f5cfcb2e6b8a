import { Alert, Anchor, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link, useNavigate } from 'react-router';
import type { ErrorStatus, TrackedErrorDetails } from '../../../../shared/src/error-tracking.ts';
import { useCreateIssueFromError, useSetErrorStatus, useTrackedError } from '../../api/error-tracking.ts';
import { Fact } from '../../components/Fact.tsx';
import { IconArrowLeft, IconLock, IconPlus } from '../../components/icons.tsx';
import { notifySuccess } from '../../components/notify.ts';
import { RoleForbidden } from '../../components/ResourcePage.tsx';
import { NotFoundState, QueryContent } from '../../components/states.tsx';
import { formatNumber, roleName } from '../../format.ts';
import { errorTrackingHref, issueHref, issueHrefOf } from '../../paths.ts';
import { useProjectContext } from '../projects/project-context.ts';
import { dayName, FORBIDDEN_HINT, FORBIDDEN_TITLE, frequencySummary, hourName, STATUS_LABELS } from './error-model.ts';
import { StatusBadge, When } from './error-parts.tsx';
import { FrequencyBars } from './FrequencyBars.tsx';
import { StackTrace } from './StackTrace.tsx';

/** The status changes open from each status, with their button and what the toast says. */
const MOVES: { to: ErrorStatus; label: string; from: ErrorStatus[]; done: string }[] = [
  { to: 'resolved', label: 'Resolve', from: ['unresolved', 'ignored'], done: 'resolved' },
  { to: 'ignored', label: 'Ignore', from: ['unresolved'], done: 'ignored' },
  { to: 'unresolved', label: 'Reopen', from: ['resolved', 'ignored'], done: 'unresolved again' },
];
const UPDATES_ROLE = 'Reporters, Developers, Maintainers and Owners of the project change an error’s status and make issues of errors.';

/** …/-/error_tracking/<id>: one error, its frequency and its latest stack trace; resolve, ignore, reopen, create an issue. */
export function ErrorDetailPage({ id }: { id: number }) {
  const { project } = useProjectContext();
  const found = useTrackedError(project.id, id);
  const listHref = errorTrackingHref(project.path_with_namespace);
  return (
    <QueryContent
      query={found}
      what="the error"
      notFound={
        <NotFoundState title="Error not found" action={<Button component={Link} to={listHref} variant="default">All errors</Button>}>
          Error #{id} does not exist in {project.name_with_namespace}.
        </NotFoundState>
      }
      forbidden={<RoleForbidden title={FORBIDDEN_TITLE} hint={FORBIDDEN_HINT} />}
    >
      {(e) => <TrackedErrorView e={e} listHref={listHref} />}
    </QueryContent>
  );
}

function TrackedErrorView({ e, listHref }: { e: TrackedErrorDetails; listHref: string }) {
  const { project, role } = useProjectContext();
  const navigate = useNavigate();
  const move = useSetErrorStatus(project.id, e.id, { meta: { errorTitle: 'The error’s status was not changed', forbidden: UPDATES_ROLE } });
  const createIssue = useCreateIssueFromError(project.id, e.id, { meta: { errorTitle: 'The issue was not created', forbidden: UPDATES_ROLE } });
  const canUpdate = role.can('update_error_tracking');
  const run = (to: ErrorStatus, done: string) => move.mutate(to, { onSuccess: () => notifySuccess('Status changed', `The error is ${done}.`) });
  const makeIssue = () =>
    createIssue.mutate(undefined, {
      onSuccess: (issue) => {
        notifySuccess('Issue created', `Issue #${issue.iid} holds the error’s stack trace and links back to it.`);
        void navigate(issueHrefOf(issue));
      },
    });

  return (
    <Stack gap="md">
      <Button component={Link} to={listHref} variant="subtle" leftSection={<IconArrowLeft size={16} />} px={0} w="fit-content">
        Errors
      </Button>
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <Stack gap={4} style={{ flex: '1 1 420px', minWidth: 0 }}>
          <Group gap="sm" align="flex-start" wrap="nowrap">
            <div style={{ flexShrink: 0, marginTop: 6 }}>
              <StatusBadge status={e.status} />
            </div>
            <Title order={2} size="h3" style={{ wordBreak: 'break-word' }}>
              {e.title}
            </Title>
          </Group>
          {e.culprit && (
            <Text size="sm" c="dimmed" ff="monospace" style={{ wordBreak: 'break-all' }}>
              {e.culprit}
            </Text>
          )}
        </Stack>
        {canUpdate && (
          <Group gap="xs">
            {MOVES.filter((m) => m.from.includes(e.status)).map((m) => (
              <Button key={m.to} variant="default" loading={move.isPending && move.variables === m.to} disabled={move.isPending} onClick={() => run(m.to, m.done)}>
                {m.label}
              </Button>
            ))}
            {e.gitlab_issue_iid === null && (
              <Button leftSection={<IconPlus size={16} />} loading={createIssue.isPending} onClick={makeIssue}>
                Create issue
              </Button>
            )}
          </Group>
        )}
      </Group>
      {!canUpdate && (
        <Alert color="gray" variant="light" icon={<IconLock size={16} />} title="You can read this error but not change it" p="sm">
          {UPDATES_ROLE} {role.level ? `Your role here is ${roleName(role.level)}.` : 'You are not a member of the project.'}
        </Alert>
      )}
      <Paper withBorder p="md" radius="md">
        <SimpleGrid cols={{ base: 2, sm: 3, xl: 6 }} spacing="md">
          <Fact label="Status">{STATUS_LABELS[e.status]}</Fact>
          <Fact label="Events">{formatNumber(e.count)}</Fact>
          <Fact label="Users">{formatNumber(e.user_count)}</Fact>
          <Fact label="First seen">
            <When iso={e.first_seen} />
          </Fact>
          <Fact label="Last seen">
            <When iso={e.last_seen} />
          </Fact>
          <Fact label="Issue">
            {e.gitlab_issue_iid !== null ? (
              <Anchor component={Link} to={issueHref(project.path_with_namespace, e.gitlab_issue_iid)} size="sm">
                #{e.gitlab_issue_iid}
              </Anchor>
            ) : (
              'None'
            )}
          </Fact>
        </SimpleGrid>
      </Paper>
      {e.message && e.message !== e.title && !e.title.endsWith(e.message) && (
        <div>
          <Title order={3} size="h5">
            Message
          </Title>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {e.message}
          </Text>
        </div>
      )}
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Frequency title="Last 24 hours" buckets={e.frequency} summary={frequencySummary(e.frequency, '24 hours', hourName)} axis={['24 hours ago', 'now']} />
        <Frequency title="Last 30 days" buckets={e.frequency_30_days} summary={frequencySummary(e.frequency_30_days, '30 days', dayName)} axis={['30 days ago', 'today']} />
      </SimpleGrid>
      <div>
        <Title order={3} size="h4" mb="xs">
          Stack trace
        </Title>
        <StackTrace frames={e.stack_trace_entries} />
      </div>
    </Stack>
  );
}

/** A frequency chart: its title, the bars (an image named by the summary), the summary in text under it. */
function Frequency({ title, buckets, summary, axis }: { title: string; buckets: [number, number][]; summary: string; axis: [string, string] }) {
  return (
    <Paper withBorder p="md" radius="md">
      <Title order={3} size="h5" mb="xs">
        {title}
      </Title>
      <FrequencyBars buckets={buckets} label={summary} width={360} height={64} decorative />
      <Group justify="space-between" w={360} maw="100%" aria-hidden>
        <Text size="xs" c="dimmed">
          {axis[0]}
        </Text>
        <Text size="xs" c="dimmed">
          {axis[1]}
        </Text>
      </Group>
      <Text size="sm" mt={4}>
        {summary}
      </Text>
    </Paper>
  );
}
