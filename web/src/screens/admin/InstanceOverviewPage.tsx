import type { ReactNode } from 'react';
import { Alert, Anchor, Badge, Button, Code, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import type { InstanceOverview } from '../../../../shared/src/instance.ts';
import { useInstanceOverview } from '../../api/instance.ts';
import { IconAlert, IconRefresh } from '../../components/icons.tsx';
import { QueryContent } from '../../components/states.tsx';
import { formatCount, formatNumber, fromNow, fullDateTime } from '../../format.ts';
import { adminHref } from '../../paths.ts';
import { AdminForbidden } from './admin-states.tsx';

const DATABASES: Record<InstanceOverview['database'], string> = { sqlite: 'SQLite', postgresql: 'PostgreSQL' };

function Figure({ label, value, hint, tone }: { label: string; value: ReactNode; hint?: ReactNode; tone?: 'bad' }) {
  return (
    <Paper withBorder radius="md" p="md" component="dl" m={0}>
      <Text component="dt" size="sm" c="dimmed">
        {label}
      </Text>
      <Text component="dd" m={0} fz={26} fw={700} c={tone === 'bad' ? 'red.8' : undefined}>
        {value}
      </Text>
      {hint && (
        <Text component="dd" m={0} size="xs" c="dimmed">
          {hint}
        </Text>
      )}
    </Paper>
  );
}

/** /admin: what runs (version, database), how much it holds, and whether background work keeps up, with a refresh. */
export default function InstanceOverviewPage() {
  const overview = useInstanceOverview();
  return (
    <QueryContent query={overview} what="the instance overview" forbidden={<AdminForbidden />}>
      {(o) => <Overview o={o} overview={overview} />}
    </QueryContent>
  );
}

/** The loaded overview `o`; `overview` is its query, for the refresh and the time of its data. */
function Overview({ o, overview }: { o: InstanceOverview; overview: ReturnType<typeof useInstanceOverview> }) {
  const { jobs } = o;

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start" gap="sm">
        <div>
          <Title order={2} size="h3">
            Instance overview
          </Title>
          <Text size="sm" c="dimmed" aria-live="polite">
            Gatehouse {o.version} on {DATABASES[o.database]} · as of {new Date(overview.dataUpdatedAt).toLocaleTimeString()}
          </Text>
        </div>
        <Button variant="default" leftSection={<IconRefresh size={16} />} loading={overview.isFetching} onClick={() => void overview.refetch()}>
          Refresh
        </Button>
      </Group>
      {overview.isError && <Alert color="red" variant="light" icon={<IconAlert />} title="The overview could not be refreshed">{overview.error.message} The figures below are from the last successful load.</Alert>}

      <section aria-labelledby="instance-software">
        <Title order={3} size="h4" id="instance-software" mb="xs">
          Software
        </Title>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <Figure label="Version" value={o.version} />
          <Figure label="Database" value={DATABASES[o.database]} hint={o.database === 'sqlite' ? 'A file in the data directory; set DATABASE_URL to run several instances on PostgreSQL.' : 'Shared by every instance that points at it.'} />
        </SimpleGrid>
      </section>

      <section aria-labelledby="instance-counts">
        <Title order={3} size="h4" id="instance-counts" mb="xs">
          Contents
        </Title>
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
          <Figure label="Users" value={formatNumber(o.counts.users)} hint={`${formatCount(o.counts.admins, 'administrator', 'administrators')} · ${formatNumber(o.counts.blocked_users)} blocked`} />
          <Figure label="Bot users" value={formatNumber(o.counts.bots)} hint="Behind group access tokens" />
          <Figure label="Groups" value={formatNumber(o.counts.groups)} />
          <Figure label="Projects" value={formatNumber(o.counts.projects)} hint={`${formatCount(o.counts.hooks, 'webhook', 'webhooks')} in all`} />
        </SimpleGrid>
      </section>

      <section aria-labelledby="instance-jobs">
        <Title order={3} size="h4" id="instance-jobs" mb="xs">
          Job queue
        </Title>
        <Text size="sm" c="dimmed" mb="sm" maw={720}>
          Webhook deliveries and housekeeping run as jobs in the database, shared by every instance. A queue that keeps growing, or a waiting job
          that is long overdue, means the workers do not keep up (see GATEHOUSE_WORKERS).
        </Text>
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
          <Figure label="Waiting" value={formatNumber(jobs.pending)} hint="Due now or retrying later" />
          <Figure label="Running" value={formatNumber(jobs.running)} />
          <Figure
            label="Oldest due job"
            value={jobs.oldest_due_at ? fromNow(jobs.oldest_due_at) : 'None'}
            hint={jobs.oldest_due_at ? `Due since ${fullDateTime(jobs.oldest_due_at)}` : 'Nothing is waiting to run'}
          />
          <Figure label="Failed jobs" value={formatNumber(jobs.failed)} tone={jobs.failed > 0 ? 'bad' : undefined} hint="Gave up after their last attempt" />
        </SimpleGrid>
        {jobs.last_failure ? (
          <Paper withBorder radius="md" p="md" mt="sm">
            <Group gap="xs" mb={4}>
              <Badge color="red" variant="light" tt="none">
                Last failure
              </Badge>
              <Code>{jobs.last_failure.kind}</Code>
              <Text size="sm" c="dimmed" title={fullDateTime(jobs.last_failure.at)}>
                {fromNow(jobs.last_failure.at)}
              </Text>
            </Group>
            <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
              {jobs.last_failure.error ?? 'No error was recorded.'}
            </Text>
          </Paper>
        ) : (
          <Text size="sm" mt="sm">
            No job has failed.
          </Text>
        )}
        <Anchor component={Link} to={jobs.failed > 0 ? `${adminHref('jobs')}?state=failed` : adminHref('jobs')} size="sm" mt="sm" display="inline-block">
          {jobs.failed > 0 ? 'Open the failed jobs to see their errors and retry them' : 'Open Background jobs'}
        </Anchor>
      </section>
    </Stack>
  );
}
