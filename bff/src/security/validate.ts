import fs from 'node:fs';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Validation, Spec } from '@cyclonedx/cyclonedx-library';
import type { FindingReportType } from '../../../shared/src/security-reports.ts';

/**
 * Reports are checked against their published formats before anything is read from them: the
 * platform's security report schemas (vendored under ./schemas) and the official CycloneDX
 * JSON schemas (through the CycloneDX library), so a bad report is refused with what is wrong.
 */
const schemaFile = (name: string) => JSON.parse(fs.readFileSync(new URL(`./schemas/${name}.json`, import.meta.url), 'utf8')) as object;

let validators: Record<FindingReportType, ValidateFunction> | undefined;
function reportValidators(): Record<FindingReportType, ValidateFunction> {
  if (validators) return validators;
  const ajv = new Ajv({ allErrors: true, strict: false });
  ajv.addSchema(schemaFile('report-common'));
  const types: FindingReportType[] = ['sast', 'dependency_scanning', 'container_scanning', 'secret_detection', 'dast'];
  validators = Object.fromEntries(types.map((t) => [t, ajv.compile(schemaFile(t))])) as Record<FindingReportType, ValidateFunction>;
  return validators;
}

/** At most this many problems are named: enough to fix a report, not a wall of text. */
const MAX_MESSAGES = 10;

const describe = (e: ErrorObject) => {
  const where = e.instancePath ? `property '${e.instancePath}'` : 'root';
  return `${where} ${e.message ?? 'is invalid'}${e.keyword === 'enum' ? ` (${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')})` : ''}`;
};

/** The schema's complaints about a security report, or none. */
export function securityReportErrors(type: FindingReportType, report: unknown): string[] {
  const validate = reportValidators()[type];
  if (validate(report)) return [];
  const messages = [...new Set((validate.errors ?? []).filter((e) => e.keyword !== 'allOf').map(describe))];
  return messages.slice(0, MAX_MESSAGES);
}

export const CYCLONEDX_VERSIONS = ['1.4', '1.5', '1.6'] as const;

/** The CycloneDX schema's complaints about an SBOM (JSON text), or none. Versions 1.4 to 1.6. */
export async function cyclonedxErrors(text: string, specVersion: unknown): Promise<string[]> {
  if (!CYCLONEDX_VERSIONS.includes(specVersion as (typeof CYCLONEDX_VERSIONS)[number])) {
    return [`specVersion must be one of ${CYCLONEDX_VERSIONS.join(', ')} (got ${JSON.stringify(specVersion ?? null)})`];
  }
  const error = await new Validation.JsonStrictValidator(specVersion as Spec.Version).validate(text);
  if (error === null) return [];
  const list = Array.isArray(error) ? (error as ErrorObject[]) : [];
  return list.length ? [...new Set(list.map(describe))].slice(0, MAX_MESSAGES) : [String(error)];
}
