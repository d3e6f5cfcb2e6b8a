import { Badge, Text } from '@mantine/core';
import type { ErrorStatus } from '../../../../shared/src/error-tracking.ts';
import { fromNow, fullDateTime } from '../../format.ts';
import { STATUS_LABELS } from './error-model.ts';

export const StatusBadge = ({ status }: { status: ErrorStatus }) => (
  <Badge variant="light" color={status === 'unresolved' ? 'red' : status === 'resolved' ? 'teal' : 'gray'} radius="sm">
    {STATUS_LABELS[status]}
  </Badge>
);

/** A time as "3 hours ago", the exact time on hover. */
export const When = ({ iso }: { iso: string }) => (
  <Text size="sm" component="span" title={fullDateTime(iso)}>
    {fromNow(iso)}
  </Text>
);

