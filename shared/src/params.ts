import { z } from 'zod';

/**
 * Parameters arrive as JSON, form fields or query strings alike (spec: "Shared conventions"),
 * so scalar parameters accept both their JSON type and their string spelling. A boolean's
 * spellings are those the platform's parameter coercion accepts (Grape's `Params::Bool`):
 * clients rely on them, python-gitlab for one sends `owned=True` in query strings.
 */
const TRUE_SPELLINGS = ['1', 'on', 'On', 'ON', 't', 'true', 'True', 'TRUE', 'T', 'y', 'yes', 'Yes', 'YES', 'Y'] as const;
const FALSE_SPELLINGS = ['0', 'off', 'Off', 'OFF', 'f', 'false', 'False', 'FALSE', 'F', 'n', 'no', 'No', 'NO', 'N'] as const;
const TRUE_SET: ReadonlySet<string> = new Set(TRUE_SPELLINGS);

/**
 * The coercion reads a value's text, so the JSON numbers 1 and 0 are true and false too (Perl
 * clients send them so). An empty string is no value at all (Grape reads it as nil): an
 * optional boolean sent empty is left out, a required one is missing.
 */
export const boolParam = () =>
  z.union([
    z.boolean(),
    z.enum([...TRUE_SPELLINGS, ...FALSE_SPELLINGS]).transform((v) => TRUE_SET.has(v)),
    z.literal([1, 0]).transform((v) => v === 1),
    z.literal('').transform(() => undefined),
  ]);

/** Whole numbers within the database's integer range, so no value can overflow a column. */
export const intParam = () =>
  z
    .union([z.number().int(), z.string().regex(/^-?\d{1,15}$/, 'must be an integer').transform(Number)])
    .pipe(z.number().int().min(-2_147_483_648).max(2_147_483_647));

/** An integer list sent as JSON array, repeated `key[]=` fields or a comma-separated string. */
export const intListParam = () =>
  z.preprocess(
    (v) => (typeof v === 'string' ? (v === '' ? [] : v.split(',')) : v),
    z.array(intParam()),
  );

export const stringListParam = () =>
  z.preprocess(
    (v) => (typeof v === 'string' ? (v === '' ? [] : v.split(',')) : v),
    z.array(z.string()),
  );

/** A calendar date that exists (no 2026-02-30, no month 13). */
const isRealDate = (v: string) => {
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
};

export const dateParam = () =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date (YYYY-MM-DD)')
    .refine(isRealDate, 'is not a valid date');

export const datetimeParam = () =>
  z.string().refine((v) => !Number.isNaN(Date.parse(v)) && /^\d{4}-\d{2}-\d{2}/.test(v) && isRealDate(v.slice(0, 10)), 'must be an ISO 8601 datetime');

/** Path parameter `:id` of a group or project: a numeric ID or the URL-encoded full path. */
export const idOrPath = z.string().min(1).max(255);

export const paginationQuery = z.object({
  page: intParam().pipe(z.number().int().min(1)).optional(),
  per_page: intParam().pipe(z.number().int().min(1)).optional(),
});
export type PaginationQuery = z.infer<typeof paginationQuery>;
