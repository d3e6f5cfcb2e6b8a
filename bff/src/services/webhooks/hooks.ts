import crypto from 'node:crypto';
import type { Db } from '../../db/index.ts';
import type { WebHookRow, WebHooksTable } from '../../db/schema.ts';
import { columnsOf } from '../../db/columns.ts';
import type { ExpressionBuilder } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { ownerColumn, ownerColumns, type TwinScope } from '../../db/twins.ts';
import type { Vault } from '../../auth/vault.ts';
import {
  GROUP_ONLY_HOOK_FLAGS,
  HOOK_VARIABLE_NAME,
  branchFilterProblem,
  fillUrl,
  headerProblems,
  hookFlagsFor,
  placeholdersOf,
  templateProblem,
  type HookCreateBody,
  type HookUpdateBody,
} from '../../../../shared/src/hooks.ts';
import { notFound, unprocessable } from '../../util/errors.ts';
import { BlockedRequestError, checkUrl } from '../../outbound/guard.ts';
import { nowIso } from '../../util/time.ts';
import { getSettings } from '../instance/application-settings.ts';
import { offsetPage, type Page, type PageRequest } from '../../db/pagination.ts';

/** A group's, a project's, or the instance's (system hooks: an administrator's, id 0). */
export type HookScope = TwinScope | 'system';
export interface HookOwner {
  scope: HookScope;
  id: number;
}
export const SYSTEM_HOOKS: HookOwner = { scope: 'system', id: 0 };

/** The condition a hook of this owner meets: its owner column, or being a system hook (neither column set). */
export const ownedBy = (owner: HookOwner) => (eb: ExpressionBuilder<Database, 'web_hooks'>) =>
  owner.scope === 'system' ? eb('web_hooks.scope', '=', 'system') : eb(`web_hooks.${ownerColumn(owner.scope)}`, '=', owner.id);


/** A page of the group's or project's hooks, oldest first (paginated like every list of the platform). */
export async function listHooks(db: Db, owner: HookOwner, page: PageRequest): Promise<Page<WebHookRow>> {
  return offsetPage(db, db.selectFrom('web_hooks').selectAll().where(ownedBy(owner)).orderBy('id'), page);
}

export async function findHook(db: Db, owner: HookOwner, id: number): Promise<WebHookRow> {
  const row = await db.selectFrom('web_hooks').selectAll().where('id', '=', id).where(ownedBy(owner)).executeTakeFirst();
  if (!row) throw notFound('Hook');
  return row;
}

/** Rule failures about what the hook would do are 422, with the field named. */

/** The URL with its {variable} parts filled in. */
export const resolveUrl = fillUrl;

async function validate(
  db: Db,
  scope: HookScope,
  merged: { url: string; push_events_branch_filter?: string | null; branch_filter_strategy?: string; custom_headers?: { key: string; value: string }[]; url_variables?: { key: string; value: string }[]; custom_webhook_template?: string | null },
  body: Partial<HookCreateBody>,
) {
  const errors: Record<string, string[]> = {};
  if (scope !== 'groups') {
    for (const f of GROUP_ONLY_HOOK_FLAGS) if (body[f] !== undefined) errors[f] = ['is only available on group hooks'];
  }
  const variables = merged.url_variables ?? [];
  for (const v of variables) if (!HOOK_VARIABLE_NAME.test(v.key)) (errors.url_variables ??= []).push(`key ${JSON.stringify(v.key)} may contain only letters, digits and "_"`);
  const missing = placeholdersOf(merged.url).filter((k) => !variables.some((v) => v.key === k));
  if (missing.length) (errors.url ??= []).push(`uses variables that are not defined: ${missing.join(', ')}`);
  else {
    const allowLocal = (await getSettings(db)).allow_local_requests_from_web_hooks_and_services;
    try {
      await checkUrl(resolveUrl(merged.url, variables), allowLocal);
    } catch (e) {
      if (!(e instanceof BlockedRequestError)) throw e;
      (errors.url ??= []).push(e.message.startsWith('is ') || e.message.startsWith('must') ? e.message : `is blocked: ${e.message}`);
    }
  }
  const headers = headerProblems(merged.custom_headers ?? []);
  if (headers.length) errors.custom_headers = headers;
  const filter = branchFilterProblem(merged.push_events_branch_filter, merged.branch_filter_strategy ?? 'wildcard');
  if (filter) errors.push_events_branch_filter = [filter];
  const template = templateProblem(merged.custom_webhook_template);
  if (template) errors.custom_webhook_template = [template];
  if (Object.keys(errors).length) throw unprocessable(errors);
}

