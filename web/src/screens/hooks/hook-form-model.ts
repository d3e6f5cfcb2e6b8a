import { z } from 'zod';
import {
  branchFilterProblem,
  branchFilterStrategy,
  fillUrl,
  HOOK_VARIABLE_NAME,
  placeholdersOf,
  templateProblem,
  GROUP_ONLY_HOOK_FLAGS,
  HOOK_FLAGS,
  hookCreateBody,
  hookFlagsFor,
  type HookCreateInput,
  type HookFlag,
  type Webhook,
} from '../../../../shared/src/hooks.ts';
import type { FieldErrors } from '../../api/client.ts';
import type { HookScope } from '../../api/hooks.ts';

/**
 * The webhook form edits every field of a hook. Secrets are write-only: the token field starts
 * empty ("leave empty to keep"), and custom headers and URL variables show only their keys until
 * the user chooses to replace the list — re-entered values replace the whole list, as the API
 * does.
 */
export interface KeyValueRow {
  key: string;
  value: string;
}
/** `keep`: send nothing, the stored list stays. `replace`: the rows are the new list. */
export type ListMode = 'keep' | 'replace';
export type ListField = 'custom_headers' | 'url_variables';

export interface HookFormValues {
  url: string;
  name: string;
  description: string;
  token: string;
  /** Editing only: send an empty token, which removes the stored one. */
  clear_token: boolean;
  enable_ssl_verification: boolean;
  events: Record<HookFlag, boolean>;
  branch_filter_strategy: z.infer<typeof branchFilterStrategy>;
  push_events_branch_filter: string;
  custom_webhook_template: string;
  custom_headers_mode: ListMode;
  custom_headers: KeyValueRow[];
  url_variables_mode: ListMode;
  url_variables: KeyValueRow[];
}

const ALL_FLAGS = [...HOOK_FLAGS, ...GROUP_ONLY_HOOK_FLAGS] as HookFlag[];
const fields = hookCreateBody.shape;
/** The API's list of `{key, value}` (20 at most, neither part blank). */
const keyValueList = fields.custom_headers.unwrap();


/** "main, release/*" → "main,release/*": the API matches comma-separated patterns but refuses spaces in them. */
export const normalizeWildcard = (filter: string) =>
  filter
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean)
    .join(',');

/** What the server checks too (the rules live in shared/src/hooks.ts), caught before sending. */
export { placeholdersOf };

const listMode = z.enum(['keep', 'replace']);
const rows = z.array(z.object({ key: z.string(), value: z.string() }));

export const hookFormSchema = z
  .object({
    url: fields.url.trim(),
    name: fields.name.unwrap(),
    description: fields.description.unwrap(),
    token: fields.token.unwrap(),
    clear_token: z.boolean(),
    enable_ssl_verification: z.boolean(),
    events: z.object(Object.fromEntries(ALL_FLAGS.map((f) => [f, z.boolean()])) as Record<HookFlag, z.ZodBoolean>),
    branch_filter_strategy: branchFilterStrategy,
    push_events_branch_filter: fields.push_events_branch_filter.unwrap().unwrap(),
    custom_webhook_template: fields.custom_webhook_template.unwrap().unwrap(),
    custom_headers_mode: listMode,
    custom_headers: rows,
    url_variables_mode: listMode,
    url_variables: rows,
  })
  .superRefine((v, ctx) => {
    const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message });

    for (const list of ['custom_headers', 'url_variables'] as const) {
      if (v[`${list}_mode`] !== 'replace') continue;
      const parsed = keyValueList.safeParse(v[list]);
      if (!parsed.success) for (const i of parsed.error.issues) issue([list, ...(i.path as (string | number)[])], i.message);
      const seen = new Set<string>();
      v[list].forEach((row, i) => {
        const key = list === 'custom_headers' ? row.key.toLowerCase() : row.key;
        if (row.key && seen.has(key)) issue([list, i, 'key'], 'is given twice');
        seen.add(key);
        if (list === 'url_variables' && row.key && !HOOK_VARIABLE_NAME.test(row.key)) issue([list, i, 'key'], 'may contain only letters, digits and "_"');
      });
    }

    const url = v.url.trim();
    if (url) {
      const defined = new Set(v.url_variables.map((r) => r.key));
      const missing = placeholdersOf(url).filter((k) => !defined.has(k));
      if (missing.length) issue(['url'], `uses variables that are not defined: ${missing.join(', ')} (add them under URL variables)`);
      let parsed: URL | null = null;
      try {
        parsed = new URL(fillUrl(url, placeholdersOf(url).map((key) => ({ key, value: 'x' }))));
      } catch {
        parsed = null;
      }
      if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) issue(['url'], 'must be a URL that starts with http:// or https://');
    }

    const filter = v.push_events_branch_filter.trim();
    if (v.events.push_events && v.branch_filter_strategy !== 'all_branches') {
      if (!filter) issue(['push_events_branch_filter'], 'can’t be blank: enter a pattern, or choose all branches');
      else {
        const problem = branchFilterProblem(filter, v.branch_filter_strategy);
        if (problem) issue(['push_events_branch_filter'], problem);
      }
    }

    const template = templateProblem(v.custom_webhook_template.trim());
    if (template) issue(['custom_webhook_template'], template);
  });

