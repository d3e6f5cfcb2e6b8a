import { useMemo } from 'react';
import { Anchor, Stack, Text } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { Link } from 'react-router';
import type { Vulnerability } from '../../../../shared/src/vulnerabilities.ts';
import { fromNow } from '../../format.ts';
import { projectHref } from '../../paths.ts';
import { REPORT_TYPE_LABELS, SeverityBadge, STATE_LABELS } from './severity.tsx';

const col = createColumnHelper<Vulnerability>();
/** "/acme/web" → "acme/web": the project's path as the console's links take it. */
const projectPath = (v: Vulnerability) => v.project.full_path.replace(/^\//, '');

/**
 * The columns of a report that spans projects (a group's, the security dashboard's): each
 * vulnerability links to its page in its project, and names the project, by its path below
 * `under` (the group's full path) where given.
 */
export function useSpanningColumns(under: string | null) {
  return useMemo(() => {
    // A project's path below the group ("web", "team/web"): the group's own path is on every row.
    const inGroup = (path: string) => (under && path.startsWith(`${under}/`) ? path.slice(under.length + 1) : path);
    return [
      col.accessor('severity', { header: 'Severity', cell: (i) => <SeverityBadge severity={i.getValue()} /> }),
      col.accessor('title', {
        header: 'Vulnerability',
        cell: (i) => (
          <Stack gap={2}>
            <Anchor component={Link} to={projectHref(projectPath(i.row.original), `vulnerabilities/${i.row.original.id}`)} size="sm" fw={600}>
              {i.getValue()}
            </Anchor>
            <Text size="xs" c="dimmed">
              {i.row.original.finding.identifiers.map((id) => id.name).join(' · ')}
            </Text>
          </Stack>
        ),
      }),
      col.accessor((v) => projectPath(v), {
        id: 'project',
        header: 'Project',
        cell: (i) => (
          <Anchor component={Link} to={projectHref(i.getValue(), 'vulnerabilities')} size="sm" title={i.row.original.project.full_name} style={{ whiteSpace: 'nowrap' }}>
            {inGroup(i.getValue())}
          </Anchor>
        ),
      }),
      col.accessor((v) => v.finding.scanner.name, { id: 'scanner', header: 'Tool', cell: (i) => <Stack gap={0}><Text size="sm">{i.getValue()}</Text><Text size="xs" c="dimmed">{REPORT_TYPE_LABELS[i.row.original.report_type] ?? i.row.original.report_type}</Text></Stack>, meta: { hideNarrow: true } }),
      col.accessor('state', { header: 'Status', cell: (i) => <Text size="sm">{STATE_LABELS[i.getValue()]}</Text> }),
      col.accessor('detected_at', { header: 'Detected', cell: (i) => <Text size="sm" title={i.getValue()}>{fromNow(i.getValue())}</Text>, meta: { hideNarrow: true } }),
    ];
  }, [under]);
}
