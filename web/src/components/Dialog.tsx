import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Group, Modal, Stack, Text, type ModalProps } from '@mantine/core';
import { useDialogFocus } from './dialog-focus.ts';
import { useDialogError } from './dialog-errors.ts';
import { IconAlert } from './icons.tsx';

/**
 * Every dialog of the console: a Mantine modal that takes focus when it opens and gives it back
 * to what opened it (or the screen's heading when that is gone), that asks before Escape,
 * the close button or a click outside throws away a filled form (`dirty`), and that tells a
 * failed write made from it at its top, with focus on it, until the next try.
 */
export function Dialog({
  opened,
  onClose,
  dirty = false,
  busy = false,
  focusFallback,
  children,
  ...props
}: Omit<ModalProps, 'returnFocus'> & {
  /** The form holds edits: closing asks first. */
  dirty?: boolean;
  /** A request is running: the dialog stays open. */
  busy?: boolean;
  focusFallback?: () => HTMLElement | null;
}) {
  const [asking, setAsking] = useState(false);
  useDialogFocus(opened, focusFallback);
  const error = useDialogError(opened);
  const errorRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (error) errorRef.current?.focus();
  }, [error]);
  const requestClose = () => {
    if (busy || asking) return;
    if (dirty) setAsking(true);
    else onClose();
  };
  return (
    <>
      <Modal {...props} opened={opened} onClose={requestClose} returnFocus={false} closeOnClickOutside={!busy && (props.closeOnClickOutside ?? true)}>
        {error && (
          <Alert ref={errorRef} tabIndex={-1} role="alert" color="red" variant="light" icon={<IconAlert />} title={error.title} mb="md">
            {error.message}
          </Alert>
        )}
        {children}
      </Modal>
      <DiscardQuestion
        opened={opened && asking}
        onKeep={() => setAsking(false)}
        onDiscard={() => {
          setAsking(false);
          onClose();
        }}
      />
    </>
  );
}

/** "Discard your changes?" over a dialog whose form holds edits. */
function DiscardQuestion({ opened, onKeep, onDiscard }: { opened: boolean; onKeep: () => void; onDiscard: () => void }) {
  return (
    <Modal opened={opened} onClose={onKeep} title="Discard your changes?" centered size="sm" zIndex={400} withCloseButton={false}>
      <Stack gap="lg">
        <Text size="sm">What you entered in this dialog has not been saved and will be lost.</Text>
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onKeep} data-autofocus>
            Keep editing
          </Button>
          <Button color="red" onClick={onDiscard}>
            Discard changes
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
