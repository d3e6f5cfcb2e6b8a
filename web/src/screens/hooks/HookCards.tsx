import { Paper, Stack } from '@mantine/core';
import type { Webhook } from '../../../../shared/src/hooks.ts';
import type { HookScope } from '../../api/hooks.ts';
import { EventsCell, HookActions, HookIdentity } from './hook-columns.tsx';
import { HealthCell } from './HealthCell.tsx';
import { hookTitle } from './hook-format.ts';

/** The hooks on a phone: one card each, so health and actions are in view without scrolling sideways. */
export function HookCards({ hooks, scope, href, onDelete }: { hooks: Webhook[]; scope: HookScope; href: (sub?: string) => string; onDelete: (hook: Webhook) => void }) {
  return (
    <Stack gap="sm" component="ul" p={0} m={0} aria-label="Webhooks" style={{ listStyle: 'none' }}>
      {hooks.map((h) => (
        <Paper key={h.id} component="li" withBorder radius="md" p="sm" aria-label={hookTitle(h)}>
          <Stack gap="sm">
            <HookIdentity hook={h} href={href} />
            <HealthCell hook={h} />
            <EventsCell hook={h} scope={scope} />
            <HookActions hook={h} href={href} onDelete={onDelete} />
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}
