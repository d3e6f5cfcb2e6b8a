import { Button, Code, CopyButton, Group, Text } from '@mantine/core';

/**
 * Text a user copies into a terminal or a file (commands, a settings.xml), in a block with its
 * label and a copy button. The block is a focusable region named by the label, so a keyboard
 * user can reach and scroll it. Long lines wrap, unless `wrap` is false (a file whose indentation
 * carries its structure): then the block scrolls sideways.
 */
export function CommandBlock({ id, label, command, wrap = true }: { id: string; label: string; command: string; wrap?: boolean }) {
  return (
    <div>
      <Group justify="space-between" align="flex-end" mb={4}>
        <Text size="sm" fw={500} id={id}>
          {label}
        </Text>
        <CopyButton value={command}>
          {({ copied, copy }) => (
            <Button size="compact-sm" variant="default" onClick={copy} aria-label={`Copy: ${label}`}>
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
      </Group>
      <Code block role="region" aria-labelledby={id} tabIndex={0} style={wrap ? { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' } : { whiteSpace: 'pre', overflowX: 'auto' }}>
        {command}
      </Code>
    </div>
  );
}
