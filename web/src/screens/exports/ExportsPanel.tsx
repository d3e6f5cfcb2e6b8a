import { useMemo, useState } from 'react';
import { Alert, Anchor, Button, Checkbox, Group, Paper, SegmentedControl, Select, Stack, Text, Title } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import type { ConsoleExport } from '../../../../shared/src/exports.ts';
import { DEPENDENCY_EXPORT_TYPES_BY_EXPORTABLE, type DependencyExportType } from '../../../../shared/src/dependency-list-exports.ts';
import type { VulnerabilityExportFormat } from '../../../../shared/src/vulnerability-exports.ts';
import { isUnfinished, useExportSettings, useExports, useStartExport, type ExportScope, type NewExport } from '../../api/exports.ts';
import { isApiError, type ApiError } from '../../api/client.ts';
import { DataTable, TablePager } from '../../components/DataTable.tsx';
import { formatDate, formatSize, fromNow } from '../../format.ts';
import { IconAlert } from '../../components/icons.tsx';
import { useListParams } from '../../components/list-params.ts';
import { notifySuccess } from '../../components/notify.ts';
import { EmptyState, QueryContent, errorMessage } from '../../components/states.tsx';
import { StatusCell, type StatusLook } from '../../components/StatusCell.tsx';

const FORMAT_LABELS: Record<string, string> = {
  csv: 'CSV',
  pdf: 'PDF',
  dependency_list: 'JSON (dependency list)',
  json_array: 'JSON (flat array)',
  cyclonedx_1_6_json: 'CycloneDX 1.6',
  sbom: 'CycloneDX 1.4',
};
const STATUS: Record<ConsoleExport['status'], StatusLook> = {
  created: { label: 'Queued', color: 'gray' },
  running: { label: 'Running', color: 'blue' },
  finished: { label: 'Ready', color: 'teal' },
  failed: { label: 'Failed', color: 'red' },
};

const FILTER_NAMES: Record<string, string> = { severity: 'Severity', state: 'Status', report_type: 'Tool', scanner: 'Scanner' };
const VALUE_LABELS: Record<string, string> = {
  detected: 'needs triage',
  sast: 'SAST',
  dast: 'DAST',
  dependency_scanning: 'dependency scanning',
  container_scanning: 'container scanning',
  secret_detection: 'secret detection',
};

/** A vulnerability export's filters in words: "Severity: critical, high · Status: needs triage, confirmed"; none: every vulnerability. */
export function filtersText(filters: ConsoleExport['filters']): string {
  const parts = Object.entries(filters ?? {})
    .filter(([, values]) => values && values.length > 0)
    .map(([name, values]) => `${FILTER_NAMES[name] ?? name}: ${values!.map((v) => VALUE_LABELS[v] ?? v).join(', ')}`);
  return parts.length ? `Filtered · ${parts.join(' · ')}` : 'Every vulnerability (no filters)';
}

/** The reason a start was refused, in words: a 429 means one of the caller's exports of this scope is still running. */
function refusal(error: ApiError, what: string): string {
  if (error.status === 429) return `Your previous vulnerability export of ${what} is still in progress. Start another one when it is ready.`;
  return errorMessage(error);
}

const col = createColumnHelper<ConsoleExport>();

/**
 * The Exports screen of a project, a group or the user's security dashboard: start a
 * vulnerability export (CSV, PDF where enabled) or a dependency list export (the types the
 * scope allows), watch it go from queued to ready without reloading, download it before it
 * expires, and see past and failed ones.
 */
