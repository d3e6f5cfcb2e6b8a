import { useState } from 'react';
import { Button, Group, Stack, Text } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { formatDate } from '../format.ts';
import { Dialog } from './Dialog.tsx';
import { expiryBounds, rotationExpiry } from './token-expiry.ts';

/** What rotating needs to know of a token (group and personal tokens alike). */
export interface RotatableToken {
  id: number;
  name: string;
  created_at: string;
  expires_at: string | null;
}

/**
 * Asks before rotating: the current token stops working at once. The new one is proposed the
 * old one's lifetime (within the bounds of a new token), so rotating does not shorten it.
 */
export function RotateTokenDialog({
  token,
  loading,
  onConfirm,
  onClose,
}: {
  token: RotatableToken | null;
  loading: boolean;
  onConfirm: (expiresAt: string) => void;
  onClose: () => void;
}) {
  return (
    <Dialog opened={token !== null} onClose={onClose} busy={loading} title={token ? `Rotate “${token.name}”?` : ''} centered>
      {/* Keyed by token so the date starts from each one's own lifetime. */}
      {token && <RotateForm key={token.id} token={token} loading={loading} onConfirm={onConfirm} onClose={onClose} />}
    </Dialog>
  );
}

function RotateForm({
  token,
  loading,
  onConfirm,
  onClose,
}: {
  token: RotatableToken;
  loading: boolean;
  onConfirm: (expiresAt: string) => void;
  onClose: () => void;
}) {
  const bounds = expiryBounds();
  const [expiresAt, setExpiresAt] = useState<string>(() => rotationExpiry(token));
  return (
    <Stack gap="md">
      <Text size="sm">
        A new token replaces this one. <b>The current token stops working immediately</b>: update everything that uses it with the new
        token, which is shown once.
      </Text>
      <DatePickerInput
        label="New token expires on"
        description={`Up to ${formatDate(bounds.max)}.`}
        value={expiresAt}
        onChange={(v) => v && setExpiresAt(v)}
        minDate={bounds.min}
        maxDate={bounds.max}
        valueFormat="MMM D, YYYY"
      />
      <Group justify="flex-end" gap="xs">
        <Button variant="default" onClick={onClose} disabled={loading}>
          Cancel
        </Button>
        <Button color="orange" onClick={() => onConfirm(expiresAt)} loading={loading} data-autofocus>
          Rotate token
        </Button>
      </Group>
    </Stack>
  );
}
