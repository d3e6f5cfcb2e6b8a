import type { ReactNode } from 'react';
import { Button, Group, Stack, Text } from '@mantine/core';
import { Dialog } from './Dialog.tsx';

/**
 * A question before something that cannot be taken back. The confirm button says what will
 * happen ("Revoke token"), never just "OK"; the dialog stays open while the request runs. Focus
 * goes to the confirm button, and back to what opened the dialog (or the screen's heading, when
 * confirming removed it).
 */
export function ConfirmDialog({
  opened,
  title,
  children,
  confirmLabel,
  color = 'red',
  loading = false,
  onConfirm,
  onClose,
  focusFallback,
}: {
  opened: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  color?: string;
  loading?: boolean;
  onConfirm: () => void;
  onClose: () => void;
  /** Where focus goes when what opened the dialog is gone (default: the screen's heading). */
  focusFallback?: () => HTMLElement | null;
}) {
  return (
    <Dialog opened={opened} onClose={onClose} busy={loading} title={title} centered focusFallback={focusFallback}>
      <Stack gap="lg">
        <Text size="sm" component="div">
          {children}
        </Text>
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose} disabled={loading}>
            Cancel
          </Button>
          <Button color={color} onClick={onConfirm} loading={loading} data-autofocus>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Dialog>
  );
}
