import { ActionIcon, Badge, Button, Group, Stack, Text, Tooltip } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { Link } from 'react-router';
import { HOOK_EVENTS, hookFlagsFor } from '../../../../shared/src/hook-events.ts';
import type { Webhook } from '../../../../shared/src/hooks.ts';
import type { HookScope } from '../../api/hooks.ts';
import { IconList, IconPencil, IconTrash } from '../../components/icons.tsx';
import { HealthCell } from './HealthCell.tsx';
import { hookTitle } from './hook-format.ts';
import { TestMenu } from './TestMenu.tsx';

const col = createColumnHelper<Webhook>();

/** Up to three event kinds by name, then "+N more" with the rest on hover. */
export function EventsCell({ hook, scope }: { hook: Webhook; scope: HookScope }) {
  const on = hookFlagsFor(scope).filter((f) => hook[f]);
  if (on.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No events
      </Text>
    );
  }
  const shown = on.slice(0, 3);
  const rest = on.slice(3);
  return (
    <Group gap={4} maw={260}>
      {shown.map((f) => (
        <Badge key={f} variant="outline" color="gray" size="sm" tt="none" fw={500}>
          {HOOK_EVENTS[f].label}
        </Badge>
      ))}
      {rest.length > 0 && (
        <Tooltip label={rest.map((f) => HOOK_EVENTS[f].label).join(', ')} multiline w={240}>
          <Badge variant="light" color="gray" size="sm" tt="none" fw={500} tabIndex={0}>
            +{rest.length} more
          </Badge>
        </Tooltip>
      )}
      {hook.push_events && hook.branch_filter_strategy !== 'all_branches' && hook.push_events_branch_filter && (
        <Text size="xs" c="dimmed" w="100%">
          Pushes to <code>{hook.push_events_branch_filter}</code>
          {hook.branch_filter_strategy === 'regex' ? ' (regex)' : ''}
        </Text>
      )}
    </Group>
  );
}

/** Name (a link to the form), URL, description and warnings of one hook. */
export function HookIdentity({ hook: h, href }: { hook: Webhook; href: (sub?: string) => string }) {
  return (
    <Stack gap={2} miw={200} maw={360}>
      <Link to={href(`${h.id}/edit`)} className="gh-table-link" style={{ overflowWrap: 'anywhere' }}>
        {hookTitle(h)}
      </Link>
      {h.name.trim() && (
        <Text size="xs" c="dimmed" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
          {h.url}
        </Text>
      )}
      {h.description && (
        <Text size="xs" c="dimmed" lineClamp={2}>
          {h.description}
        </Text>
      )}
      {!h.enable_ssl_verification && (
        <Badge color="yellow" variant="light" size="xs" tt="none" mt={2}>
          SSL verification off
        </Badge>
      )}
    </Stack>
  );
}

/** Test, deliveries, edit and delete of one hook. */
export function HookActions({ hook: h, href, onDelete }: { hook: Webhook; href: (sub?: string) => string; onDelete: (hook: Webhook) => void }) {
  const title = hookTitle(h);
  return (
    <Group gap={6} wrap="nowrap" justify="flex-end">
      <TestMenu hook={h} />
      <Button component={Link} to={href(`${h.id}/events`)} size="compact-sm" variant="default" leftSection={<IconList size={14} />} aria-label={`Deliveries of ${title}`}>
        Deliveries
      </Button>
      <Tooltip label="Edit" openDelay={300}>
        <ActionIcon component={Link} to={href(`${h.id}/edit`)} variant="default" size={26} aria-label={`Edit ${title}`}>
          <IconPencil size={15} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label="Delete" openDelay={300}>
        <ActionIcon variant="light" color="red" size={26} onClick={() => onDelete(h)} aria-label={`Delete ${title}`}>
          <IconTrash size={15} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}

export interface HookRowActions {
  scope: HookScope;
  href: (sub?: string) => string;
  onDelete: (hook: Webhook) => void;
}

export function hookColumns({ scope, href, onDelete }: HookRowActions) {
  return [
    col.accessor('url', {
      header: 'Webhook',
      cell: ({ row }) => <HookIdentity hook={row.original} href={href} />,
    }),
    col.display({
      id: 'events',
      header: 'Events',
      meta: { hideNarrow: true },
      cell: ({ row }) => <EventsCell hook={row.original} scope={scope} />,
    }),
    col.display({
      id: 'health',
      header: 'Health',
      meta: { width: 220 },
      cell: ({ row }) => <HealthCell hook={row.original} />,
    }),
    col.display({
      id: 'actions',
      header: () => <span className="gh-visually-hidden">Actions</span>,
      meta: { width: 280 },
      cell: ({ row }) => <HookActions hook={row.original} href={href} onDelete={onDelete} />,
    }),
  ];
}
