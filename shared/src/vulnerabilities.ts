import { z } from './errors.ts';

export const VULNERABILITY_STATES = ['detected', 'confirmed', 'dismissed', 'resolved'] as const;
export type VulnerabilityState = (typeof VULNERABILITY_STATES)[number];

/** The platform's severities with their enum values (ordering: critical first). */
export const SEVERITY_LEVELS = { critical: 7, high: 6, medium: 5, low: 4, unknown: 2, info: 1 } as const;
export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info', 'unknown'] as const;
export type Severity = (typeof SEVERITIES)[number];

export const DISMISSAL_REASONS = ['acceptable_risk', 'false_positive', 'mitigating_control', 'used_in_tests', 'not_applicable'] as const;
export type DismissalReason = (typeof DISMISSAL_REASONS)[number];
export const dismissalReason = z.enum(DISMISSAL_REASONS);
