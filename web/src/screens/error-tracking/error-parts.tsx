import { Badge, Text } from '@mantine/core';
import type { ErrorStatus } from '../../../../shared/src/error-tracking.ts';
import { fromNow, fullDateTime } from '../../format.ts';
import { STATUS_LABELS } from './error-model.ts';

export const StatusBadge = ({ status }: { status: ErrorStatus }) => (
  <Badge variant="light" color={status === 'unresolved' ? 'red' : status === 'resolved' ? 'teal' : 'gray'} radius="sm">
    {STATUS_LABELS[status]}
  </Badge>
);

export const When = ({ iso }: { iso: string }) => (
  <Text size="sm" title={fullDateTime(iso)} style={{ whiteSpace: 'nowrap' }}>
    {fromNow(iso)}
  </Text>
);

