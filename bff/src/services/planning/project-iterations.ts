import { sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { GroupRow, IterationRow } from '../../db/schema.ts';
import type { ProjectIterationListQuery } from '../../../../shared/src/iterations.ts';
import { offsetPage, type Page, type PageRequest } from '../../db/pagination.ts';
import { matchesSearch } from '../../db/search.ts';
import { ancestorIds } from '../../policies/access.ts';
import { validationFailed } from '../../util/errors.ts';
import type { ProjectScope } from './work-items.ts';
import { scheduleGroups, stateFilter } from './iteration-cadences.ts';

/** An iteration with the path of its group, for its web_url. */
export type IterationWithGroup = IterationRow & { group_full_path: string };

/**
 * The iterations a project sees: those of its group's ancestors and its group (no project has
 * iterations of its own), of its group alone without ancestors, and of the groups below it
 * with `include_descendants`.
 */
export async function listProjectIterations(db: Db, namespace: GroupRow, q: ProjectIterationListQuery, page: PageRequest): Promise<Page<IterationWithGroup>> {
  const own = q.include_ancestors === false ? [namespace.id] : ancestorIds(namespace);
  const below = q.include_descendants
    ? (await db.selectFrom('groups').select('id').where('traversal', 'like', `${namespace.traversal}%`).where('id', '!=', namespace.id).execute()).map((g) => g.id)
    : [];
  const groupIds = [...own, ...below];
  await scheduleGroups(db, groupIds);
  let query = db
    .selectFrom('iterations')
    .innerJoin('groups', 'groups.id', 'iterations.group_id')
    .innerJoin('iteration_cadences', 'iteration_cadences.id', 'iterations.iteration_cadence_id')
    .selectAll('iterations')
    .select('groups.full_path as group_full_path')
    .where('iterations.group_id', 'in', groupIds)
    .where(stateFilter(q.state));
  if (q.search) {
    const fields = q.in ?? ['title'];
    const columns = fields.map((f) => (f === 'title' ? 'iterations.title' : 'iteration_cadences.title'));
    query = query.where(matchesSearch(columns, q.search));
  }
  if (q.updated_before) query = query.where('iterations.updated_at', '<', new Date(q.updated_before).toISOString());
  if (q.updated_after) query = query.where('iterations.updated_at', '>', new Date(q.updated_after).toISOString());
  return offsetPage(db, query.orderBy('iterations.due_date').orderBy(sql.ref('iterations.id')), page);
}

/** These iterations with their groups' paths, by id (what an issue shows of its iteration). */
export async function iterationsById(db: Db, ids: (number | null)[]): Promise<Map<number, IterationWithGroup>> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  if (!wanted.length) return new Map();
  const rows = await db.selectFrom('iterations').innerJoin('groups', 'groups.id', 'iterations.group_id').selectAll('iterations').select('groups.full_path as group_full_path').where('iterations.id', 'in', wanted).execute();
  return new Map(rows.map((r) => [r.id, r]));
}

/** The iteration an issue of this project may be put in (one of its group's or an ancestor's), or a 400 naming the field. */
export async function iterationFor(db: Db, scope: ProjectScope, iterationId: number | null | undefined): Promise<IterationRow | null> {
  if (iterationId === null || iterationId === undefined) return null;
  const found = await db.selectFrom('iterations').selectAll().where('id', '=', iterationId).where('group_id', 'in', ancestorIds(scope.group)).executeTakeFirst();
  if (!found) throw validationFailed({ iteration_id: ['is invalid'] });
  return found;
}
