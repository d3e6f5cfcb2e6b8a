import { z } from './errors.ts';
import { paginationQuery, stringListParam } from './params.ts';
import { SECURITY_REPORT_TYPES } from './security-reports.ts';

export const VULNERABILITY_STATES = ['detected', 'confirmed', 'dismissed', 'resolved'] as const;
export type VulnerabilityState = (typeof VULNERABILITY_STATES)[number];

/** The platform's severities with their enum values (ordering: critical first). */
export const SEVERITY_LEVELS = { critical: 7, high: 6, medium: 5, low: 4, unknown: 2, info: 1 } as const;
export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info', 'unknown'] as const;
export type Severity = (typeof SEVERITIES)[number];

export const DISMISSAL_REASONS = ['acceptable_risk', 'false_positive', 'mitigating_control', 'used_in_tests', 'not_applicable'] as const;
export type DismissalReason = (typeof DISMISSAL_REASONS)[number];
export const dismissalReason = z.enum(DISMISSAL_REASONS);

const enumList = <T extends readonly [string, ...string[]]>(values: T) => stringListParam().pipe(z.array(z.enum(values)).max(values.length * 2));

/**
 * What a vulnerability report filters by, as lists (repeated `key[]=` or comma-separated): the
 * list's query and, under the same names, a vulnerability export's `filters` (the platform's
 * optional filters of POST …/vulnerability_exports), so an export holds what the report showed.
 */
export const vulnerabilityFilters = z.object({
  severity: enumList(SEVERITIES).optional(),
  state: enumList(VULNERABILITY_STATES).optional(),
  report_type: enumList(SECURITY_REPORT_TYPES.filter((t) => t !== 'cyclonedx') as unknown as readonly [string, ...string[]]).optional(),
  scanner: stringListParam().pipe(z.array(z.string().max(255)).max(50)).optional(),
});
export type VulnerabilityFilters = z.infer<typeof vulnerabilityFilters>;

/** GET /projects/:id/vulnerabilities: the report's filters and a page. */
export const vulnerabilityListQuery = paginationQuery.extend(vulnerabilityFilters.shape);
export type VulnerabilityListQuery = z.infer<typeof vulnerabilityListQuery>;

/** POST /vulnerabilities/:id/dismiss. */
export const vulnerabilityDismissBody = z.object({
  comment: z.string().max(50_000).optional(),
  dismissal_reason: dismissalReason.optional(),
});
export type VulnerabilityDismissBody = z.infer<typeof vulnerabilityDismissBody>;
/** POST /vulnerabilities/:id/confirm | resolve | revert: an optional comment (ours). */
export const vulnerabilityCommentBody = z.object({ comment: z.string().max(50_000).optional() });

export const vulnerabilityIdentifier = z.object({ type: z.string(), name: z.string(), value: z.string(), url: z.string().nullable() });

/** The finding behind a vulnerability: what the scanner reported. */
export const vulnerabilityFinding = z.object({
  id: z.number().int(),
  uuid: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  message: z.string().nullable(),
  solution: z.string().nullable(),
  severity: z.enum(SEVERITIES),
  confidence: z.string().nullable(),
  report_type: z.string(),
  project_id: z.number().int(),
  vulnerability_id: z.number().int(),
  scanner: z.object({ external_id: z.string(), name: z.string(), vendor: z.string().nullable() }),
  location: z.record(z.string(), z.unknown()),
  identifiers: z.array(vulnerabilityIdentifier),
  links: z.array(z.object({ name: z.string().nullable(), url: z.string() })),
  cvss: z.array(z.object({ vendor: z.string(), vector: z.string() })),
  details: z.record(z.string(), z.unknown()),
  created_at: z.string(),
  updated_at: z.string(),
});

/** The platform's Vulnerability entity, with its finding. */
export const vulnerability = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string().nullable(),
  state: z.enum(VULNERABILITY_STATES),
  severity: z.enum(SEVERITIES),
  confidence: z.string().nullable(),
  report_type: z.string(),
  project: z.object({ id: z.number().int(), name: z.string(), full_path: z.string(), full_name: z.string() }),
  project_default_branch: z.string().nullable(),
  author_id: z.number().int().nullable(),
  updated_by_id: z.number().int().nullable(),
  last_edited_by_id: z.number().int().nullable(),
  closed_by_id: z.number().int().nullable(),
  start_date: z.string().nullable(),
  due_date: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  last_edited_at: z.string().nullable(),
  closed_at: z.string().nullable(),
  detected_at: z.string(),
  resolved_on_default_branch: z.boolean(),
  resolved_by_id: z.number().int().nullable(),
  resolved_at: z.string().nullable(),
  dismissed_by_id: z.number().int().nullable(),
  dismissed_at: z.string().nullable(),
  dismissal_reason: dismissalReason.nullable(),
  confirmed_by_id: z.number().int().nullable(),
  confirmed_at: z.string().nullable(),
  location_path: z.string().nullable(),
  finding: vulnerabilityFinding,
  web_url: z.string(),
});
export type Vulnerability = z.infer<typeof vulnerability>;

/** A state move, as the vulnerability's history shows it (author null: a pipeline moved it). */
export const vulnerabilityStateTransition = z.object({
  id: z.number().int(),
  from_state: z.enum(VULNERABILITY_STATES),
  to_state: z.enum(VULNERABILITY_STATES),
  author: z.object({ id: z.number().int(), username: z.string(), name: z.string() }).nullable(),
  comment: z.string().nullable(),
  dismissal_reason: dismissalReason.nullable(),
  pipeline_id: z.number().int().nullable(),
  created_at: z.string(),
});
export type VulnerabilityStateTransition = z.infer<typeof vulnerabilityStateTransition>;

/** GET /vulnerabilities/:id: the vulnerability with its history, oldest first. */
export const vulnerabilityDetail = vulnerability.extend({ state_transitions: z.array(vulnerabilityStateTransition) });
export type VulnerabilityDetail = z.infer<typeof vulnerabilityDetail>;
