import { sql, type ExpressionBuilder, type Expression, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Database } from '../db/schema.ts';
import { prepared, type Db } from '../db/index.ts';
import type { Actor } from '../auth/actor.ts';
import { today } from '../util/time.ts';

/**
 * SQL conditions for "what may this actor see", the list counterpart of the read rules in
 * policies/: public for everyone, internal for signed-in non-external users, private for
 * members of the group (or of an ancestor) and, for projects, of the project.
 */
type GroupsEb = ExpressionBuilder<Database, 'groups'>;
type ProjectsEb = ExpressionBuilder<Database, 'projects'>;

/** Kept while members and groups do not change (db/index.ts, prepared): every list a member asks for reads it first. */
const memberTraversalRows = prepared(
  (db, v: { userId: number; minLevel: number; today: string }) =>
    db
      .selectFrom('members as m')
      .innerJoin('groups as g', 'g.id', 'm.source_id')
      .select('g.traversal')
      .where('m.source_type', '=', 'group')
      .where('m.user_id', '=', v.userId)
      .where('m.access_level', '>=', v.minLevel)
      .where((e) => e.or([e('m.expires_at', 'is', null), e('m.expires_at', '>', v.today)])),
  { keep: true },
);

/**
 * The traversal paths of the groups where the user holds a membership of at least `minLevel`:
 * a group is in the user's reach when its own path starts with one of them. Read once per
 * list, so the list query compares prefixes instead of running a subquery for every row.
 */
export async function memberTraversals(db: Db, userId: number, minLevel = 0): Promise<string[]> {
  const rows = await memberTraversalRows(db, { userId, minLevel, today: today() });
  // A path under another one adds nothing. Sorted, a tree's paths follow its root's, so each
  // path needs comparing only with the last one kept.
  const kept: string[] = [];
  for (const p of rows.map((r) => r.traversal).sort()) {
    if (!kept.length || !p.startsWith(kept[kept.length - 1])) kept.push(p);
  }
  return kept;
}

/**
 * Groups where the user holds a membership of the group itself of at least `minLevel`, in force
 * on the day (no expiry, or one after it): the namespaces a user "belongs to", and those they own.
 */
export function groupMembership(eb: GroupsEb, userId: number, minLevel = 0, onDay = today()): Expression<SqlBool> {
  return eb.exists(
    eb
      .selectFrom('members as m')
      .select(sql`1`.as('one'))
      .whereRef('m.source_id', '=', 'groups.id')
      .where('m.source_type', '=', 'group')
      .where('m.user_id', '=', userId)
      .where('m.access_level', '>=', minLevel)
      .where((e) => e.or([e('m.expires_at', 'is', null), e('m.expires_at', '>', onDay)])),
  );
}

/** Groups at or under one of the traversal paths. */
export function inTrees(eb: GroupsEb, traversals: string[]): Expression<SqlBool> {
  return inTreesLike(eb, traversals.map(treePattern));
}

/** The LIKE pattern of the groups at or under a traversal path. */
export const treePattern = (traversal: string) => `${traversal}%`;

/** Groups whose traversal is LIKE one of the patterns (treePattern, or their stand-ins in a prepared query). */
export function inTreesLike(eb: GroupsEb, patterns: string[]): Expression<SqlBool> {
  if (!patterns.length) return sql<boolean>`1 = 0`;
  return eb.or(patterns.map((p) => eb('groups.traversal', 'like', p)));
}

export function visibleLevels(actor: Actor): string[] {
  if (!actor.user) return ['public'];
  return actor.user.external ? ['public'] : ['public', 'internal'];
}

/**
 * A project list's query narrowed to the projects the caller may see; for an administrator,
 * who sees every one, the query itself: a condition that is always true would still cost
 * SQLite its fast count (from the smallest index; `count(*)` of 1,000 groups takes 2 µs
 * without a condition and 15 µs with `where 1 = 1`, which reads every row). The group list
 * does the same through its shape (reach `all`, services/groups.ts).
 */
export function visibleProjectsOf<O>(query: SelectQueryBuilder<Database, 'projects', O>, actor: Actor): SelectQueryBuilder<Database, 'projects', O> {
  return actor.user?.is_admin ? query : query.where((eb) => projectVisibleTo(eb, actor));
}