export function ExportsPanel({ scope, what }: { scope: ExportScope; what: string }) {
  const list = useListParams();
  const exportsList = useExports(scope, { page: list.page });
  const settings = useExportSettings(scope);
  const dependencyTypes: readonly DependencyExportType[] = scope.kind === 'dashboard' ? [] : DEPENDENCY_EXPORT_TYPES_BY_EXPORTABLE[scope.kind === 'project' ? 'projects' : 'groups'];
  const [kind, setKind] = useState<NewExport['kind']>('vulnerability');
  const [vulnFormat, setVulnFormat] = useState<VulnerabilityExportFormat>('csv');
  const [depFormat, setDepFormat] = useState<DependencyExportType | null>(dependencyTypes[0] ?? null);
  const [sendEmail, setSendEmail] = useState(false);
  const start = useStartExport(scope, { meta: { errorTitle: 'The export was not started', showsError: (e) => e.status === 429 || e.status === 400 } });

  const items = exportsList.data?.items ?? [];
  const vulnerabilityRunning = items.some((e) => e.kind === 'vulnerability' && isUnfinished(e));
  const pdfEnabled = settings.data?.pdf_export_enabled ?? false;
  const emailConfigured = settings.data?.email_configured ?? false;
  const blocked = kind === 'vulnerability' && vulnerabilityRunning;

  const onStart = () => {
    const e: NewExport = kind === 'vulnerability' ? { kind, format: vulnFormat, sendEmail } : { kind, format: depFormat!, sendEmail };
    start.mutate(e, {
      onSuccess: () => notifySuccess('Export started', `The ${FORMAT_LABELS[e.format]} export of ${what} is queued. It is listed below and ready to download when done.`),
    });
  };

  const columns = useMemo(
    () => [
      col.accessor('kind', {
        header: 'Export',
        cell: (i) => (
          <Stack gap={0}>
            <Text size="sm" fw={600}>
              {i.getValue() === 'vulnerability' ? 'Vulnerabilities' : 'Dependencies'} · {FORMAT_LABELS[i.row.original.format] ?? i.row.original.format}
            </Text>
            <Text size="xs" c="dimmed">
              {i.row.original.file_name}
            </Text>
            {i.row.original.kind === 'vulnerability' && (
              <Text size="xs" c="dimmed">
                {filtersText(i.row.original.filters)}
              </Text>
            )}
          </Stack>
        ),
      }),
      col.accessor('status', {
        header: 'Status',
        cell: (i) => <StatusCell look={STATUS[i.getValue()]} note={i.row.original.error} tone="error" />,
      }),
      col.accessor('created_at', { header: 'Requested', cell: (i) => <span title={i.getValue()}>{fromNow(i.getValue())}</span> }),
      col.accessor('expires_at', { header: 'Expires', cell: (i) => <span title={i.getValue()}>{formatDate(i.getValue())}</span>, meta: { hideNarrow: true } }),
      col.accessor('file_size', { header: 'Size', cell: (i) => <span style={{ whiteSpace: 'nowrap' }}>{formatSize(i.getValue())}</span>, meta: { hideNarrow: true } }),
      col.display({
        id: 'download',
        header: () => <span className="gh-visually-hidden">Download</span>,
        cell: ({ row }) =>
          row.original.status === 'finished' ? (
            <Anchor href={row.original.download} download={row.original.file_name} size="sm" aria-label={`Download ${row.original.file_name}`}>
              Download
            </Anchor>
          ) : null,
      }),
    ],
    [],
  );

  const startError = start.error && isApiError(start.error) && (start.error.status === 429 || start.error.status === 400) ? start.error : null;
  return (
    <Stack gap="md">
      <div>
        <Title order={2} size="h3">
          Exports
        </Title>
        <Text c="dimmed" size="sm" maw={680}>
          Download the vulnerabilities {dependencyTypes.length ? 'and dependencies ' : ''}of {what}. Exports are made in the background, listed here only for you, and deleted after 7 days.
        </Text>
      </div>
      <Paper withBorder p="md" component="section" aria-labelledby="new-export-title">
        <Stack gap="sm">
          <Title order={3} size="h5" id="new-export-title">
            New export
          </Title>
          {dependencyTypes.length > 0 && (
            <SegmentedControl
              aria-label="What to export"
              value={kind}
              onChange={(v) => (setKind(v as NewExport['kind']), start.reset())}
              data={[
                { value: 'vulnerability', label: 'Vulnerabilities' },
                { value: 'dependency_list', label: 'Dependencies' },
              ]}
              w="fit-content"
            />
          )}
          {kind === 'vulnerability' ? (
            <Select
              label="Format"
              w={280}
              value={vulnFormat}
              onChange={(v) => v && setVulnFormat(v as VulnerabilityExportFormat)}
              allowDeselect={false}
              data={[
                { value: 'csv', label: 'CSV' },
                { value: 'pdf', label: 'PDF report', disabled: !pdfEnabled },
              ]}
              description={pdfEnabled ? undefined : `PDF reports are not enabled for ${what} (the vulnerabilities_pdf_export feature flag).`}
            />
          ) : (
            <Select label="Format" w={280} value={depFormat} onChange={(v) => v && setDepFormat(v as DependencyExportType)} allowDeselect={false} data={dependencyTypes.map((t) => ({ value: t, label: FORMAT_LABELS[t] }))} />
          )}
          <Checkbox
            label="Email me when it is ready"
            checked={sendEmail && emailConfigured}
            disabled={!emailConfigured}
            description={emailConfigured ? undefined : 'No mail server is configured on this instance.'}
            onChange={(e) => setSendEmail(e.currentTarget.checked)}
          />
          {blocked && (
            <Alert color="yellow" icon={<IconAlert size={16} />} title="An export is in progress">
              Your vulnerability export of {what} is still being made. You can start another one when it is ready.
            </Alert>
          )}
          {startError && !blocked && (
            <Alert color="red" icon={<IconAlert size={16} />} title="The export was not started">
              {refusal(startError, what)}
            </Alert>
          )}
          <Group>
            <Button onClick={onStart} loading={start.isPending} disabled={blocked || (kind === 'dependency_list' && !depFormat)}>
              Start export
            </Button>
          </Group>
        </Stack>
      </Paper>
      <QueryContent query={exportsList} what="your exports" empty={(data) => data.items.length === 0 && <EmptyState title="No exports yet">Exports you start here are listed for 7 days, then deleted.</EmptyState>}>
        {(data) => <DataTable label="Your exports" items={data.items} columns={columns} getRowId={(e) => String(e.id)} busy={false} />}
      </QueryContent>
      <TablePager info={exportsList.data?.page} shown={items.length} what={(n) => (n === 1 ? 'export' : 'exports')} onPage={list.setPage} />
    </Stack>
  );
}
