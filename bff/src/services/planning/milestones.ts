import { sql } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../../db/index.ts';
import type { GroupRow, MilestoneRow, ProjectRow, UserRow } from '../../db/schema.ts';
import { searchTitleTerms, type GroupMilestoneListQuery, type groupMilestoneCreateBody, type groupMilestoneUpdateBody } from '../../../../shared/src/group-milestones.ts';
import { ownerColumn, ownerColumns, type TwinOwner } from '../../db/twins.ts';
import { offsetPage, type Page, type PageRequest } from '../../db/pagination.ts';
import { matchesSearch } from '../../db/search.ts';
import { uniqueViolation } from '../../db/errors.ts';
import { notFound, validationFailed } from '../../util/errors.ts';
import { ancestorIds } from '../../policies/access.ts';
import { fireHookEvent } from '../webhooks/hook-delivery.ts';
import { milestonePayload, type MilestoneAction } from './milestone-payloads.ts';
import { nowIso } from '../../util/time.ts';

/**
 * Milestones of groups and projects (twins), written once: a project's own sit beside those of
 * its group and the group's ancestors, which its issues and merge requests may take as well.
 */
export interface MilestoneScope {
  owner: TwinOwner;
  /** The group itself, or the project's namespace. */
  group: GroupRow;
  /** The project, for a project's milestones. */
  project?: ProjectRow;
}

/** A milestone with the path of its owner (a group's full path or a project's), which its web_url needs. */
export type MilestoneWithOwner = MilestoneRow & { owner_path: string };

const toIso = (v: string) => new Date(v).toISOString();
const dateOf = (v: string) => (v.length === 10 ? v : new Date(v).toISOString().slice(0, 10));

function withOwner(db: Db) {
  return db
    .selectFrom('milestones')
    .leftJoin('groups', 'groups.id', 'milestones.group_id')
    .leftJoin('projects', 'projects.id', 'milestones.project_id')
    .selectAll('milestones')
    .select(sql<string>`coalesce(groups.full_path, projects.path_with_namespace)`.as('owner_path'));
}

/** The groups a group's list covers: the group, its ancestors and its descendants as asked. */
async function groupIdsFor(db: Db, group: GroupRow, q: GroupMilestoneListQuery): Promise<number[]> {
  const ancestors = q.include_ancestors || q.include_parent_milestones ? ancestorIds(group) : [group.id];
  if (!q.include_descendants) return ancestors;
  const below = await db.selectFrom('groups').select('id').where('traversal', 'like', `${group.traversal}%`).where('id', '!=', group.id).execute();
  return [...new Set([...ancestors, ...below.map((g) => g.id)])];
}

/**
 * A group's milestones (with its ancestors' and descendants' as asked), or a project's (with its
 * group's and their ancestors' when include_ancestors or include_parent_milestones asks).
 */
export async function listMilestones(db: Db, s: MilestoneScope, q: GroupMilestoneListQuery, page: PageRequest): Promise<Page<MilestoneWithOwner>> {
  let query = withOwner(db);
  if (s.owner.scope === 'groups') query = query.where('milestones.group_id', 'in', await groupIdsFor(db, s.group, q));
  else {
    const groups = q.include_ancestors || q.include_parent_milestones ? ancestorIds(s.group) : [];
    query = query.where((eb) => eb.or([eb('milestones.project_id', '=', s.owner.id), ...(groups.length ? [eb('milestones.group_id', 'in', groups)] : [])]));
  }
  // As on the platform, iids[] is ignored when ancestors are included.
  if (q.iids?.length && !(q.include_ancestors || q.include_parent_milestones)) query = query.where('milestones.iid', 'in', q.iids);
  if (q.state) query = query.where('milestones.state', '=', q.state);
  if (q.title !== undefined) query = query.where('milestones.title', '=', q.title);
  if (q.search) query = query.where(matchesSearch(['milestones.title', 'milestones.description'], q.search));
  for (const term of searchTitleTerms(q.search_title ?? '')) query = query.where(matchesSearch(['milestones.title'], term));
  if (q.updated_before) query = query.where('milestones.updated_at', '<', toIso(q.updated_before));
  if (q.updated_after) query = query.where('milestones.updated_at', '>', toIso(q.updated_after));
  if (q.containing_date) {
    const d = dateOf(q.containing_date);
    query = query.where('milestones.start_date', '<=', d).where('milestones.due_date', '>=', d);
  }
  if (q.start_date && q.end_date) {
    query = query.where('milestones.due_date', '>=', dateOf(q.start_date)).where('milestones.start_date', '<=', dateOf(q.end_date));
  }
  // The platform's default order: due date (none last), then title.
  return offsetPage(db, query.orderBy(sql`milestones.due_date IS NULL`).orderBy('milestones.due_date').orderBy('milestones.title').orderBy('milestones.id'), page);
}

