import type { z } from 'zod';
import type { GroupRow, ProjectRow, UserRow, VulnerabilityRow, VulnerabilityTransitionRow } from '../db/schema.ts';
import type { DismissalReason, Severity, Vulnerability, VulnerabilityState, VulnerabilityStateTransition, vulnerabilityIdentifier } from '../../../shared/src/vulnerabilities.ts';

import { DEFAULT_BRANCH } from '../services/git/repositories.ts';

const json = <T>(text: string, fallback: T): T => {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
};

export interface VulnerabilityScope {
  project: ProjectRow;
  group: GroupRow;
  baseUrl: string;
}

/** The platform's Vulnerability entity with its finding; fields it no longer fills (start_date, due_date…) are null. */
export function presentVulnerability(v: VulnerabilityRow, s: VulnerabilityScope): Vulnerability {
  return {
    id: v.id,
    title: v.title,
    description: v.description,
    state: v.state as VulnerabilityState,
    severity: v.severity as Severity,
    confidence: v.confidence,
    report_type: v.report_type,
    project: { id: s.project.id, name: s.project.name, full_path: `/${s.project.path_with_namespace}`, full_name: `${s.group.full_name} / ${s.project.name}` },
    project_default_branch: s.project.default_branch ?? DEFAULT_BRANCH,
    author_id: null,
    updated_by_id: null,
    last_edited_by_id: null,
    closed_by_id: v.resolved_by_id,
    start_date: null,
    due_date: null,
    created_at: v.created_at,
    updated_at: v.updated_at,
    last_edited_at: null,
    closed_at: v.resolved_at,
    detected_at: v.detected_at,
    resolved_on_default_branch: v.resolved_on_default_branch === 1,
    resolved_by_id: v.resolved_by_id,
    resolved_at: v.resolved_at,
    dismissed_by_id: v.dismissed_by_id,
    dismissed_at: v.dismissed_at,
    dismissal_reason: v.dismissal_reason as DismissalReason | null,
    confirmed_by_id: v.confirmed_by_id,
    confirmed_at: v.confirmed_at,
    location_path: v.location_path,
    finding: {
      id: v.id,
      uuid: v.uuid,
      name: v.title,
      description: v.description,
      message: v.message,
      solution: v.solution,
      severity: v.severity as Severity,
      confidence: v.confidence,
      report_type: v.report_type,
      project_id: v.project_id,
      vulnerability_id: v.id,
      scanner: { external_id: v.scanner_external_id, name: v.scanner_name, vendor: v.scanner_vendor },
      location: json(v.location, {}),
      identifiers: json<z.infer<typeof vulnerabilityIdentifier>[]>(v.identifiers, []),
      links: json(v.links, []),
      cvss: json(v.cvss, []),
      details: json(v.details, {}),
      created_at: v.created_at,
      updated_at: v.updated_at,
    },
    web_url: `${s.baseUrl}/${s.project.path_with_namespace}/-/security/vulnerabilities/${v.id}`,
  };
}

export function presentTransition(t: VulnerabilityTransitionRow, author: UserRow | null): VulnerabilityStateTransition {
  return {
    id: t.id,
    from_state: t.from_state as VulnerabilityState,
    to_state: t.to_state as VulnerabilityState,
    author: author ? { id: author.id, username: author.username, name: author.name } : null,
    comment: t.comment,
    dismissal_reason: t.dismissal_reason as DismissalReason | null,
    pipeline_id: t.pipeline_id,
    created_at: t.created_at,
  };
}
