import { Badge, Group, Skeleton, Stack, Text } from '@mantine/core';
import type { Webhook } from '../../../../shared/src/hooks.ts';
import { useHooksHealth } from '../../api/hooks.ts';
import { formatTotal } from '../../format.ts';
import { failureText, statusCategory } from './hook-format.ts';
import { useHookScope } from './hook-scope.ts';
import { AlertStatusBadge, RelativeTime, StatusBadge } from './status-parts.tsx';

/**
 * How a hook is doing: paused or not, how many of its deliveries of the past seven days failed,
 * the last failure (status or why there was no answer, and when) and the newest delivery. A hook
 * whose newest delivery is a 200 among timeouts must not look healthy. Every cell reads its
 * hook's entry from the one health request of the list.
 */
export function HealthCell({ hook }: { hook: Webhook }) {
  const { owner } = useHookScope();
  const health = useHooksHealth(owner);
  const entry = health.data?.get(hook.id);
  // A hook the list knows and the health answer does not yet (just added): its health is being read again.
  if (health.isPending || (!entry && health.isFetching)) {
    return (
      <Stack gap={6} align="flex-start" miw={170}>
        <AlertStatusBadge hook={hook} />
        <Skeleton height={20} width={140} aria-label="Loading the deliveries of the past 7 days" />
      </Stack>
    );
  }
  if (health.isError || !entry) {
    return (
      <Stack gap={6} align="flex-start" miw={170}>
        <AlertStatusBadge hook={hook} />
        <Text size="xs" c="dimmed">
          Health unknown ({health.error?.status === 403 ? 'not allowed' : 'could not be read'})
        </Text>
      </Stack>
    );
  }
  const { total, failed, latest, last_failure: lastFailure } = entry;
  const rate = failed === 0 ? 'teal' : failed !== null && failed === total ? 'red' : 'orange';
  return (
    <Stack gap={6} align="flex-start" miw={170}>
      <AlertStatusBadge hook={hook} />
      {total === 0 ? (
        <Text size="xs" c="dimmed">
          No deliveries in the past 7 days
        </Text>
      ) : (
        <Stack gap={4}>
          <Group gap={6} wrap="wrap">
            <Badge color={rate} variant="light" tt="none" size="md" fw={650}>
              {failed !== 0 ? `${formatTotal(failed)} of ${formatTotal(total)} failed` : total === 1 ? '1 succeeded' : `All ${formatTotal(total)} succeeded`}
            </Badge>
            <Text size="xs" c="dimmed">
              in the past 7 days
            </Text>
          </Group>
          {lastFailure && (
            <Group gap={4} wrap="wrap">
              <Text span size="xs" fw={600} style={{ whiteSpace: 'nowrap' }} c={statusCategory(lastFailure.response_status) === 'client_failure' ? 'var(--mantine-color-orange-text)' : 'var(--mantine-color-red-text)'}>
                Last failure: {failureText(lastFailure)}
              </Text>
              <RelativeTime iso={lastFailure.created_at} size="xs" />
            </Group>
          )}
          {latest && latest.id !== lastFailure?.id && (
            <Group gap={6} wrap="nowrap">
              <Text span size="xs" c="dimmed">
                Newest
              </Text>
              <StatusBadge status={latest.response_status} size="sm" />
              <RelativeTime iso={latest.created_at} size="xs" />
            </Group>
          )}
        </Stack>
      )}
    </Stack>
  );
}
