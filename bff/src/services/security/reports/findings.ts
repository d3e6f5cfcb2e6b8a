import crypto from 'node:crypto';
import type { FindingReportType } from '../../../../../shared/src/security-reports.ts';
import { SEVERITY_LEVELS, type Severity } from '../../../../../shared/src/vulnerabilities.ts';

/** A finding of a validated report, in the shape a vulnerability row stores. */
export interface Finding {
  uuid: string;
  report_type: FindingReportType;
  title: string;
  description: string | null;
  message: string | null;
  solution: string | null;
  severity: Severity;
  severity_level: number;
  confidence: string | null;
  location: string;
  location_path: string | null;
  package_name: string | null;
  package_version: string | null;
  identifiers: string;
  links: string;
  cvss: string;
  details: string;
}

export interface Scanner {
  external_id: string;
  name: string;
  vendor: string | null;
}

/* eslint-disable @typescript-eslint/no-explicit-any */
type Raw = Record<string, any>;

const sha1 = (s: string) => crypto.createHash('sha1').update(s).digest('hex');

/** RFC 4122 version 5 (name-based, SHA-1). */
function uuidV5(name: string, namespace: string): string {
  const bytes = crypto.createHash('sha1').update(Buffer.from(namespace.replace(/-/g, ''), 'hex')).update(name).digest().subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x50;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const h = bytes.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
/** The namespace the platform's production installations use for finding UUIDs. */
const FINDING_NAMESPACE = '58dc0f06-936c-43b3-93bb-71693f1b6570';

const imageWithoutTag = (image: string) => image.replace(/(@sha256)?:[^:/]+$/, '');

/**
 * What locates a finding, as the platform fingerprints it: the same place in a later report is
 * the same finding, wherever the line moved to within the same bounds.
 */
function locationKey(type: FindingReportType, loc: Raw): { key: string; path: string | null } {
  switch (type) {
    case 'dependency_scanning':
      return { key: `${loc.file}:${loc.dependency?.package?.name ?? ''}`, path: loc.file ?? null };
    case 'container_scanning':
      return { key: `${imageWithoutTag(String(loc.image))}:${loc.dependency?.package?.name ?? ''}`, path: loc.image ?? null };
    case 'dast':
      return { key: `${loc.path ?? ''}:${loc.method ?? ''}:${loc.param ?? ''}`, path: loc.hostname || loc.path ? `${loc.hostname ?? ''}${loc.path ?? ''}` : null };
    default:
      return { key: `${loc.file ?? ''}:${loc.start_line ?? ''}:${loc.end_line ?? ''}`, path: loc.file ?? null };
  }
}

const severityOf = (s: unknown): Severity => {
  const v = String(s ?? 'unknown').toLowerCase();
  return (v in SEVERITY_LEVELS ? v : 'unknown') as Severity;
};

/**
 * The findings of a validated report for a project. Identity follows the platform: a UUID v5
 * of report type, primary identifier (the first) fingerprint, location fingerprint and project.
 * A report listing the same finding twice counts it once.
 */
export function reportFindings(type: FindingReportType, report: Raw, projectId: number): { scanner: Scanner; findings: Finding[] } {
  const s = report.scan?.scanner ?? {};
  const scanner: Scanner = { external_id: String(s.id), name: String(s.name), vendor: s.vendor?.name ?? null };
  const byUuid = new Map<string, Finding>();
  for (const v of (report.vulnerabilities ?? []) as Raw[]) {
    const primary = v.identifiers[0] as Raw;
    const loc = (v.location ?? {}) as Raw;
    const { key, path } = locationKey(type, loc);
    const uuid = uuidV5(`${type}-${sha1(`${primary.type}:${primary.value}`)}-${sha1(key)}-${projectId}`, FINDING_NAMESPACE);
    const severity = severityOf(v.severity);
    byUuid.set(uuid, {
      uuid,
      report_type: type,
      title: String(v.name ?? v.message ?? primary.name).slice(0, 255),
      description: v.description ?? null,
      message: v.message ?? null,
      solution: v.solution ?? null,
      severity,
      severity_level: SEVERITY_LEVELS[severity],
      confidence: v.confidence ? String(v.confidence).toLowerCase() : null,
      location: JSON.stringify(loc),
      location_path: path,
      package_name: loc.dependency?.package?.name ?? null,
      package_version: loc.dependency?.version ?? null,
      identifiers: JSON.stringify((v.identifiers as Raw[]).map((i) => ({ type: i.type, name: i.name, value: i.value, url: i.url ?? null }))),
      links: JSON.stringify(((v.links ?? []) as Raw[]).map((l) => ({ name: l.name ?? null, url: l.url }))),
      cvss: JSON.stringify(((v.cvss_vectors ?? []) as Raw[]).map((c) => ({ vendor: c.vendor, vector: c.vector }))),
      details: JSON.stringify(v.details ?? {}),
    });
  }
  return { scanner, findings: [...byUuid.values()] };
}
