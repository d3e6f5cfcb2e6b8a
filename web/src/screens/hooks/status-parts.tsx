import { Badge, Group, Text } from '@mantine/core';
import type { Webhook } from '../../../../shared/src/hooks.ts';
import './hook-cells.css';
import { CATEGORY_COLORS, CATEGORY_LABELS, clockTime, fromNow, fullDateTime, hasHttpAnswer, shortTime, statusCategory, statusText } from './hook-format.ts';

/**
 * A delivery's HTTP status, coloured by its category; the category is spelled out for screen
 * readers and on hover (a native title: a log draws fifty of these, and a Tooltip each made
 * changing its filter slow; the detail panel, reached by keyboard, shows the same).
 */
export function StatusBadge({ status, size = 'md' }: { status: string; size?: 'sm' | 'md' | 'lg' }) {
  const category = statusCategory(status);
  const explained = hasHttpAnswer(status) ? CATEGORY_LABELS[category] : 'No HTTP response (the request failed or timed out)';
  return (
    <Badge
      title={explained}
      color={CATEGORY_COLORS[category]}
      variant="light"
      size={size}
      tt="none"
      ff={hasHttpAnswer(status) ? 'monospace' : undefined}
      fw={700}
      miw={48}
      style={{ position: 'relative', flexShrink: 0, overflow: 'visible' }}
    >
      {statusText(status)}
      <span className="gh-visually-hidden"> ({explained})</span>
    </Badge>
  );
}

/** "5 minutes ago", with the exact time on hover (a native title, as the status's) and in the markup; `withClock` adds the time of day below. */
export function RelativeTime({ iso, size = 'sm', withClock = false }: { iso: string; size?: 'xs' | 'sm'; withClock?: boolean }) {
  return (
    <time className="gh-time" data-size={size} dateTime={iso} title={fullDateTime(iso)}>
      {fromNow(iso)}
      {withClock && <span className="gh-time-clock">{clockTime(iso)}</span>}
    </time>
  );
}

/** "Disabled", or "Temporarily disabled" with when it ends below; nothing for a hook that receives events. */
export function AlertStatusBadge({ hook }: { hook: Pick<Webhook, 'alert_status' | 'disabled_until'> }) {
  if (hook.alert_status === 'disabled') {
    return (
      <Badge color="red" variant="filled" tt="none" size="md">
        Disabled
      </Badge>
    );
  }
  if (hook.alert_status === 'temporarily_disabled') {
    const until = hook.disabled_until;
    return (
      <Group gap={6} wrap="wrap">
        <Badge color="orange" variant="filled" tt="none" size="md">
          Temporarily disabled
        </Badge>
        {until && (
          <Text size="xs" c="orange.9" fw={500} component="time" dateTime={until} title={fullDateTime(until)} style={{ whiteSpace: 'nowrap' }}>
            until {shortTime(until)}
          </Text>
        )}
      </Group>
    );
  }
  return null;
}
