import { z } from './errors.ts';
import { boolParam, paginationQuery } from './params.ts';
import { re2Problem } from './re2.ts';

// The events and their names live in a module without zod (hook-events.ts), which the console's
// lists import: a list of hooks has no schema to check, and zod with RE2 weighed 65 KB compressed.
export { GROUP_ONLY_HOOK_FLAGS, HOOK_EVENTS, HOOK_FLAGS, HOOK_STATUS_CATEGORIES, SYSTEM_EVENTS, SYSTEM_HOOK_FLAGS, hookFlagsFor, type HookFlag } from './hook-events.ts';
import { GROUP_ONLY_HOOK_FLAGS, HOOK_EVENTS, HOOK_FLAGS, HOOK_STATUS_CATEGORIES, type HookFlag } from './hook-events.ts';

export const branchFilterStrategy = z.enum(['wildcard', 'regex', 'all_branches']);
const keyValue = z.object({ key: z.string().min(1).max(255), value: z.string().min(1).max(2048) });

const flagFields = Object.fromEntries(
  [...HOOK_FLAGS, ...GROUP_ONLY_HOOK_FLAGS].map((f) => [f, boolParam().optional()]),
) as Record<HookFlag, z.ZodOptional<ReturnType<typeof boolParam>>>;

const hookFields = {
  url: z.string().min(1).max(2048),
  name: z.string().max(255).optional(),
  description: z.string().max(2048).optional(),
  token: z.string().max(2048).optional(),
  enable_ssl_verification: boolParam().optional(),
  push_events_branch_filter: z.string().max(2048).nullable().optional(),
  branch_filter_strategy: branchFilterStrategy.optional(),
  custom_webhook_template: z.string().max(16_384).nullable().optional(),
  custom_headers: z.array(keyValue).max(20).optional(),
  url_variables: z.array(keyValue).max(20).optional(),
  ...flagFields,
};

/** POST …/hooks. */
export const hookCreateBody = z.object(hookFields);
export type HookCreateBody = z.infer<typeof hookCreateBody>;
export type HookCreateInput = z.input<typeof hookCreateBody>;

/** POST /hooks (system hooks): the flags a system hook has; other flags are ignored, as the platform's undeclared parameters. */
const systemFields = {
  url: hookFields.url,
  name: hookFields.name,
  description: hookFields.description,
  token: hookFields.token,
  enable_ssl_verification: hookFields.enable_ssl_verification,
  custom_webhook_template: hookFields.custom_webhook_template,
  custom_headers: hookFields.custom_headers,
  url_variables: hookFields.url_variables,
  push_events: boolParam().optional(),
  tag_push_events: boolParam().optional(),
  merge_requests_events: boolParam().optional(),
  repository_update_events: boolParam().optional(),
};
export const systemHookCreateBody = z.object(systemFields);
export const systemHookUpdateBody = z
  .object({ ...systemFields, url: hookFields.url.optional() })
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: 'at least one parameter must be provided' });

/** PUT …/hooks/:hook_id: every field optional, at least one given. */
export const hookUpdateBody = z
  .object({ ...hookFields, url: hookFields.url.optional() })
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: 'at least one parameter must be provided' });
export type HookUpdateBody = z.infer<typeof hookUpdateBody>;

const flagOutputs = Object.fromEntries([...HOOK_FLAGS, ...GROUP_ONLY_HOOK_FLAGS].map((f) => [f, z.boolean().optional()])) as Record<
  HookFlag,
  z.ZodOptional<z.ZodBoolean>
>;

/** Webhook (spec part 1): secrets are write-only, header and variable values never shown. */
export const webhook = z.object({
  id: z.number().int(),
  url: z.string(),
  name: z.string(),
  description: z.string(),
  created_at: z.string(),
  group_id: z.number().int().optional(),
  project_id: z.number().int().optional(),
  enable_ssl_verification: z.boolean(),
  alert_status: z.enum(['executable', 'temporarily_disabled', 'disabled']),
  disabled_until: z.string().nullable(),
  url_variables: z.array(z.object({ key: z.string() })),
  push_events_branch_filter: z.string().nullable(),
  branch_filter_strategy: branchFilterStrategy,
  custom_webhook_template: z.string().nullable(),
  custom_headers: z.array(z.object({ key: z.string() })),
  ...flagOutputs,
});
export type Webhook = z.infer<typeof webhook>;

