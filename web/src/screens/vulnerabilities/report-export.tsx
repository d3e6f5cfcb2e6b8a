import { useState } from 'react';
import { Alert, Anchor, Button, CloseButton, Group, Loader, Menu, Paper, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { VulnerabilityExportFormat } from '../../../../shared/src/vulnerability-exports.ts';
import { isUnfinished, useExportSettings, useStartExport, useVulnerabilityExport, type ExportScope, type VulnerabilityExportFilters } from '../../api/exports.ts';
import { isApiError } from '../../api/client.ts';
import { IconAlert, IconCheck, IconChevronDown, IconInbox } from '../../components/icons.tsx';
import { errorMessage } from '../../components/states.tsx';

const FORMAT_LABEL: Record<VulnerabilityExportFormat, string> = { csv: 'CSV', pdf: 'PDF report' };

/** What was asked for, kept as it was when the export started (the report's filters may change meanwhile). */
interface Requested {
  id: number;
  format: VulnerabilityExportFormat;
  summary: string;
  count: number | null;
}

interface Props {
  scope: ExportScope;
  /** The report's owner in words: "acme/web", "the acme group". */
  what: string;
  filters: VulnerabilityExportFilters;
  /** The filters in words. */
  summary: string;
  /** How many vulnerabilities the report lists for these filters (null while unknown). */
  count: number | null;
  /** The scope's Exports screen, where every export is listed. */
  exportsHref: string;
}

/**
 * The report's Export menu: CSV, or a PDF report where the vulnerabilities_pdf_export flag is on,
 * of what the report lists now (its filters go with the export). The export's progress is shown
 * in place (queued → writing → ready, polling the export) and ends with a Download link; the
 * export is also listed on the Exports screen. The report places the two: the menu beside its
 * title, the progress (or why the export was not started) above its filters.
 */
export function useReportExport({ scope, what, filters, summary, count, exportsHref }: Props): { menu: React.ReactNode; progress: React.ReactNode } {
  const settings = useExportSettings(scope);
  const start = useStartExport(scope, { meta: { errorTitle: 'The export was not started', showsError: (e) => e.status === 429 || e.status === 400 } });
  const [requested, setRequested] = useState<Requested | null>(null);
  const current = useVulnerabilityExport(requested?.id ?? null);
  const pdfEnabled = settings.data?.pdf_export_enabled ?? false;
  const inProgress = requested !== null && (!current.data || isUnfinished(current.data));

  const run = (format: VulnerabilityExportFormat) => {
    setRequested(null);
    start.mutate({ kind: 'vulnerability', format, sendEmail: false, filters }, { onSuccess: (e) => setRequested({ id: e.id, format, summary, count }) });
  };
  const refused = start.error && isApiError(start.error) && (start.error.status === 429 || start.error.status === 400) ? start.error : null;

  const menu = (
    <Menu position="bottom-end" shadow="md" width={320} withinPortal>
      <Menu.Target>
        <Button variant="default" leftSection={<IconInbox size={16} />} rightSection={<IconChevronDown size={14} />} loading={start.isPending} disabled={inProgress} style={{ flexShrink: 0 }}>
          Export
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Export the {count === null ? '' : `${count} `}vulnerabilities listed</Menu.Label>
        <Menu.Item onClick={() => run('csv')}>
          <Text size="sm">CSV</Text>
          <Text size="xs" c="dimmed">A spreadsheet, one row per vulnerability</Text>
        </Menu.Item>
        <Menu.Item onClick={() => run('pdf')} disabled={!pdfEnabled}>
          <Text size="sm">PDF report</Text>
          <Text size="xs" c="dimmed">
            {pdfEnabled ? 'A summary by severity, then every vulnerability' : `Not enabled for ${what}: an administrator turns on the vulnerabilities_pdf_export feature flag`}
          </Text>
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
  const progress = requested ? (
    <ExportProgress requested={requested} state={current} exportsHref={exportsHref} onClose={() => setRequested(null)} />
  ) : refused ? (
    <Alert color={refused.status === 429 ? 'yellow' : 'red'} icon={<IconAlert size={16} />} title="The export was not started" withCloseButton onClose={() => start.reset()} closeButtonLabel="Dismiss">
      {refused.status === 429 ? (
        <>
          Your previous vulnerability export of {what} is still being made. <Anchor component={Link} to={exportsHref} size="sm">See it on the Exports screen</Anchor>.
        </>
      ) : (
        errorMessage(refused)
      )}
    </Alert>
  ) : null;
  return { menu, progress };
}

const STEP: Record<'created' | 'running', string> = { created: 'Queued', running: 'Writing the file' };

/** The export's state in words, read out as it changes (a polite live region). */
function ExportProgress({ requested, state, exportsHref, onClose }: { requested: Requested; state: ReturnType<typeof useVulnerabilityExport>; exportsHref: string; onClose: () => void }) {
  const e = state.data;
  const status = e?.status ?? 'created';
  const label = FORMAT_LABEL[requested.format];
  const of = requested.count === null ? 'The vulnerabilities listed' : `${requested.count} ${requested.count === 1 ? 'vulnerability' : 'vulnerabilities'}`;
  return (
    <Paper withBorder p="sm" radius="md" aria-label="Export progress">
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
        <Stack gap={4} role="status" aria-live="polite" style={{ flex: 1 }}>
          <Group gap="xs" wrap="nowrap">
            {status === 'finished' ? <IconCheck size={16} color="var(--mantine-color-teal-7)" /> : status === 'failed' ? <IconAlert size={16} color="var(--mantine-color-red-7)" /> : <Loader size={14} />}
            <Text size="sm" fw={600}>
              {status === 'finished' ? `${label} export ready` : status === 'failed' ? `${label} export failed` : `${label} export: ${STEP[status]}…`}
            </Text>
          </Group>
          <Text size="xs" c="dimmed">
            {of} · {requested.summary}
          </Text>
          {state.isError && <Text size="xs" c="red">Its progress could not be read: {errorMessage(state.error)}</Text>}
          {status === 'failed' && <Text size="xs">Start it again; the Exports screen shows why it failed.</Text>}
          <Group gap="md">
            {status === 'finished' && (
              <Button component="a" href={`/api/v4/security/vulnerability_exports/${requested.id}/download`} size="compact-sm" aria-label={`Download the ${label} export`}>
                Download
              </Button>
            )}
            <Anchor component={Link} to={exportsHref} size="xs">
              All your exports
            </Anchor>
          </Group>
        </Stack>
        <CloseButton size="sm" onClick={onClose} aria-label="Hide the export’s progress" />
      </Group>
    </Paper>
  );
}
