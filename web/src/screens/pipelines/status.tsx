import { Badge, ThemeIcon, Tooltip } from '@mantine/core';
import { statusText, type PipelineStatus } from '../../../../shared/src/pipeline-statuses.ts';
import { IconCheck, IconMinus, IconRefresh, IconX } from '../../components/icons.tsx';

export const FORBIDDEN_TITLE = 'You need the Reporter role to see pipelines';
export const FORBIDDEN_HINT = 'The pipelines of a private project are shown to its Reporters, Developers, Maintainers and Owners.';

/** Colour and icon of each status, as people read a CI screen: green passed, red failed, blue running. */
const LOOK: Record<string, { color: string; icon: (p: { size?: number }) => React.ReactNode }> = {
  success: { color: 'teal', icon: IconCheck },
  failed: { color: 'red', icon: IconX },
  running: { color: 'blue', icon: IconRefresh },
  pending: { color: 'yellow', icon: IconRefresh },
  created: { color: 'gray', icon: IconMinus },
  canceled: { color: 'dark', icon: IconMinus },
  skipped: { color: 'gray', icon: IconMinus },
};
const lookOf = (status: string) => LOOK[status] ?? LOOK.created;

/** A pipeline's status as a badge with its word (never colour alone). */
export function StatusBadge({ status }: { status: string }) {
  const { color, icon: Icon } = lookOf(status);
  return (
    <Badge color={color} variant="light" leftSection={<Icon size={12} />} tt="none">
      {statusText(status as PipelineStatus)}
    </Badge>
  );
}

/** One job as a small round icon; its name and status are its label and tooltip. */
export function JobIcon({ name, status }: { name: string; status: string }) {
  const { color, icon: Icon } = lookOf(status);
  const label = `${name}: ${statusText(status as PipelineStatus).toLowerCase()}`;
  return (
    <Tooltip label={label} withArrow>
      <ThemeIcon size={22} radius="xl" color={color} variant="light" role="img" aria-label={label}>
        <Icon size={13} />
      </ThemeIcon>
    </Tooltip>
  );
}
