import { sql, type ExpressionBuilder, type Expression, type SqlBool } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Actor } from '../auth/actor.ts';
import { today } from '../util/time.ts';

/**
 * SQL conditions for "what may this actor see", the list counterpart of the read rules in
 * policies/: public for everyone, internal for signed-in non-external users, private for
 * members of the group (or of an ancestor) and, for projects, of the project.
 */
type GroupsEb = ExpressionBuilder<Database, 'groups'>;
type ProjectsEb = ExpressionBuilder<Database, 'projects'>;

/** Groups in which the user has a membership (in it or an ancestor) of at least `minLevel`. */
export function memberOfGroup(eb: GroupsEb, userId: number, minLevel = 0): Expression<SqlBool> {
  return eb.exists(
    eb
      .selectFrom('members as m')
      .innerJoin('groups as g2', 'g2.id', 'm.source_id')
      .select(sql`1`.as('one'))
      .where('m.source_type', '=', 'group')
      .where('m.user_id', '=', userId)
      .where('m.access_level', '>=', minLevel)
      .where((e) => e.or([e('m.expires_at', 'is', null), e('m.expires_at', '>', today())]))
      .where(sql<boolean>`groups.traversal LIKE g2.traversal || '%'`),
  );
}

function visibleLevels(actor: Actor): string[] {
  if (!actor.user) return ['public'];
  return actor.user.external ? ['public'] : ['public', 'internal'];
}

export function groupVisibleTo(eb: GroupsEb, actor: Actor): Expression<SqlBool> {
  if (actor.user?.is_admin) return sql<boolean>`1 = 1`;
  const byVisibility = eb('groups.visibility', 'in', visibleLevels(actor));
  return actor.user ? eb.or([byVisibility, memberOfGroup(eb, actor.user.id)]) : byVisibility;
}

export function projectVisibleTo(eb: ProjectsEb, actor: Actor): Expression<SqlBool> {
  if (actor.user?.is_admin) return sql<boolean>`1 = 1`;
  const byVisibility = eb('projects.visibility', 'in', visibleLevels(actor));
  if (!actor.user) return byVisibility;
  return eb.or([byVisibility, projectMember(eb, actor.user.id)]);
}

/** Projects where the user is a member, directly or through the namespace's group tree. */
export function projectMember(eb: ProjectsEb, userId: number, minLevel = 0): Expression<SqlBool> {
  return eb.or([
    eb.exists(
      eb
        .selectFrom('members as m')
        .select(sql`1`.as('one'))
        .where('m.source_type', '=', 'project')
        .where('m.user_id', '=', userId)
        .where('m.access_level', '>=', minLevel)
        .where((e) => e.or([e('m.expires_at', 'is', null), e('m.expires_at', '>', today())]))
        .whereRef('m.source_id', '=', 'projects.id'),
    ),
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
        .where((e) => e.or([e('m.expires_at', 'is', null), e('m.expires_at', '>', today())])),
    ),
  ]);
}
