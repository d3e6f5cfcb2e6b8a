import { Avatar, Badge, Group, Text, Tooltip } from '@mantine/core';
import type { Issue } from '../../../../shared/src/issues.ts';
import type { Label } from '../../../../shared/src/labels.ts';

/*
 * The small pieces the issue list and the issue page share: the state badge, the labels and
 * the people.
 */

/** Open or Closed, in words and colour (the colour is never the only sign). */
export function IssueStateBadge({ state, size = 'sm' }: { state: Issue['state']; size?: 'sm' | 'md' | 'lg' }) {
  return (
    <Badge size={size} variant="light" color={state === 'opened' ? 'green' : 'blue'}>
      {state === 'opened' ? 'Open' : 'Closed'}
    </Badge>
  );
}

/** Label names → their colours, from the labels of the project or group (a name not among them is grey). */
export const labelColors = (labels: Label[] | undefined) => new Map((labels ?? []).map((l) => [l.name, l.color]));

/**
 * An issue's labels, each with a dot of its colour beside its name in the page's text colour:
 * a label's own text colour on its background is often too faint to read.
 */
export function LabelBadges({ names, colors }: { names: string[]; colors: Map<string, string> }) {
  if (names.length === 0) return null;
  return (
    <Group gap={4} wrap="wrap" component="ul" aria-label="Labels" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {names.map((n) => (
        <Badge key={n} component="li" variant="dot" color={colors.get(n) ?? 'gray'} size="sm" tt="none" fw={500} c="dark">
          {n}
        </Badge>
      ))}
    </Group>
  );
}

type Person = Issue['assignees'][number];

/** The assignees as small avatars with their names on hover, and in words for screen readers. */
export function AssigneeAvatars({ people }: { people: Person[] }) {
  if (people.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        None
      </Text>
    );
  }
  return (
    <Avatar.Group spacing="xs">
      {people.map((p) => (
        <Tooltip key={p.id} label={p.name} withArrow>
          <Avatar src={p.avatar_url} name={p.name} alt={p.name} size={24} radius="xl" />
        </Tooltip>
      ))}
    </Avatar.Group>
  );
}

/** The assignees by name, for the issue page. */
export function PeopleList({ people }: { people: Person[] }) {
  if (people.length === 0) return <>None</>;
  return (
    <Group gap={6} wrap="wrap">
      {people.map((p) => (
        <Group key={p.id} gap={4} wrap="nowrap">
          <Avatar src={p.avatar_url} name={p.name} alt="" size={20} radius="xl" />
          <span>
            {p.name}{' '}
            <Text span size="xs" c="dimmed">
              @{p.username}
            </Text>
          </span>
        </Group>
      ))}
    </Group>
  );
}
