import { Group, Skeleton, Stack, Text } from '@mantine/core';
import type { Webhook } from '../../../../shared/src/hooks.ts';
import { useLatestDelivery } from '../../api/hooks.ts';
import { triggerLabel } from './hook-format.ts';
import { useHookScope } from './hook-scope.ts';
import { AlertStatusBadge, RelativeTime, StatusBadge } from './status-parts.tsx';

/** How a hook is doing: paused or not, and the status of its newest delivery (one record read per hook). */
export function HealthCell({ hook }: { hook: Webhook }) {
  const { owner } = useHookScope();
  const latest = useLatestDelivery(owner, hook.id);
  return (
    <Stack gap={6} align="flex-start" miw={170}>
      <AlertStatusBadge hook={hook} />
      {latest.isPending ? (
        <Skeleton height={20} width={140} aria-label="Loading the last delivery" />
      ) : latest.isError ? (
        <Text size="xs" c="dimmed">
          Last delivery unknown ({latest.error.status === 403 ? 'not allowed' : 'could not be read'})
        </Text>
      ) : latest.data === null ? (
        <Text size="xs" c="dimmed">
          No deliveries in the past 7 days
        </Text>
      ) : (
        <Stack gap={2}>
          <Group gap={6} wrap="nowrap">
            <StatusBadge status={latest.data.response_status} />
            <RelativeTime iso={latest.data.created_at} size="xs" />
          </Group>
          <Text size="xs" c="dimmed">
            Last: {triggerLabel(latest.data.trigger)}
          </Text>
        </Stack>
      )}
    </Stack>
  );
}
