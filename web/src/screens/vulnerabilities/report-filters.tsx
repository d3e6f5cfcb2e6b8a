import { Group, NativeSelect } from '@mantine/core';
import { SEVERITIES, VULNERABILITY_STATES, type Severity, type VulnerabilityState } from '../../../../shared/src/vulnerabilities.ts';
import type { VulnerabilitiesQuery } from '../../api/vulnerabilities.ts';
import type { VulnerabilityExportFilters } from '../../api/exports.ts';
import { useListParams } from '../../components/list-params.ts';
import { REPORT_TYPE_LABELS, STATE_LABELS, severityLabel } from './severity.tsx';

const oneOf = <T extends string>(values: readonly T[], v: string): T | '' => ((values as readonly string[]).includes(v) ? (v as T) : '');
const OPEN_STATES: VulnerabilityState[] = ['detected', 'confirmed'];
const OPEN_LABEL = 'Open (needs triage, confirmed)';

/**
 * Severity, status, tool and page of a vulnerability report (a project's or a group's) live in
 * the URL; a status filter left alone shows what is still open. `exportFilters` are the same
 * filters as an export takes them, so an export holds what the report lists.
 */
export function useReportParams() {
  const list = useListParams();
  const severity = oneOf(SEVERITIES, list.get('severity'));
  const state = list.get('state') === 'all' ? 'all' : oneOf(VULNERABILITY_STATES, list.get('state'));
  const reportType = oneOf(Object.keys(REPORT_TYPE_LABELS), list.get('report_type'));
  const filters: Omit<VulnerabilitiesQuery, 'page'> = {
    severity: severity ? [severity as Severity] : undefined,
    state: state === 'all' ? undefined : state ? [state as VulnerabilityState] : OPEN_STATES,
    report_type: reportType ? [reportType] : undefined,
  };
  const exportFilters: VulnerabilityExportFilters = Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined));
  // The filters in words, for the export's progress and the Exports screen.
  const summary = [
    `Severity: ${severity ? severityLabel(severity) : 'any'}`,
    `Status: ${state === 'all' ? 'any' : state ? STATE_LABELS[state as VulnerabilityState] : OPEN_LABEL.toLowerCase()}`,
    `Tool: ${reportType ? REPORT_TYPE_LABELS[reportType] : 'any'}`,
  ].join(' · ');
  const clear = () => list.update({ severity: null, state: null, report_type: null });
  return { ...list, severity, state, reportType, query: { ...filters, page: list.page }, exportFilters, summary, clear, filtered: Boolean(severity || state || reportType) };
}
export type ReportParams = ReturnType<typeof useReportParams>;

/** The report's filter bar. */
export function ReportFilters({ list }: { list: ReportParams }) {
  return (
    <Group align="flex-end" gap="sm">
      <NativeSelect label="Severity" value={list.severity} onChange={(e) => list.update({ severity: e.currentTarget.value || null })} data={[{ value: '', label: 'Any severity' }, ...SEVERITIES.map((s) => ({ value: s, label: severityLabel(s) }))]} />
      <NativeSelect
        label="Status"
        value={list.state}
        onChange={(e) => list.update({ state: e.currentTarget.value || null })}
        data={[{ value: '', label: OPEN_LABEL }, { value: 'all', label: 'Any status' }, ...VULNERABILITY_STATES.map((s) => ({ value: s, label: STATE_LABELS[s] }))]}
      />
      <NativeSelect label="Tool" value={list.reportType} onChange={(e) => list.update({ report_type: e.currentTarget.value || null })} data={[{ value: '', label: 'Any tool' }, ...Object.entries(REPORT_TYPE_LABELS).map(([value, label]) => ({ value, label }))]} />
    </Group>
  );
}
