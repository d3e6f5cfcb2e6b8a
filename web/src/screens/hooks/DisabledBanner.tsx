import { Alert, Anchor, List, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { Webhook } from '../../../../shared/src/hooks.ts';
import { IconAlert } from '../../components/icons.tsx';
import { fromNow, fullDateTime } from '../../format.ts';
import { hookTitle } from './hook-format.ts';
import { useHookScope } from './hook-scope.ts';

const pause = (h: Webhook) =>
  h.alert_status === 'disabled' ? 'until it is re-enabled' : h.disabled_until ? `until ${fullDateTime(h.disabled_until)} (${fromNow(h.disabled_until)})` : 'for a while';

/**
 * Says which hooks are not receiving events, why, and how to bring them back. Shown above the
 * list (every paused hook) and above a hook's form and log (that hook).
 */
export function DisabledBanner({ hooks, linkToLog = true }: { hooks: Webhook[]; linkToLog?: boolean }) {
  const { href } = useHookScope();
  const paused = hooks.filter((h) => h.alert_status !== 'executable');
  if (paused.length === 0) return null;
  const one = paused.length === 1 ? paused[0] : null;
  const permanent = paused.some((h) => h.alert_status === 'disabled');
  const title = one ? `“${hookTitle(one)}” is ${one.alert_status === 'disabled' ? 'disabled' : 'temporarily disabled'}` : `${paused.length} webhooks are disabled`;
  const logLink = (h: Webhook, text: string) =>
    linkToLog ? (
      <Anchor component={Link} to={href(`${h.id}/events`)} size="sm">
        {text}
      </Anchor>
    ) : (
      text
    );

  return (
    <Alert color={permanent ? 'red' : 'orange'} variant="light" icon={<IconAlert />} title={title} role="alert">
      <Text size="sm">
        {one
          ? `Its deliveries kept failing, so no events are sent to it ${pause(one)}; events that happen meanwhile are dropped.`
          : 'Their deliveries kept failing, so no events are sent to them for now; events that happen meanwhile are dropped.'}{' '}
        Fix the receiver, then send a <b>Test</b> or <b>Resend</b> a delivery: a successful one re-enables it at once.
        {one && linkToLog && <> {logLink(one, 'See its deliveries.')}</>}
      </Text>
      {!one && (
        <List size="sm" mt="xs" spacing={2}>
          {paused.map((h) => (
            <List.Item key={h.id}>
              {logLink(h, hookTitle(h))}: {h.alert_status === 'disabled' ? 'disabled' : 'paused'} {pause(h)}
            </List.Item>
          ))}
        </List>
      )}
    </Alert>
  );
}
