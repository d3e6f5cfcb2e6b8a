import { sql, type CreateTableBuilder } from 'kysely';

/**
 * Group/project twins — a resource that belongs to a group or to a project and behaves the same
 * for both (webhooks now; milestones, labels, badges, variables later) — are stored one way:
 * two nullable foreign keys, `group_id` and `project_id`, each ON DELETE CASCADE, exactly one
 * of them set (a CHECK says so for new tables; `addTwinOwner` writes both in a migration).
 *
 * Why not a polymorphic (`owner_type`, `owner_id`) pair: the database then deletes a twin with
 * its owner and refuses an owner that does not exist, which a polymorphic pair cannot do, and a
 * query by owner is an ordinary indexed equality on one column. Members (`source_type`,
 * `source_id`) predate this decision and stay as they are.
 */
export type TwinScope = 'groups' | 'projects';

/** The group or project a twin belongs to. */
export interface TwinOwner {
  scope: TwinScope;
  id: number;
}

/** The owner column a twin of this scope is found by. */
export const ownerColumn = (scope: TwinScope) => (scope === 'groups' ? ('group_id' as const) : ('project_id' as const));

/** Both owner columns of a new twin row: the owner's id in its column, null in the other. */
export const ownerColumns = (owner: TwinOwner) => ({
  group_id: owner.scope === 'groups' ? owner.id : null,
  project_id: owner.scope === 'projects' ? owner.id : null,
});

/** In a migration: the two owner columns, their cascading foreign keys, and the exactly-one check. */
export function addTwinOwner<T extends string, C extends string>(table: CreateTableBuilder<T, C>, name: string) {
  return table
    .addColumn('group_id', 'integer', (c) => c.references('groups.id').onDelete('cascade'))
    .addColumn('project_id', 'integer', (c) => c.references('projects.id').onDelete('cascade'))
    .addCheckConstraint(`${name}_one_owner`, sql`(group_id IS NULL) <> (project_id IS NULL)`);
}
