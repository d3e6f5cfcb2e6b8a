import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { CustomAttributesTable } from '../../db/schema.ts';
import { notFound } from '../../util/errors.ts';
import { nowIso } from '../../util/time.ts';

export type ModelType = CustomAttributesTable['model_type'];

/**
 * The `custom_attributes[key]=value` filter of a list: one condition per pair, each true when
 * the record (its id column named by `idColumn`, e.g. `users.id`) has that attribute.
 */
export function customAttributeConditions(db: Db, type: ModelType, idColumn: string, attrs: Record<string, string>): RawBuilder<boolean>[] {
  return Object.entries(attrs).map(([key, value]) => customAttributeCondition(db, type, idColumn, key, value));
}

/** The row (by its `idColumn`) has the custom attribute `key` set to `value`. */
export function customAttributeCondition(db: Db, type: ModelType, idColumn: string, key: string, value: string): RawBuilder<boolean> {
  return sql<boolean>`exists ${db
    .selectFrom('custom_attributes as ca')
    .select(sql`1`.as('one'))
    .where('ca.model_type', '=', type)
    .where('ca.model_id', '=', sql<number>`${sql.ref(idColumn)}`)
    .where('ca.key', '=', key)
    .where('ca.value', '=', value)}`;
}

export async function listCustomAttributes(db: Db, type: ModelType, id: number) {
  return db.selectFrom('custom_attributes').select(['key', 'value']).where('model_type', '=', type).where('model_id', '=', id).orderBy('key').execute();
}

export async function getCustomAttribute(db: Db, type: ModelType, id: number, key: string) {
  const row = await db
    .selectFrom('custom_attributes')
    .select(['key', 'value'])
    .where('model_type', '=', type)
    .where('model_id', '=', id)
    .where('key', '=', key)
    .executeTakeFirst();
  if (!row) throw notFound('Custom Attribute');
  return row;
}

/** Creates the attribute, or updates its value when the key exists. */
export async function setCustomAttribute(db: Db, type: ModelType, id: number, key: string, value: string) {
  const now = nowIso();
  await db
    .insertInto('custom_attributes')
    .values({ model_type: type, model_id: id, key, value, created_at: now, updated_at: now })
    .onConflict((oc) => oc.columns(['model_type', 'model_id', 'key']).doUpdateSet({ value, updated_at: now }))
    .execute();
  return getCustomAttribute(db, type, id, key);
}

export async function deleteCustomAttribute(db: Db, type: ModelType, id: number, key: string): Promise<void> {
  await getCustomAttribute(db, type, id, key);
  await db.deleteFrom('custom_attributes').where('model_type', '=', type).where('model_id', '=', id).where('key', '=', key).execute();
}
