import type { Db } from '../../db/index.ts';
import type { GroupRow, ProjectRow, PushRuleRow, PushRulesTable } from '../../db/schema.ts';
import { columnsOf } from '../../db/columns.ts';
import { ownerColumn, ownerColumns, type TwinOwner } from '../../db/twins.ts';
import type { GroupPushRuleBody } from '../../../../shared/src/group-push-rules.ts';
import { notFound, unprocessable } from '../../util/errors.ts';
import { nowIso } from '../../util/time.ts';

/**
 * Push rules of groups and projects, written once (twins, db/twins.ts). The rule a push is
 * checked against is the project's own; a new project starts with a copy of its group's.
 */
const pushRuleColumns = columnsOf<PushRulesTable>();

const EXISTS: Record<TwinOwner['scope'], string> = { groups: 'Group push rule exists, try updating', projects: 'Project push rule exists' };

/** The owner's rule, or undefined. */
export const pushRuleOf = (db: Db, owner: TwinOwner): Promise<PushRuleRow | undefined> =>
  db.selectFrom('push_rules').selectAll().where(ownerColumn(owner.scope), '=', owner.id).executeTakeFirst();

export async function findPushRule(db: Db, owner: TwinOwner): Promise<PushRuleRow> {
  const rule = await pushRuleOf(db, owner);
  if (!rule) throw notFound('Push Rule');
  return rule;
}

/** An owner has at most one push rule: create it once, then update it. */
export async function createPushRule(db: Db, owner: TwinOwner, body: GroupPushRuleBody): Promise<PushRuleRow> {
  const now = nowIso();
  const inserted = await db
    .insertInto('push_rules')
    .values({ ...pushRuleColumns(body), ...ownerColumns(owner), created_at: now, updated_at: now })
    .onConflict((oc) => oc.column(ownerColumn(owner.scope)).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) throw unprocessable(EXISTS[owner.scope]);
  return findPushRule(db, owner);
}

export async function updatePushRule(db: Db, owner: TwinOwner, body: GroupPushRuleBody): Promise<PushRuleRow> {
  const rule = await findPushRule(db, owner);
  await db.updateTable('push_rules').set({ ...pushRuleColumns(body), updated_at: nowIso() }).where('id', '=', rule.id).execute();
  return findPushRule(db, owner);
}

export async function deletePushRule(db: Db, owner: TwinOwner): Promise<void> {
  const rule = await findPushRule(db, owner);
  await db.deleteFrom('push_rules').where('id', '=', rule.id).execute();
}

/**
 * As the platform does when a project is created: it starts with a copy of the push rule of
 * its nearest group that has one (later changes to either stay apart).
 */
export async function copyGroupPushRule(db: Db, namespace: GroupRow, project: Pick<ProjectRow, 'id'>): Promise<void> {
  const ancestors = namespace.traversal.split('/').filter(Boolean).map(Number);
  if (!ancestors.length) return;
  const rules = await db.selectFrom('push_rules').selectAll().where('group_id', 'in', ancestors).execute();
  const nearest = rules.sort((a, b) => ancestors.indexOf(b.group_id!) - ancestors.indexOf(a.group_id!))[0];
  if (!nearest) return;
  const { id: _id, group_id: _g, project_id: _p, ...rule } = nearest;
  const now = nowIso();
  await db.insertInto('push_rules').values({ ...rule, ...ownerColumns({ scope: 'projects', id: project.id }), created_at: now, updated_at: now }).execute();
}
