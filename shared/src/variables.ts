import { z } from './errors.ts';
import { boolParam, paginationQuery } from './params.ts';

/**
 * CI/CD variables of projects and groups (the platform's Project-level and Group-level
 * Variables APIs). No job runs in Gatehouse: they are kept for the CI that does, and for the
 * configuration tools that manage them.
 */
export const VARIABLE_TYPES = ['env_var', 'file'] as const;

/** The platform's Ci::Variable entity; `value` is null for a hidden variable. */
export const variable = z.object({
  variable_type: z.enum(VARIABLE_TYPES),
  key: z.string(),
  value: z.string().nullable(),
  hidden: z.boolean(),
  protected: z.boolean(),
  masked: z.boolean(),
  raw: z.boolean(),
  environment_scope: z.string(),
  description: z.string().nullable(),
});
export type Variable = z.infer<typeof variable>;

/** Keys as the platform validates them: letters, digits and `_`, up to 255 characters. */
export const variableKey = z
  .string()
  .trim()
  .min(1)
  .max(255)
  .regex(/^[a-zA-Z0-9_]+$/, "can contain only letters, digits and '_'.");

/** The characters of an environment scope, as the platform's environment_scope_regex. */
export const environmentScope = z
  .string()
  .max(255)
  .regex(/^[a-zA-Z0-9_/${}. *-]+$/, "can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', '*' and spaces");

/**
 * A masked value: one line of at least 8 characters, no spaces; unless the variable is raw,
 * only the Base64 alphabet with `@`, `:`, `.`, `~` and `-` (the platform's Ci::Maskable).
 */
export const MASKABLE = /^[a-zA-Z0-9_+=/@:.~-]{8,}$/;
export const MASKABLE_RAW = /^\S{8,}$/;
export const maskable = (value: string, raw: boolean) => (raw ? MASKABLE_RAW : MASKABLE).test(value);

/** `filter[environment_scope]` picks one of several variables of one key. */
const filter = z.object({ environment_scope: z.string().max(255).optional() }).optional();

const fields = {
  value: z.string().max(10_000),
  protected: boolParam().optional(),
  masked: boolParam().optional(),
  raw: boolParam().optional(),
  variable_type: z.enum(VARIABLE_TYPES).optional(),
  environment_scope: environmentScope.optional(),
  description: z.string().max(255).nullish(),
};

export const variableCreateBody = z.object({
  key: variableKey,
  ...fields,
  /** Masked, and its value never shown again (not even to Maintainers). */
  masked_and_hidden: boolParam().optional(),
});
export type VariableCreateBody = z.input<typeof variableCreateBody>;

export const variableUpdateBody = z.object({
  ...fields,
  value: fields.value.optional(),
  /** Ignored, as on the platform: a variable's key does not change. */
  key: z.string().optional(),
  filter,
});
export type VariableUpdateBody = z.input<typeof variableUpdateBody>;

export const variableFilterQuery = z.object({ filter });
export const variableListQuery = paginationQuery;
