import { Badge, Text } from '@mantine/core';
import { useHeadPipeline } from '../../api/merge-requests.ts';
import { StatusBadge } from '../pipelines/status.tsx';

export const FORBIDDEN_TITLE = 'You need the Reporter role to see merge requests';
export const FORBIDDEN_HINT = 'The merge requests of a private project are shown to its Reporters, Developers, Maintainers and Owners.';

const STATE_LOOK: Record<string, { label: string; color: string }> = {
  opened: { label: 'Open', color: 'teal' },
  merged: { label: 'Merged', color: 'blue' },
  closed: { label: 'Closed', color: 'red' },
  locked: { label: 'Locked', color: 'gray' },
};

/** A merge request's state as a badge with its word. */
export function MrStateBadge({ state, size = 'sm' }: { state: string; size?: 'sm' | 'md' | 'lg' }) {
  const look = STATE_LOOK[state] ?? { label: state, color: 'gray' };
  return (
    <Badge color={look.color} variant="light" size={size} tt="none">
      {look.label}
    </Badge>
  );
}

/** `feature/x → main`, as people read a merge request's direction. */
export function Branches({ source, target, size = 'sm' }: { source: string; target: string; size?: 'xs' | 'sm' }) {
  return (
    <Text size={size} ff="monospace" component="span" style={{ overflowWrap: 'anywhere' }}>
      {source} <span aria-label="into">→</span> {target}
    </Text>
  );
}

/** A list row's pipeline: the newest of its source branch at its head commit (read per row). */
export function RowPipeline({ projectId, branch, sha }: { projectId: number; branch: string; sha: string | null }) {
  const pipeline = useHeadPipeline(projectId, branch, sha);
  if (sha === null || pipeline.data === null) return <Text size="sm" c="dimmed">None</Text>;
  if (pipeline.isPending) return <Text size="sm" c="dimmed">…</Text>;
  if (pipeline.isError) return <Text size="sm" c="dimmed">—</Text>;
  return <StatusBadge status={pipeline.data.status} />;
}
