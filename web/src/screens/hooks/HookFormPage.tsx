import { Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useHook } from '../../api/hooks.ts';
import { IconArrowLeft } from '../../components/icons.tsx';
import { NotFoundState, QueryContent } from '../../components/states.tsx';
import { DisabledBanner } from './DisabledBanner.tsx';
import { hookTitle } from './hook-format.ts';
import { useHookScope } from './hook-scope.ts';
import { HookForm } from './HookForm.tsx';
import { TestMenu } from './TestMenu.tsx';

export function BackToHooks() {
  const { href } = useHookScope();
  return (
    <Anchor component={Link} to={href()} size="sm">
      <Group gap={4} component="span">
        <IconArrowLeft size={14} />
        All webhooks
      </Group>
    </Anchor>
  );
}

/** …/-/hooks/new and …/-/hooks/:hook_id/edit: the one form, empty or filled with the hook. */
export function HookFormPage({ hookId }: { hookId?: number }) {
  return hookId === undefined ? <NewHook /> : <EditHook hookId={hookId} />;
}

function NewHook() {
  const { ownerName } = useHookScope();
  return (
    <Stack gap="md">
      <BackToHooks />
      <div>
        <Title order={2} size="h3">
          Add a webhook
        </Title>
        <Text c="dimmed" size="sm">
          Events of {ownerName} will be POSTed to the URL you give.
        </Text>
      </div>
      <HookForm hook={null} />
    </Stack>
  );
}

function EditHook({ hookId }: { hookId: number }) {
  const { owner, href, forbidden } = useHookScope();
  const hook = useHook(owner, hookId);

  return (
    <Stack gap="md">
      <BackToHooks />
      <QueryContent
        query={hook}
        what="the webhook"
        // Placeholder data from the list is not enough to edit: secrets' keys must be current.
        ready={!hook.isPlaceholderData}
        notFound={
          <NotFoundState
            title="Webhook not found"
            action={
              <Button component={Link} to={href()} variant="default">
                All webhooks
              </Button>
            }
          >
            It may have been deleted.
          </NotFoundState>
        }
        forbidden={forbidden()}
      >
        {(data) => (
          <Stack gap="md">
            <Group justify="space-between" align="flex-start" gap="sm">
              <div style={{ flex: '1 1 320px', minWidth: 0 }}>
                <Title order={2} size="h3" style={{ overflowWrap: 'anywhere' }}>
                  Edit “{hookTitle(data)}”
                </Title>
                <Text c="dimmed" size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                  {data.url}
                </Text>
              </div>
              <Group gap="xs">
                <TestMenu hook={data} size="sm" />
                <Button component={Link} to={href(`${data.id}/events`)} variant="default">
                  Deliveries
                </Button>
              </Group>
            </Group>
            <DisabledBanner hooks={[data]} linkToLog={false} />
            {/* Read once: a refetch in the background (after a test, say) must not wipe what is being typed. */}
            <HookForm hook={data} />
          </Stack>
        )}
      </QueryContent>
    </Stack>
  );
}
