import { Badge, Button, Group, Menu, Text } from '@mantine/core';
import { useAwards, useToggleAward, type AwardableRef } from '../../api/award-emoji.ts';
import { useCurrentUser } from '../../api/session.ts';
import { IconPlus } from '../../components/icons.tsx';
import { groupReactions, OFFERED_EMOJI, reactionLabel } from './reactions-model.ts';

/**
 * The emoji reactions on an issue, a merge request or one of their comments: a button per emoji
 * with its count (pressed when the reader's own is among them: a click takes it back), and an
 * "add a reaction" menu. Those who may not react see the counts only.
 */
export function Reactions({ target, canReact, what }: { target: AwardableRef; canReact: boolean; what: string }) {
  const me = useCurrentUser();
  const awards = useAwards(target);
  const toggle = useToggleAward(target, { meta: { errorTitle: 'The reaction was not saved' } });
  if (awards.isError) {
    return (
      <Text size="xs" c="dimmed">
        The reactions could not be loaded.
      </Text>
    );
  }
  const groups = groupReactions(awards.data ?? [], me.username);
  if (!canReact && groups.length === 0) return null;
  const given = new Set(groups.filter((g) => g.mine !== null).map((g) => g.name));
  return (
    <Group gap={6} role="group" aria-label={`Reactions to ${what}`} aria-busy={awards.isPending || toggle.isPending}>
      {groups.map((g) =>
        canReact ? (
          <Button
            key={g.name}
            size="compact-sm"
            radius="xl"
            variant={g.mine !== null ? 'light' : 'default'}
            aria-pressed={g.mine !== null}
            aria-label={reactionLabel(g)}
            title={g.people.join(', ')}
            disabled={toggle.isPending}
            onClick={() => toggle.mutate(g.mine !== null ? { remove: g.mine } : { add: g.name })}
          >
            <span aria-hidden="true">{g.glyph}</span>&nbsp;{g.count}
          </Button>
        ) : (
          <Badge key={g.name} variant="default" radius="xl" size="lg" tt="none" fw={500} aria-label={reactionLabel(g)} title={g.people.join(', ')}>
            <span aria-hidden="true">
              {g.glyph} {g.count}
            </span>
          </Badge>
        ),
      )}
      {canReact && (
        <Menu position="bottom-start" withinPortal>
          <Menu.Target>
            <Button size="compact-sm" radius="xl" variant="subtle" color="gray" leftSection={<IconPlus size={14} />} aria-label={`Add a reaction to ${what}`} disabled={awards.isPending}>
              React
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            {OFFERED_EMOJI.filter((e) => !given.has(e.name)).map((e) => (
              <Menu.Item key={e.name} leftSection={<span aria-hidden="true">{e.glyph}</span>} onClick={() => toggle.mutate({ add: e.name })}>
                {e.label}
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
      )}
    </Group>
  );
}
