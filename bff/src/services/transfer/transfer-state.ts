import type { Db } from '../../db/index.ts';
import type { GroupExportRow, GroupRow, SourceUserStatus } from '../../db/schema.ts';

/**
 * What the console reads of a group's transfers (its Export panel and Placeholders screen):
 * the group's one export row and its placeholder users with whom they were reassigned to.
 * Reads only; the platform API's routes start exports and reassignments.
 */

/** The group's export row (the latest asked for), or null for a group never exported or whose export was purged. */
export async function readGroupExport(db: Db, group: Pick<GroupRow, 'id'>): Promise<GroupExportRow | null> {
  return (await db.selectFrom('group_exports').selectAll().where('group_id', '=', group.id).executeTakeFirst()) ?? null;
}

export interface PlaceholderListing {
  id: number;
  source_hostname: string;
  import_type: string;
  source_user_identifier: string;
  source_name: string | null;
  source_username: string | null;
  status: SourceUserStatus;
  updated_at: string;
  user_id: number | null;
  user_username: string | null;
  user_name: string | null;
}

/**
 * The group's placeholder users (pending first, then in progress, then reassigned, newest
 * change first within each), at most `limit`, with the total.
 */
export async function listPlaceholders(db: Db, group: Pick<GroupRow, 'id'>, limit: number): Promise<{ rows: PlaceholderListing[]; total: number }> {
  const base = db.selectFrom('import_source_users as s').where('s.namespace_id', '=', group.id);
  const [rows, count] = await Promise.all([
    base
      .leftJoin('users as u', 'u.id', 's.reassign_to_user_id')
      .select([
        's.id',
        's.source_hostname',
        's.import_type',
        's.source_user_identifier',
        's.source_name',
        's.source_username',
        's.status',
        's.updated_at',
        'u.id as user_id',
        'u.username as user_username',
        'u.name as user_name',
      ])
      .orderBy((eb) => eb.case().when('s.status', '=', 'pending_reassignment').then(0).when('s.status', '=', 'reassignment_in_progress').then(1).else(2).end())
      .orderBy('s.updated_at', 'desc')
      .orderBy('s.id')
      .limit(limit)
      .execute(),
    base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}
