import type { Db } from '../../db/index.ts';
import type { ProtectedBranchAccessLevelRow, ProtectedBranchRow } from '../../db/schema.ts';
import type {
  ProtectedBranchCreateBody,
  ProtectedBranchListQuery,
  ProtectedBranchUpdateBody,
  ProtectedRefAccessInput,
} from '../../../../shared/src/protected-branches.ts';
import { pageOfList, type Page, type PageRequest } from '../../db/pagination.ts';
import { conflict, forbidden, notFound, unprocessable } from '../../util/errors.ts';
import { nowIso } from '../../util/time.ts';
import { mayUnprotect, type WriterRole } from './protected-refs.ts';

/** A protected branch as the API shows it: the row and its access level rows, by action. */
export interface ProtectedBranchView {
  row: ProtectedBranchRow;
  push: ProtectedBranchAccessLevelRow[];
  merge: ProtectedBranchAccessLevelRow[];
  unprotect: ProtectedBranchAccessLevelRow[];
}

type Action = ProtectedBranchAccessLevelRow['action'];
const ACTIONS: Action[] = ['push', 'merge', 'unprotect'];

async function views(db: Db, rows: ProtectedBranchRow[]): Promise<ProtectedBranchView[]> {
  if (!rows.length) return [];
  const levels = await db.selectFrom('protected_branch_access_levels').selectAll().where('protected_branch_id', 'in', rows.map((r) => r.id)).orderBy('id').execute();
  const of = (id: number, action: Action) => levels.filter((l) => l.protected_branch_id === id && l.action === action);
  return rows.map((row) => ({ row, push: of(row.id, 'push'), merge: of(row.id, 'merge'), unprotect: of(row.id, 'unprotect') }));
}

/** GET …/protected_branches: by id, as the platform lists them; `search` is part of the name. */
export async function listProtectedBranches(db: Db, projectId: number, q: ProtectedBranchListQuery, page: PageRequest): Promise<Page<ProtectedBranchView>> {
  const rows = await db.selectFrom('protected_branches').selectAll().where('project_id', '=', projectId).orderBy('id').execute();
  const needle = q.search?.toLowerCase();
  const paged = pageOfList(needle ? rows.filter((r) => r.name.toLowerCase().includes(needle)) : rows, page);
  return paged.mapAsync((items) => views(db, items));
}

/** A protected branch by its name or wildcard exactly; the platform's 404 Not found. */
export async function findProtectedBranch(db: Db, projectId: number, name: string): Promise<ProtectedBranchView> {
  const row = await db.selectFrom('protected_branches').selectAll().where('project_id', '=', projectId).where('name', '=', name).executeTakeFirst();
  if (!row) throw notFound();
  return (await views(db, [row]))[0];
}

/**
 * Only roles are kept: entries naming a user, group or deploy key are the platform's paid
 * tiers' (answered with a 422 rather than silently ignored, so nobody is locked out unawares).
 */
function roleEntries(field: string, entries: ProtectedRefAccessInput[] | undefined): void {
  for (const e of entries ?? []) {
    for (const key of ['user_id', 'group_id', 'deploy_key_id'] as const) {
      if (e[key] !== undefined) throw unprocessable({ [field]: [`${key} entries are not supported: only access_level entries`] });
    }
  }
}

/** The levels an action starts with: `<action>_access_level` and the `allowed_to_<action>` roles, Maintainers when neither is given. */
function startingLevels(level: number | undefined, entries: ProtectedRefAccessInput[] | undefined): number[] {
  const given = [...(level === undefined ? [] : [level]), ...(entries ?? []).flatMap((e) => (e.access_level === undefined || e._destroy ? [] : [e.access_level]))];
  return given.length ? [...new Set(given)] : [40];
}