export function toFormValues(hook: Webhook | null): HookFormValues {
  const events = Object.fromEntries(ALL_FLAGS.map((f) => [f, hook ? Boolean(hook[f]) : f === 'push_events'])) as Record<HookFlag, boolean>;
  const filter = hook?.push_events_branch_filter ?? '';
  const keys = (list: { key: string }[] | undefined) => (list ?? []).map((r) => ({ key: r.key, value: '' }));
  return {
    url: hook?.url ?? '',
    name: hook?.name ?? '',
    description: hook?.description ?? '',
    token: '',
    clear_token: false,
    enable_ssl_verification: hook?.enable_ssl_verification ?? true,
    events,
    // A filter left empty means every branch, whatever strategy was stored with it.
    branch_filter_strategy: filter && hook ? hook.branch_filter_strategy : 'all_branches',
    push_events_branch_filter: filter,
    custom_webhook_template: hook?.custom_webhook_template ?? '',
    custom_headers_mode: hook?.custom_headers.length ? 'keep' : 'replace',
    custom_headers: keys(hook?.custom_headers),
    url_variables_mode: hook?.url_variables.length ? 'keep' : 'replace',
    url_variables: keys(hook?.url_variables),
  };
}

/**
 * The POST/PUT body: every field the form shows, the flags of the scope only, a secret only
 * when one was typed (or its removal asked for), a list only when it is being replaced.
 */
export function toBody(v: HookFormValues, scope: HookScope, hook: Webhook | null): HookCreateInput {
  const editing = hook !== null;
  const body: HookCreateInput = {
    url: v.url.trim(),
    name: v.name.trim(),
    description: v.description.trim(),
    enable_ssl_verification: v.enable_ssl_verification,
    branch_filter_strategy: v.branch_filter_strategy,
    push_events_branch_filter:
      v.branch_filter_strategy === 'all_branches'
        ? null
        : v.branch_filter_strategy === 'wildcard'
          ? normalizeWildcard(v.push_events_branch_filter)
          : v.push_events_branch_filter.trim(),
    custom_webhook_template: v.custom_webhook_template.trim() ? v.custom_webhook_template : null,
  };
  // A system hook has no branch filter: it hears every push of every project.
  if (scope === 'system') {
    delete body.branch_filter_strategy;
    delete body.push_events_branch_filter;
  }
  for (const f of hookFlagsFor(scope)) body[f] = v.events[f];
  if (editing && v.clear_token) body.token = '';
  else if (v.token) body.token = v.token;
  for (const list of ['custom_headers', 'url_variables'] as const) {
    // An empty list that was empty before says nothing new.
    const unchanged = editing && hook[list].length === 0 && v[list].length === 0;
    if (v[`${list}_mode`] === 'replace' && !unchanged) body[list] = v[list].map((r) => ({ key: r.key.trim(), value: r.value }));
  }
  return body;
}

/** Where a server error about `path` goes in the form; null when no field shows it. */
export function formPathOf(path: string, scope: HookScope): string | null {
  const [head] = path.split('.');
  if ((hookFlagsFor(scope) as string[]).includes(head)) return `events.${head}`;
  const direct = ['url', 'name', 'description', 'token', 'enable_ssl_verification', 'push_events_branch_filter', 'branch_filter_strategy', 'custom_webhook_template', 'custom_headers', 'url_variables'];
  if (!direct.includes(head)) return null;
  if (head === 'branch_filter_strategy') return 'push_events_branch_filter';
  return path;
}

/** Does a message about a list name this key ("X-Foo is set by…", "key \"a-b\" may…", "the value of X-Foo…")? */
const names = (message: string, key: string) =>
  message.includes(JSON.stringify(key)) || message.startsWith(`${key} `) || message.includes(` ${key} `) || message.endsWith(` ${key}`);

/**
 * The server words a bad header or URL variable as a message about the whole list
 * (`custom_headers: ["X-Service-Event is set by Gatehouse and cannot be overridden"]`); each
 * message that names a row's key goes on that row (its value's field when it is about the value),
 * the rest stays under the list.
 */
export function rowErrors(errors: FieldErrors, values: HookFormValues): FieldErrors {
  const out: FieldErrors = {};
  const add = (path: string, message: string) => (out[path] ??= []).push(message);
  for (const [path, messages] of Object.entries(errors)) {
    const list = (['custom_headers', 'url_variables'] as const).find((l) => l === path && values[`${l}_mode`] === 'replace');
    for (const message of messages) {
      const row = list ? values[list].findIndex((r) => r.key.trim() !== '' && names(message, r.key.trim())) : -1;
      if (!list || row === -1) add(path, message);
      else add(`${list}.${row}.${/^the value of /i.test(message) ? 'value' : 'key'}`, message);
    }
  }
  return out;
}

export const FIELD_LABELS: Record<string, string> = {
  url: 'URL',
  name: 'Name',
  description: 'Description',
  token: 'Secret token',
  push_events_branch_filter: 'Branch filter',
  custom_webhook_template: 'Custom payload template',
  custom_headers: 'Custom headers',
  url_variables: 'URL variables',
};
