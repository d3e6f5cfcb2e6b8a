import { sql, type ExpressionBuilder, type Expression, type SqlBool } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { matchesSearch } from '../../db/search.ts';

/**
 * The list filters issues and merge requests share (labels, milestone, author, assignee,
 * search, iids, dates, scope), as conditions on the table's rows, so both lists and their
 * group variants apply them the same way.
 */
type Table = 'issues' | 'merge_requests';
type Eb<T extends Table> = ExpressionBuilder<Database, T>;

export interface SharedFilters {
  labels?: string[];
  milestone?: string;
  milestone_id?: string;
  author_id?: number;
  author_username?: string;
  assignee_id?: number | string;
  assignee_username?: string[];
  search?: string;
  in?: string;
  iids?: number[];
  created_after?: string;
  created_before?: string;
  updated_after?: string;
  updated_before?: string;
  scope?: string;
}

const iso = (v: string) => new Date(v).toISOString();

export function sharedConditions<T extends Table>(table: T, q: SharedFilters, me: number | null) {
  const assignees = table === 'issues' ? { t: 'issue_assignees', fk: 'issue_id' } : { t: 'merge_request_assignees', fk: 'merge_request_id' };
  const targetType = table === 'issues' ? 'Issue' : 'MergeRequest';
  const col = (c: string) => sql.ref(`${table}.${c}`);
  return (eb: Eb<T>): Expression<SqlBool> => {
    const all: Expression<SqlBool>[] = [];
    const assigned = (userCond: Expression<SqlBool> | null) =>
      eb.exists(
        sql`(SELECT 1 FROM ${sql.table(assignees.t)} a WHERE a.${sql.ref(assignees.fk)} = ${col('id')}${userCond === null ? sql`` : sql` AND ${userCond}`})`,
      );
    const withLabel = (title: string | null) =>
      eb.exists(
        sql`(SELECT 1 FROM label_links ll JOIN labels l ON l.id = ll.label_id WHERE ll.target_type = ${targetType} AND ll.target_id = ${col('id')}${title === null ? sql`` : sql` AND l.title = ${title}`})`,
      );
    if (q.labels?.length) {
      const lower = q.labels.map((l) => l.toLowerCase());
      if (lower.includes('none')) all.push(eb.not(withLabel(null)));
      else if (lower.includes('any')) all.push(withLabel(null));
      else for (const l of q.labels) all.push(withLabel(l));
    }
    const milestone = q.milestone ?? q.milestone_id;
    if (milestone !== undefined) {
      const m = milestone.toLowerCase();
      if (m === 'none') all.push(sql<boolean>`${col('milestone_id')} IS NULL`);
      else if (m === 'any') all.push(sql<boolean>`${col('milestone_id')} IS NOT NULL`);
      else if (q.milestone_id !== undefined && /^\d+$/.test(milestone)) all.push(sql<boolean>`${col('milestone_id')} = ${Number(milestone)}`);
      else if (m === 'upcoming' || m === 'started') all.push(sql<boolean>`${col('milestone_id')} IN (SELECT id FROM milestones WHERE state = 'active')`);
      else all.push(sql<boolean>`${col('milestone_id')} IN (SELECT id FROM milestones WHERE title = ${milestone})`);
    }
    if (q.author_id !== undefined) all.push(sql<boolean>`${col('author_id')} = ${q.author_id}`);
    if (q.author_username !== undefined) all.push(sql<boolean>`${col('author_id')} IN (SELECT id FROM users WHERE lower(username) = ${q.author_username.toLowerCase()})`);
    if (q.assignee_id !== undefined) {
      const a = String(q.assignee_id).toLowerCase();
      if (a === 'none') all.push(eb.not(assigned(null)));
      else if (a === 'any') all.push(assigned(null));
      else all.push(assigned(sql<boolean>`a.user_id = ${Number(q.assignee_id)}`));
    }
    for (const name of q.assignee_username ?? []) all.push(assigned(sql<boolean>`a.user_id IN (SELECT id FROM users WHERE lower(username) = ${name.toLowerCase()})`));
    if (q.search) {
      const where = q.in?.split(',').map((s) => s.trim()) ?? ['title', 'description'];
      const cols = where.filter((c) => c === 'title' || c === 'description').map((c) => `${table}.${c}`);
      if (cols.length) all.push(matchesSearch(cols, q.search));
    }
    if (q.iids?.length) all.push(sql<boolean>`${col('iid')} IN (${sql.join(q.iids)})`);
    if (q.created_after) all.push(sql<boolean>`${col('created_at')} >= ${iso(q.created_after)}`);
    if (q.created_before) all.push(sql<boolean>`${col('created_at')} <= ${iso(q.created_before)}`);
    if (q.updated_after) all.push(sql<boolean>`${col('updated_at')} >= ${iso(q.updated_after)}`);
    if (q.updated_before) all.push(sql<boolean>`${col('updated_at')} <= ${iso(q.updated_before)}`);
    const scope = q.scope?.replace(/-/g, '_');
    if (scope === 'created_by_me') all.push(sql<boolean>`${col('author_id')} = ${me ?? -1}`);
    if (scope === 'assigned_to_me') all.push(assigned(sql<boolean>`a.user_id = ${me ?? -1}`));
    return all.length ? eb.and(all) : sql<boolean>`1 = 1`;
  };
}