/** `memberOf`: the actor's membership traversals (see memberTraversals). */
export function groupVisibleTo(eb: GroupsEb, actor: Actor, memberOf: string[]): Expression<SqlBool> {
  if (actor.user?.is_admin) return sql<boolean>`1 = 1`;
  return groupVisibleWhere(eb, visibleLevels(actor), memberOf.map(treePattern));
}

/** Groups of one of the visibility levels, or in one of the trees (their LIKE patterns: see inTreesLike). */
export function groupVisibleWhere(eb: GroupsEb, levels: string[], treePatterns: string[]): Expression<SqlBool> {
  const byVisibility = eb('groups.visibility', 'in', levels);
  return treePatterns.length ? eb.or([byVisibility, inTreesLike(eb, treePatterns)]) : byVisibility;
}

/**
 * Which projects a caller sees, as a shape without values: `all` (an administrator, or a
 * member of the group or an ancestor where every project is in that group), else those of
 * the `levels` visibilities plus, for a signed-in user, those they are a member of
 * (`membership` of the project itself where the caller's role in the group is known, `member`
 * through the project or its group tree where it is not). Queries built from a shape are the
 * same text for every caller of that shape, so they can be prepared once (see projectsOfGroup).
 */
export type ProjectVisibility = { kind: 'all'; key: string } | { kind: 'levels' | 'membership' | 'member'; levels: string[]; key: string };

/**
 * `levelInNamespace`: the actor's role in the projects' group where every project is in the
 * same one and it is known (the group detail): a member of the group or an ancestor sees all
 * of them, anyone else only what visibility or a project membership shows, and the query
 * need not search the group tree for each project.
 */
export function projectVisibility(actor: Actor, levelInNamespace?: number): ProjectVisibility {
  if (actor.user?.is_admin || (levelInNamespace ?? 0) > 0) return { kind: 'all', key: 'all' };
  const levels = visibleLevels(actor);
  const kind = !actor.user ? 'levels' : levelInNamespace === undefined ? 'member' : 'membership';
  return { kind, levels, key: `${kind}:${levels.join(',')}` };
}

/** The condition of a visibility shape, for the user (`userId`) on the day (`onDay`): values or a prepared query's stand-ins. */
export function projectVisibleWhere(eb: ProjectsEb, shape: ProjectVisibility, userId: number, onDay: string): Expression<SqlBool> {
  if (shape.kind === 'all') return sql<boolean>`1 = 1`;
  const byVisibility = eb('projects.visibility', 'in', shape.levels);
  if (shape.kind === 'levels') return byVisibility;
  return eb.or([byVisibility, shape.kind === 'member' ? projectMember(eb, userId, 0, onDay) : projectMembership(eb, userId, 0, onDay)]);
}

export function projectVisibleTo(eb: ProjectsEb, actor: Actor, levelInNamespace?: number): Expression<SqlBool> {
  return projectVisibleWhere(eb, projectVisibility(actor, levelInNamespace), actor.user?.id ?? 0, today());
}

/** Projects where the user holds a membership of the project itself. */
function projectMembership(eb: ProjectsEb, userId: number, minLevel = 0, onDay = today()): Expression<SqlBool> {
  return eb.exists(
    eb
      .selectFrom('members as m')
      .select(sql`1`.as('one'))
      .where('m.source_type', '=', 'project')
      .where('m.user_id', '=', userId)
      .where('m.access_level', '>=', minLevel)
      .where((e) => e.or([e('m.expires_at', 'is', null), e('m.expires_at', '>', onDay)]))
      .whereRef('m.source_id', '=', 'projects.id'),
  );
}

/** Projects where the user is a member, directly or through the namespace's group tree. */
export function projectMember(eb: ProjectsEb, userId: number, minLevel = 0, onDay = today()): Expression<SqlBool> {
  return eb.or([
    projectMembership(eb, userId, minLevel, onDay),
    eb.exists(
      eb
        .selectFrom('groups as ns')
        .innerJoin('groups as g2', (j) => j.on(sql<boolean>`ns.traversal LIKE g2.traversal || '%'`))
        .innerJoin('members as m', 'm.source_id', 'g2.id')
        .select(sql`1`.as('one'))
        .whereRef('ns.id', '=', 'projects.namespace_id')
        .where('m.source_type', '=', 'group')
        .where('m.user_id', '=', userId)
        .where('m.access_level', '>=', minLevel)
        .where((e) => e.or([e('m.expires_at', 'is', null), e('m.expires_at', '>', onDay)])),
    ),
  ]);
}