const hookColumns = columnsOf<WebHooksTable>();

/** The body's columns: plain fields as stored, secrets encrypted. */
function columnsFor(vault: Vault, body: Partial<HookCreateBody>) {
  const { token, custom_headers, url_variables, ...rest } = body;
  return {
    ...hookColumns(rest),
    ...(token !== undefined ? { encrypted_token: token === '' ? null : vault.encrypt(token) } : {}),
    ...(custom_headers !== undefined ? { encrypted_custom_headers: vault.encryptJson(custom_headers) } : {}),
    ...(url_variables !== undefined ? { encrypted_url_variables: vault.encryptJson(url_variables) } : {}),
  };
}

export async function createHook(db: Db, vault: Vault, owner: HookOwner, body: HookCreateBody): Promise<WebHookRow> {
  await validate(db, owner.scope, body, body);
  const now = nowIso();
  const inserted = await db
    .insertInto('web_hooks')
    .values({
      ...columnsFor(vault, body),
      ...(owner.scope === 'system' ? { group_id: null, project_id: null } : ownerColumns({ scope: owner.scope, id: owner.id })),
      uuid: crypto.randomUUID(),
      scope: owner.scope === 'groups' ? 'group' : owner.scope === 'system' ? 'system' : 'project',
      url: body.url,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return db.selectFrom('web_hooks').selectAll().where('id', '=', inserted.id).executeTakeFirstOrThrow();
}

const URL_CREDENTIALS = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)@/i;
const PLACEHOLDER = /^\{[A-Za-z0-9_]+\}$/;
export const CREDENTIAL_MASK = '*****';

/**
 * The URL as shown: a user name and password written into it are masked, like tokens, header
 * values and URL variables (placeholders such as `{user}` are already secret-free).
 */
export function maskUrlCredentials(url: string): string {
  return url.replace(URL_CREDENTIALS, (_m, scheme: string, userinfo: string) => {
    const parts = userinfo.split(':');
    const masked = [parts[0], parts.slice(1).join(':')].slice(0, parts.length > 1 ? 2 : 1).map((p) => (p === '' || PLACEHOLDER.test(p) ? p : CREDENTIAL_MASK));
    return `${scheme}${masked.join(':')}@`;
  });
}

export async function updateHook(db: Db, vault: Vault, owner: HookOwner, hook: WebHookRow, body: HookUpdateBody): Promise<WebHookRow> {
  // The URL sent back as shown (credentials masked) keeps the credentials it has.
  if (body.url !== undefined && body.url !== hook.url && body.url === maskUrlCredentials(hook.url)) body = { ...body, url: hook.url };
  const secrets = hookSecrets(vault, hook);
  await validate(
    db,
    owner.scope,
    {
      url: body.url ?? hook.url,
      push_events_branch_filter: body.push_events_branch_filter !== undefined ? body.push_events_branch_filter : hook.push_events_branch_filter,
      branch_filter_strategy: body.branch_filter_strategy ?? hook.branch_filter_strategy,
      custom_headers: body.custom_headers ?? secrets.customHeaders,
      url_variables: body.url_variables ?? secrets.urlVariables,
      custom_webhook_template: body.custom_webhook_template !== undefined ? body.custom_webhook_template : hook.custom_webhook_template,
    },
    body,
  );
  await db.updateTable('web_hooks').set({ ...columnsFor(vault, body), updated_at: nowIso() }).where('id', '=', hook.id).execute();
  return db.selectFrom('web_hooks').selectAll().where('id', '=', hook.id).executeTakeFirstOrThrow();
}

export async function deleteHook(db: Db, hook: WebHookRow): Promise<void> {
  await db.deleteFrom('web_hooks').where('id', '=', hook.id).execute();
}

export function hookSecrets(vault: Vault, hook: WebHookRow) {
  return {
    token: hook.encrypted_token ? vault.decrypt(hook.encrypted_token) : null,
    customHeaders: vault.decryptJson<{ key: string; value: string }[]>(hook.encrypted_custom_headers, []),
    urlVariables: vault.decryptJson<{ key: string; value: string }[]>(hook.encrypted_url_variables, []),
  };
}

export type AlertStatus = 'executable' | 'temporarily_disabled' | 'disabled';
export function alertStatus(hook: Pick<WebHookRow, 'permanently_disabled' | 'disabled_until'>, now = nowIso()): AlertStatus {
  if (hook.permanently_disabled) return 'disabled';
  if (hook.disabled_until && hook.disabled_until > now) return 'temporarily_disabled';
  return 'executable';
}

export const flagsOf = (scope: HookScope) => hookFlagsFor(scope);
