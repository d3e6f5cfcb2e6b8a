import { Badge, Group, Text, useMantineTheme } from '@mantine/core';
import type { Webhook } from '../../../../shared/src/hooks.ts';
import './hook-cells.css';
import { clockTime, fromNow, fullDateTime, shortTime } from '../../format.ts';
import { CATEGORY_COLORS, CATEGORY_LABELS, hasHttpAnswer, statusCategory, statusText } from './hook-format.ts';

type BadgeSize = 'sm' | 'md' | 'lg';

/**
 * The looks of Mantine's light Badge (radius sm, as the theme sets it) as the CSS variables its
 * classes read, worked out once per colour and size: Mantine's Badge works them out at every
 * render (its colour resolver parses the colour each time), and a log draws fifty of them per
 * change of filter.
 */
const badgeLooks = new Map<string, React.CSSProperties>();
function useBadgeLooks(color: string, size: BadgeSize): React.CSSProperties {
  const theme = useMantineTheme();
  const key = `${color} ${size}`;
  let looks = badgeLooks.get(key);
  if (!looks) {
    const colors = theme.variantColorResolver({ color, theme, variant: 'light' });
    looks = {
      '--badge-height': `var(--badge-height-${size})`,
      '--badge-padding-x': `var(--badge-padding-x-${size})`,
      '--badge-fz': `var(--badge-fz-${size})`,
      '--badge-radius': 'var(--mantine-radius-sm)',
      '--badge-bg': colors.background,
      '--badge-color': colors.color,
      '--badge-bd': colors.border,
      textTransform: 'none',
      fontWeight: 700,
      minWidth: 48,
      position: 'relative',
      flexShrink: 0,
      overflow: 'visible',
    } as React.CSSProperties;
    badgeLooks.set(key, looks);
  }
  return looks;
}
const MONO = { fontFamily: 'var(--mantine-font-family-monospace)' };

/**
 * A delivery's HTTP status, coloured by its category; the category is spelled out for screen
 * readers and on hover (a native title: a log draws fifty of these, and a Tooltip each made
 * changing its filter slow; the detail panel, reached by keyboard, shows the same). Drawn with
 * Badge's classes rather than the component, for the same reason.
 */
export function StatusBadge({ status, size = 'md' }: { status: string; size?: BadgeSize }) {
  const category = statusCategory(status);
  const answered = hasHttpAnswer(status);
  const explained = answered ? CATEGORY_LABELS[category] : 'No HTTP response (the request failed or timed out)';
  const looks = useBadgeLooks(CATEGORY_COLORS[category], size);
  return (
    <div className={Badge.classes.root} data-variant="light" data-size={size} title={explained} style={answered ? { ...looks, ...MONO } : looks}>
      <span className={Badge.classes.label}>
        {statusText(status)}
        <span className="gh-visually-hidden"> ({explained})</span>
      </span>
    </div>
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
          <Text size="xs" c="orange" fw={500} component="time" dateTime={until} title={fullDateTime(until)} style={{ whiteSpace: 'nowrap' }}>
            until {shortTime(until)}
          </Text>
        )}
      </Group>
    );
  }
  return null;
}
