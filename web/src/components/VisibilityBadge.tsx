import { Badge } from '@mantine/core';
import { VISIBILITY_COLORS, VISIBILITY_LABELS } from '../format.ts';

export function VisibilityBadge({ visibility, size = 'sm' }: { visibility: string; size?: 'xs' | 'sm' | 'md' }) {
  return (
    <Badge variant="light" color={VISIBILITY_COLORS[visibility] ?? 'gray'} size={size}>
      {VISIBILITY_LABELS[visibility] ?? visibility}
    </Badge>
  );
}
