import { Badge } from '@mantine/core';
import type { Severity, Vulnerability, VulnerabilityState } from '../../../../shared/src/vulnerabilities.ts';

const SEVERITY_COLOR: Record<Severity, string> = { critical: 'red.9', high: 'red', medium: 'orange', low: 'yellow', info: 'blue', unknown: 'gray' };
export const severityLabel = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export function SeverityBadge({ severity }: { severity: Severity }) {
  return (
    <Badge color={SEVERITY_COLOR[severity]} variant={severity === 'critical' || severity === 'high' ? 'filled' : 'light'} radius="sm" styles={{ root: { minWidth: 'max-content' } }}>
      {severityLabel(severity)}
    </Badge>
  );
}

export const STATE_LABELS: Record<VulnerabilityState, string> = { detected: 'Needs triage', confirmed: 'Confirmed', dismissed: 'Dismissed', resolved: 'Resolved' };

export const REASON_LABELS = {
  acceptable_risk: 'Acceptable risk',
  false_positive: 'False positive',
  mitigating_control: 'Mitigating control',
  used_in_tests: 'Used in tests',
  not_applicable: 'Not applicable',
} as const;

export const REPORT_TYPE_LABELS: Record<string, string> = {
  sast: 'SAST',
  dependency_scanning: 'Dependency scanning',
  container_scanning: 'Container scanning',
  secret_detection: 'Secret detection',
  dast: 'DAST',
};

export const FORBIDDEN_TITLE = 'The vulnerability report is for Developers';
/** Who may change a vulnerability's status (the admin_vulnerability rule: Maintainers and up since the platform's 17.0). */
export const MOVES_ROLE = 'Only Maintainers and Owners can change a vulnerability’s status.';
export const FORBIDDEN_HINT = 'Developers, Maintainers and Owners of the project see its vulnerabilities; Maintainers and Owners change their status.';

/** `:12` after a file path when the finding names its line. */
export function lineOf(v: Vulnerability): string {
  const line = (v.finding.location as { start_line?: number }).start_line;
  return typeof line === 'number' ? `:${line}` : '';
}