/** POST …/protected_branches: 409 when the name is protected already. */
export async function protectBranch(db: Db, projectId: number, body: ProtectedBranchCreateBody): Promise<ProtectedBranchView> {
  roleEntries('allowed_to_push', body.allowed_to_push);
  roleEntries('allowed_to_merge', body.allowed_to_merge);
  roleEntries('allowed_to_unprotect', body.allowed_to_unprotect);
  const levels = {
    push: startingLevels(body.push_access_level, body.allowed_to_push),
    merge: startingLevels(body.merge_access_level, body.allowed_to_merge),
    unprotect: startingLevels(body.unprotect_access_level, body.allowed_to_unprotect),
  };
  if (levels.unprotect.includes(0)) throw unprocessable({ allowed_to_unprotect: ['access_level No one is not available for unprotecting'] });
  const exists = () => conflict(`Protected branch '${body.name}' already exists`);
  if (await db.selectFrom('protected_branches').select('id').where('project_id', '=', projectId).where('name', '=', body.name).executeTakeFirst()) throw exists();
  const id = await db.transaction().execute(async (trx) => {
    const now = nowIso();
    const created = await trx
      .insertInto('protected_branches')
      .values({ project_id: projectId, name: body.name, allow_force_push: body.allow_force_push ? 1 : 0, code_owner_approval_required: body.code_owner_approval_required ? 1 : 0, created_at: now, updated_at: now })
      .onConflict((oc) => oc.columns(['project_id', 'name']).doNothing())
      .returning('id')
      .executeTakeFirst();
    // Two requests at once: the database decides, the loser gets the same 409.
    if (!created) throw exists();
    await trx
      .insertInto('protected_branch_access_levels')
      .values(ACTIONS.flatMap((action) => levels[action].map((access_level) => ({ protected_branch_id: created.id, action, access_level }))))
      .execute();
    return created.id;
  });
  return findById(db, id);
}

async function findById(db: Db, id: number): Promise<ProtectedBranchView> {
  const row = await db.selectFrom('protected_branches').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  return (await views(db, [row]))[0];
}

/**
 * PATCH …/protected_branches/:name: allow_force_push, code_owner_approval_required, and the
 * allowed_to_* entries: `{access_level}` adds a role, `{id, access_level}` changes that entry,
 * `{id, _destroy: true}` removes it, as on the platform.
 */
export async function updateProtectedBranch(db: Db, current: ProtectedBranchView, body: ProtectedBranchUpdateBody): Promise<ProtectedBranchView> {
  const lists: [Action, ProtectedRefAccessInput[] | undefined][] = [
    ['push', body.allowed_to_push],
    ['merge', body.allowed_to_merge],
    ['unprotect', body.allowed_to_unprotect],
  ];
  for (const [action, entries] of lists) roleEntries(`allowed_to_${action}`, entries);
  await db.transaction().execute(async (trx) => {
    const now = nowIso();
    await trx
      .updateTable('protected_branches')
      .set({
        updated_at: now,
        ...(body.allow_force_push === undefined ? {} : { allow_force_push: body.allow_force_push ? 1 : 0 }),
        ...(body.code_owner_approval_required === undefined ? {} : { code_owner_approval_required: body.code_owner_approval_required ? 1 : 0 }),
      })
      .where('id', '=', current.row.id)
      .execute();
    for (const [action, entries] of lists) {
      if (!entries?.length) continue;
      const levels = new Map(current[action].map((l) => [l.id, l.access_level]));
      for (const e of entries) {
        if (e.id !== undefined) {
          if (!levels.has(e.id)) throw unprocessable({ [`allowed_to_${action}`]: [`access level ${e.id} is not one of this protected branch's`] });
          if (e._destroy) levels.delete(e.id);
          else if (e.access_level !== undefined) levels.set(e.id, e.access_level);
        } else if (e.access_level !== undefined && !e._destroy && ![...levels.values()].includes(e.access_level)) {
          levels.set(-levels.size - 1, e.access_level);
        }
      }
      if (action === 'unprotect' && [...levels.values()].includes(0)) throw unprocessable({ allowed_to_unprotect: ['access_level No one is not available for unprotecting'] });
      const kept = [...levels.entries()];
      for (const old of current[action]) {
        const now = levels.get(old.id);
        if (now === undefined) await trx.deleteFrom('protected_branch_access_levels').where('id', '=', old.id).execute();
        else if (now !== old.access_level) await trx.updateTable('protected_branch_access_levels').set({ access_level: now }).where('id', '=', old.id).execute();
      }
      const added = kept.filter(([id]) => id < 0).map(([, access_level]) => ({ protected_branch_id: current.row.id, action, access_level }));
      if (added.length) await trx.insertInto('protected_branch_access_levels').values(added).execute();
    }
  });
  return findById(db, current.row.id);
}

/** DELETE …/protected_branches/:name: the caller must pass its unprotect levels (the platform's 403). */
export async function unprotectBranch(db: Db, current: ProtectedBranchView, role: WriterRole): Promise<void> {
  if (!mayUnprotect(current.unprotect.map((l) => l.access_level), role)) throw forbidden();
  await db.deleteFrom('protected_branches').where('id', '=', current.row.id).execute();
}