/** Delivery log record (spec part 1). */
export const hookEvent = z.object({
  id: z.number().int(),
  url: z.string(),
  trigger: z.string(),
  request_headers: z.record(z.string(), z.string()),
  request_data: z.unknown(),
  response_headers: z.record(z.string(), z.string()),
  response_body: z.string(),
  execution_duration: z.number(),
  response_status: z.string(),
  internal_error_message: z.string().nullable(),
  created_at: z.string(),
});
export type HookEvent = z.infer<typeof hookEvent>;

/**
 * How one hook's deliveries of the past seven days went, for the console's list of hooks: the
 * figures its delivery log gives. Counts go up to 10,000 like every list, and are null past it;
 * `failed` adds the client failures (4xx) and the server failures (5xx, timeouts, refused
 * connections) and is null when either is past 10,000. `latest` and `last_failure` are the
 * log's first record unfiltered and filtered by either failure category.
 */
export const hookHealth = z.object({
  hook_id: z.number().int(),
  total: z.number().int().nullable(),
  failed: z.number().int().nullable(),
  latest: hookEvent.nullable(),
  last_failure: hookEvent.nullable(),
});
export type HookHealth = z.infer<typeof hookHealth>;

export const hookEventsQuery = paginationQuery.extend({
  status: z
    .union([z.enum(HOOK_STATUS_CATEGORIES), z.string().regex(/^[1-5]\d\d$/, 'must be an HTTP status code or successful, client_failure, server_failure')])
    .optional(),
  trigger: z.string().max(64).optional(),
});

export const hookTestTriggers = Object.keys(HOOK_EVENTS) as HookFlag[];
export const resendResult = z.object({ response_status: z.number().int() });
/** A test trigger that reached a 2xx answer (anything else is a 422 with the reason). */
export const hookTestResult = z.object({ message: z.literal('201 Created') });

/*
 * Rules about what a hook would send, checked by the server (422) and by the console's form
 * before it sends: one definition for both.
 */
const URL_PLACEHOLDER = /\{([A-Za-z0-9_]+)\}/g;
const TEMPLATE_PLACEHOLDER = /\{\{\s*[A-Za-z0-9_.]+\s*\}\}/g;
export const HOOK_VARIABLE_NAME = /^[A-Za-z0-9_]{1,64}$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Headers Gatehouse sets itself, which a custom header may not override. */
const RESERVED_HEADER = /^(x-service-|x-gitlab-|content-type$|content-length$|host$|user-agent$|idempotency-key$|connection$|transfer-encoding$)/i;

/** The `{name}` placeholders of a URL, each once. */
export const placeholdersOf = (url: string) => [...new Set([...url.matchAll(URL_PLACEHOLDER)].map((m) => m[1]))];

/** The URL with its placeholders filled (values URL-encoded); unknown ones stay as they are. */
export function fillUrl(url: string, variables: { key: string; value: string }[]): string {
  return url.replace(URL_PLACEHOLDER, (m, key: string) => {
    const v = variables.find((x) => x.key === key);
    return v ? encodeURIComponent(v.value) : m;
  });
}

export function branchFilterProblem(filter: string | null | undefined, strategy: string | undefined): string | undefined {
  if (!filter || strategy === 'all_branches') return undefined;
  // RE2, as the platform checks it (the console's form and the server alike).
  if (strategy === 'regex') return re2Problem(filter);
  // Wildcards: `*` for anything, several patterns separated by commas.
  return filter.split(',').every((f) => /^[^\s~^:?\\[]+$/.test(f.trim())) ? undefined : 'is not a valid branch name pattern';
}

export function templateProblem(template: string | null | undefined): string | undefined {
  if (!template) return undefined;
  try {
    JSON.parse(template.replace(TEMPLATE_PLACEHOLDER, '0'));
    return undefined;
  } catch {
    return 'must be JSON once its {{placeholders}} are filled in';
  }
}

/** One message per problem of a custom header (name, reserved, twice, line breaks). */
export function headerProblems(headers: { key: string; value: string }[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const h of headers) {
    if (!HEADER_NAME.test(h.key)) problems.push(`${JSON.stringify(h.key)} is not a valid header name`);
    else if (RESERVED_HEADER.test(h.key)) problems.push(`${h.key} is set by Gatehouse and cannot be overridden`);
    else if (seen.has(h.key.toLowerCase())) problems.push(`${h.key} is given twice`);
    if (/[\r\n\0]/.test(h.value)) problems.push(`the value of ${h.key} may not contain line breaks`);
    seen.add(h.key.toLowerCase());
  }
  return problems;
}
