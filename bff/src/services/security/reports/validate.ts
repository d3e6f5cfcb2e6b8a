import fs from 'node:fs';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Validation, Spec } from '@cyclonedx/cyclonedx-library';
import type { FindingReportType } from '../../../../../shared/src/security-reports.ts';

/**
 * Reports are checked against their published formats before anything is read from them: the
 * platform's security report schemas (restated in our words under ./schemas, rule for rule as
 * security-report-schemas 15.x has them; validate.unit.test.ts checks each rule) and the official CycloneDX
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

/** One validator per version: each compiles its schema once, on first use. */
const cyclonedxValidators = new Map<Spec.Version, InstanceType<typeof Validation.JsonStrictValidator>>();
function cyclonedxValidator(version: Spec.Version) {
  let v = cyclonedxValidators.get(version);
  if (!v) cyclonedxValidators.set(version, (v = new Validation.JsonStrictValidator(version)));
  return v;
}

/**
 * The official schemas declare `components` uniqueItems, which their validator checks pair by
 * pair: quadratic, minutes for a large SBOM. So the components go to the validator in batches
 * (every schema rule but uniqueness holds per component), and uniqueness is checked here, once.
 */
const COMPONENT_BATCH = 500;

const offsetPaths = (errors: ErrorObject[], offset: number) =>
  errors.map((e) => ({ ...e, instancePath: e.instancePath.replace(/^\/components\/(\d+)/, (_m, n: string) => `/components/${Number(n) + offset}`) }));

async function validateCyclonedx(version: Spec.Version, doc: Record<string, unknown>): Promise<ErrorObject[] | string | null> {
  const validator = cyclonedxValidator(version);
  const components = doc.components;
  const asList = (error: unknown) => (error === null ? null : Array.isArray(error) ? (error as ErrorObject[]) : String(error));
  if (!Array.isArray(components) || components.length <= COMPONENT_BATCH) return asList(await validator.validate(JSON.stringify(doc)));
  const seen = new Map<string, number>();
  for (const [i, c] of components.entries()) {
    const key = JSON.stringify(c);
    if (seen.has(key)) return `property '/components/${i}' repeats '/components/${seen.get(key)}' (components must be unique)`;
    seen.set(key, i);
  }
  // The whole document with its first batch; then each later batch alone, in the smallest valid document.
  const skeleton = { bomFormat: doc.bomFormat, specVersion: doc.specVersion, version: doc.version };
  for (let at = 0; at < components.length; at += COMPONENT_BATCH) {
    const part = components.slice(at, at + COMPONENT_BATCH);
    const error = asList(await validator.validate(JSON.stringify(at === 0 ? { ...doc, components: part } : { ...skeleton, components: part })));
    if (error !== null) return typeof error === 'string' ? error : offsetPaths(error, at);
  }
  return null;
}

/** The CycloneDX schema's complaints about an SBOM (its parsed document), or none. Versions 1.4 to 1.6. */
export async function cyclonedxErrors(doc: Record<string, unknown>): Promise<string[]> {
  const specVersion = doc.specVersion;
  if (!CYCLONEDX_VERSIONS.includes(specVersion as (typeof CYCLONEDX_VERSIONS)[number])) {
    return [`specVersion must be one of ${CYCLONEDX_VERSIONS.join(', ')} (got ${JSON.stringify(specVersion ?? null)})`];
  }
  const error = await validateCyclonedx(specVersion as Spec.Version, doc);
  if (error === null) return [];
  if (typeof error === 'string') return [error];
  return [...new Set(error.map(describe))].slice(0, MAX_MESSAGES);
}