/** One of the owner's own milestones, by id. */
export async function getMilestone(db: Db, s: MilestoneScope, id: number): Promise<MilestoneWithOwner> {
  const row = await withOwner(db).where(`milestones.${ownerColumn(s.owner.scope)}`, '=', s.owner.id).where('milestones.id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Milestone');
  return row;
}

const titleTaken = (err: unknown) => {
  const index = uniqueViolation(err);
  return index !== undefined && /title/.test(index);
};

/** The milestone hook: a group's hooks for a group milestone; the project's and its groups' for a project one. */
async function announce(db: Db, s: MilestoneScope, milestone: MilestoneRow, action: MilestoneAction, user: UserRow | null, baseUrl: string) {
  const where = s.project ? { traversal: s.group.traversal, projectId: s.project.id } : s.group;
  await fireHookEvent(db, where, 'milestone_events', milestonePayload({ milestone, group: s.group, project: s.project, action, user, baseUrl }));
}

export async function createMilestone(db: Db, s: MilestoneScope, body: z.output<typeof groupMilestoneCreateBody>, who: { user: UserRow | null; baseUrl: string }): Promise<MilestoneWithOwner> {
  try {
    const id = await db.transaction().execute(async (trx) => {
      const max = await trx.selectFrom('milestones').select((eb) => eb.fn.max('iid').as('max')).where(ownerColumn(s.owner.scope), '=', s.owner.id).executeTakeFirst();
      const now = nowIso();
      const { id } = await trx
        .insertInto('milestones')
        .values({
          ...ownerColumns(s.owner),
          iid: Number(max?.max ?? 0) + 1,
          title: body.title,
          description: body.description ?? null,
          start_date: body.start_date ?? null,
          due_date: body.due_date ?? null,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const row = await trx.selectFrom('milestones').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      await announce(trx, s, row, 'create', who.user, who.baseUrl);
      return id;
    });
    return getMilestone(db, s, id);
  } catch (err) {
    if (titleTaken(err)) throw validationFailed({ title: ['has already been taken'] });
    throw err;
  }
}

export async function updateMilestone(db: Db, s: MilestoneScope, milestone: MilestoneRow, body: z.output<typeof groupMilestoneUpdateBody>, who: { user: UserRow | null; baseUrl: string }): Promise<MilestoneWithOwner> {
  const { state_event, ...fields } = body;
  const start = fields.start_date === undefined ? milestone.start_date : fields.start_date;
  const due = fields.due_date === undefined ? milestone.due_date : fields.due_date;
  if (start && due && start > due) throw validationFailed({ due_date: ['must be greater than start date'] });
  const state = state_event === 'close' ? 'closed' : state_event === 'activate' ? 'active' : milestone.state;
  try {
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable('milestones')
        .set({
          ...(fields.title !== undefined && { title: fields.title }),
          ...(fields.description !== undefined && { description: fields.description }),
          ...(fields.start_date !== undefined && { start_date: fields.start_date }),
          ...(fields.due_date !== undefined && { due_date: fields.due_date }),
          state,
          updated_at: nowIso(),
        })
        .where('id', '=', milestone.id)
        .execute();
      const row = await trx.selectFrom('milestones').selectAll().where('id', '=', milestone.id).executeTakeFirstOrThrow();
      const action: MilestoneAction = state !== milestone.state ? (state === 'closed' ? 'close' : 'reopen') : 'update';
      await announce(trx, s, row, action, who.user, who.baseUrl);
    });
  } catch (err) {
    if (titleTaken(err)) throw validationFailed({ title: ['has already been taken'] });
    throw err;
  }
  return getMilestone(db, s, milestone.id);
}

/** Issues and merge requests keep their place and lose the milestone (the foreign key sets it null). */
export async function deleteMilestone(db: Db, s: MilestoneScope, milestone: MilestoneRow, who: { user: UserRow | null; baseUrl: string }): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('milestones').where('id', '=', milestone.id).execute();
    await announce(trx, s, milestone, 'delete', who.user, who.baseUrl);
  });
}
