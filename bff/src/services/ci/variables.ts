import type { z } from 'zod';
import type { Db } from '../../db/index.ts';
import type { CiVariableRow } from '../../db/schema.ts';
import type { Vault } from '../../auth/vault.ts';
import { maskable, type variableCreateBody, type variableUpdateBody } from '../../../../shared/src/variables.ts';
import { ownerColumn, ownerColumns, type TwinOwner } from '../../db/twins.ts';
import { offsetPage, type Page, type PageRequest } from '../../db/pagination.ts';
import { uniqueViolation } from '../../db/errors.ts';
import { conflict, notFound, validationFailed } from '../../util/errors.ts';
import { nowIso } from '../../util/time.ts';

/**
 * CI/CD variables of a project or a group (twins), as the platform's Variables APIs keep them:
 * a key unique per owner and environment scope, the value encrypted at rest and opened only
 * to be answered to a Maintainer (project) or an Owner (group). A hidden variable's value is
 * never answered again.
 */
export interface VariableView {
  row: CiVariableRow;
  /** The value as answered: opened from the vault, or null for a hidden variable. */
  value: string | null;
}

const view = (vault: Vault, row: CiVariableRow): VariableView => ({ row, value: row.hidden ? null : vault.decrypt(row.encrypted_value) });

export async function listVariables(db: Db, vault: Vault, owner: TwinOwner, page: PageRequest): Promise<Page<VariableView>> {
  const rows = await offsetPage(db, db.selectFrom('ci_variables').selectAll().where(ownerColumn(owner.scope), '=', owner.id).orderBy('id'), page);
  return rows.map((row) => view(vault, row));
}

/**
 * The variable of that key (and environment scope, when `filter[environment_scope]` names one):
 * 404 if none, 409 if several scopes hold the key and no filter picks one (the platform's words).
 */
export async function findVariable(db: Db, owner: TwinOwner, key: string, environmentScope?: string): Promise<CiVariableRow> {
  let q = db.selectFrom('ci_variables').selectAll().where(ownerColumn(owner.scope), '=', owner.id).where('key', '=', key);
  if (environmentScope !== undefined) q = q.where('environment_scope', '=', environmentScope);
  const rows = await q.orderBy('id').limit(2).execute();
  if (!rows.length) throw notFound('Variable');
  if (rows.length > 1) throw conflict("There are multiple variables with provided parameters. Please use 'filter[environment_scope]'");
  return rows[0];
}

export const viewVariable = (vault: Vault, row: CiVariableRow) => view(vault, row);

/** The platform's masking rule on the variable as it will be: a masked value must be maskable. */
function checkMasking(v: { value: string; masked: boolean; raw: boolean }) {
  if (v.masked && !maskable(v.value, v.raw)) throw validationFailed({ value: ['is invalid'] });
}

const taken = (key: string) => validationFailed({ key: [`(${key}) has already been taken`] });
const isTaken = (err: unknown) => {
  const index = uniqueViolation(err);
  return index !== undefined && /ci_variables/.test(index);
};

async function ensureFree(db: Db, owner: TwinOwner, key: string, scope: string, except?: number) {
  let q = db.selectFrom('ci_variables').select('id').where(ownerColumn(owner.scope), '=', owner.id).where('key', '=', key).where('environment_scope', '=', scope);
  if (except !== undefined) q = q.where('id', '!=', except);
  if (await q.executeTakeFirst()) throw taken(key);
}

export async function createVariable(db: Db, vault: Vault, owner: TwinOwner, body: z.output<typeof variableCreateBody>): Promise<VariableView> {
  const hidden = body.masked_and_hidden === true;
  const masked = hidden || body.masked === true;
  const raw = body.raw === true;
  checkMasking({ value: body.value, masked, raw });
  const scope = body.environment_scope ?? '*';
  await ensureFree(db, owner, body.key, scope);
  const now = nowIso();
  try {
    const { id } = await db
      .insertInto('ci_variables')
      .values({
        ...ownerColumns(owner),
        key: body.key,
        encrypted_value: vault.encrypt(body.value),
        variable_type: body.variable_type ?? 'env_var',
        protected: body.protected ? 1 : 0,
        masked: masked ? 1 : 0,
        hidden: hidden ? 1 : 0,
        raw: raw ? 1 : 0,
        environment_scope: scope,
        description: body.description ?? null,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return view(vault, await db.selectFrom('ci_variables').selectAll().where('id', '=', id).executeTakeFirstOrThrow());
  } catch (err) {
    if (isTaken(err)) throw taken(body.key);
    throw err;
  }
}

/** Changes what the body gives; the key stays (the platform ignores a `key` in the body). */
export async function updateVariable(db: Db, vault: Vault, owner: TwinOwner, row: CiVariableRow, body: z.output<typeof variableUpdateBody>): Promise<VariableView> {
  const value = body.value ?? vault.decrypt(row.encrypted_value);
  // A hidden variable stays masked.
  const masked = row.hidden === 1 || (body.masked ?? row.masked === 1);
  const raw = body.raw ?? row.raw === 1;
  checkMasking({ value, masked, raw });
  const scope = body.environment_scope ?? row.environment_scope;
  if (scope !== row.environment_scope) await ensureFree(db, owner, row.key, scope, row.id);
  try {
    await db
      .updateTable('ci_variables')
      .set({
        ...(body.value !== undefined && { encrypted_value: vault.encrypt(body.value) }),
        ...(body.variable_type !== undefined && { variable_type: body.variable_type }),
        ...(body.protected !== undefined && { protected: body.protected ? 1 : 0 }),
        ...(body.description !== undefined && { description: body.description }),
        masked: masked ? 1 : 0,
        raw: raw ? 1 : 0,
        environment_scope: scope,
        updated_at: nowIso(),
      })
      .where('id', '=', row.id)
      .execute();
  } catch (err) {
    if (isTaken(err)) throw taken(row.key);
    throw err;
  }
  return view(vault, await db.selectFrom('ci_variables').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow());
}

export async function deleteVariable(db: Db, row: CiVariableRow): Promise<void> {
  await db.deleteFrom('ci_variables').where('id', '=', row.id).execute();
}
