import { Button, Menu, SimpleGrid } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { HOOK_EVENTS, hookFlagsFor, type HookFlag } from '../../../../shared/src/hook-events.ts';
import type { Webhook } from '../../../../shared/src/hooks.ts';
import { useTestHook } from '../../api/hooks.ts';
import { IconChevronDown, IconSend } from '../../components/icons.tsx';
import { isApiError } from '../../api/client.ts';
import { hookTitle } from './hook-format.ts';
import { useHookScope } from './hook-scope.ts';

/**
 * Sends a sample event of the chosen kind to the hook and tells the outcome in a toast. Works on
 * a disabled hook too: a successful test is how one is brought back.
 */
export function TestMenu({ hook, size = 'compact-sm' }: { hook: Webhook; size?: 'compact-sm' | 'sm' }) {
  const { owner } = useHookScope();
  // A 422 (the receiver failed the test) is a result shown in the progress toast, not an error toast.
  const test = useTestHook(owner, { meta: { errorTitle: 'The test was not sent', forbidden: 'You no longer have the role to manage these webhooks.', showsError: (e) => e.status === 422 } });
  const title = hookTitle(hook);

  const send = async (flag: HookFlag | null) => {
    const label = flag ? HOOK_EVENTS[flag].label : 'System event';
    const id = notifications.show({ loading: true, title: `Sending a test: ${label}`, message: `To ${title}…`, autoClose: false, withCloseButton: false });
    try {
      await test.mutateAsync({ hookId: hook.id, flag });
      if (flag === null) {
        // A system hook's test answers what it sent, whatever the receiver said: its answer is in the log.
        notifications.update({ id, loading: false, autoClose: 8000, withCloseButton: true, color: 'blue', title: 'Test sent: a sample project_create event', message: `To ${title}. How it answered is in its delivery log.` });
        return;
      }
      const revived = hook.alert_status !== 'executable';
      notifications.update({
        id,
        loading: false,
        autoClose: 5000,
        withCloseButton: true,
        color: 'teal',
        title: `Test delivered: ${label}`,
        message: `${title} answered with a 2xx status.${revived ? ' The webhook is enabled again.' : ''}`,
      });
    } catch (e) {
      // 422: the event was sent, the receiver failed it (or could not be reached); the reason says which.
      if (isApiError(e) && e.status === 422) {
        notifications.update({ id, loading: false, autoClose: 10_000, withCloseButton: true, color: /^Hook execution failed/.test(e.message) ? 'red' : 'orange', title: `Test failed: ${label}`, message: e.message });
        return;
      }
      // The mutation's toast says why the test was not sent.
      notifications.hide(id);
    }
  };

  // A system hook has one test: a sample system event (project_create), as on the platform.
  if (owner.scope === 'system') {
    return (
      <Button size={size} variant="default" leftSection={<IconSend size={14} />} loading={test.isPending} aria-label={`Test ${title}`} onClick={() => void send(null)}>
        Test
      </Button>
    );
  }

  return (
    <Menu position="bottom-end" shadow="md" width={460} withinPortal>
      <Menu.Target>
        <Button
          size={size}
          variant="default"
          leftSection={<IconSend size={14} />}
          rightSection={<IconChevronDown size={14} />}
          loading={test.isPending}
          aria-label={`Test ${title}`}
        >
          Test
        </Button>
      </Menu.Target>
      {/* Two columns rather than a scrolling list, which axe would have take focus while a menu may
          hold only its items; short enough for the menu to stay put on a laptop screen. */}
      <Menu.Dropdown>
        <Menu.Label>Send a sample event</Menu.Label>
        <SimpleGrid cols={2} spacing={0} verticalSpacing={0}>
          {hookFlagsFor(owner.scope).map((flag) => (
            <Menu.Item key={flag} onClick={() => void send(flag)}>
              {HOOK_EVENTS[flag].label}
            </Menu.Item>
          ))}
        </SimpleGrid>
      </Menu.Dropdown>
    </Menu>
  );
}
