import { Badge, Stack, Text } from '@mantine/core';

/** How a status reads: its words and its badge's colour. */
export interface StatusLook {
  label: string;
  color: string;
}

/**
 * A table cell for a record's state: a badge (its words, its colour) and, under it, a line
 * that says more (what it was reassigned to, why it failed); `tone` "error" draws that line red.
 */
export function StatusCell({ look, note, tone = 'dimmed' }: { look: StatusLook; note?: string | null; tone?: 'dimmed' | 'error' }) {
  return (
    <Stack gap={2}>
      <Badge color={look.color} variant="light" styles={{ root: { minWidth: 'max-content' } }}>
        {look.label}
      </Badge>
      {note && (
        <Text size="xs" c={tone === 'error' ? 'red' : 'dimmed'}>
          {note}
        </Text>
      )}
    </Stack>
  );
}
