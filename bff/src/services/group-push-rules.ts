import type { Db } from '../db/index.ts';
import type { GroupPushRuleRow, GroupPushRulesTable, GroupRow } from '../db/schema.ts';
import { columnsOf } from '../db/columns.ts';
import type { GroupPushRuleBody } from '../../../shared/src/group-push-rules.ts';
import { notFound, unprocessable } from './errors.ts';
import { nowIso } from '../util/time.ts';

const pushRuleColumns = columnsOf<GroupPushRulesTable>();

export async function findPushRule(db: Db, group: GroupRow): Promise<GroupPushRuleRow> {
  const rule = await db.selectFrom('group_push_rules').selectAll().where('group_id', '=', group.id).executeTakeFirst();
  if (!rule) throw notFound('Push Rule');
  return rule;
}

/** A group has at most one push rule: create it once, then update it. */
export async function createPushRule(db: Db, group: GroupRow, body: GroupPushRuleBody): Promise<GroupPushRuleRow> {
  const now = nowIso();
  const inserted = await db
    .insertInto('group_push_rules')
    .values({ ...pushRuleColumns(body), group_id: group.id, created_at: now, updated_at: now })
    .onConflict((oc) => oc.column('group_id').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) throw unprocessable('Group push rule exists, try updating');
  return findPushRule(db, group);
}

export async function updatePushRule(db: Db, group: GroupRow, body: GroupPushRuleBody): Promise<GroupPushRuleRow> {
  const rule = await findPushRule(db, group);
  await db.updateTable('group_push_rules').set({ ...pushRuleColumns(body), updated_at: nowIso() }).where('id', '=', rule.id).execute();
  return findPushRule(db, group);
}

export async function deletePushRule(db: Db, group: GroupRow): Promise<void> {
  const rule = await findPushRule(db, group);
  await db.deleteFrom('group_push_rules').where('id', '=', rule.id).execute();
}
