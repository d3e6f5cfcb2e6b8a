import { ActionIcon, Group, Tooltip } from '@mantine/core';
import { IconTransfer, IconTrash } from '../../components/icons.tsx';

/**
 * Transfer and Delete of one group or project in the admin lists: two icon buttons (named in full
 * for screen readers, with a tooltip), narrow enough for the table's date columns at 1280 px.
 */
export function RowActions({ fullPath, onTransfer, onDelete }: { fullPath: string; onTransfer: () => void; onDelete: () => void }) {
  return (
    <Group gap={6} wrap="nowrap" justify="flex-end">
      <Tooltip label="Transfer" openDelay={300}>
        <ActionIcon variant="default" size={28} onClick={onTransfer} aria-label={`Transfer ${fullPath}`}>
          <IconTransfer size={15} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label="Delete" openDelay={300}>
        <ActionIcon variant="light" color="red" size={28} onClick={onDelete} aria-label={`Delete ${fullPath}`}>
          <IconTrash size={15} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}
