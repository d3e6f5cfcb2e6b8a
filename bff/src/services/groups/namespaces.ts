import { sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { GroupRow } from '../../db/schema.ts';
import type { Actor } from '../../auth/actor.ts';
import type { NamespaceListQuery } from '../../../../shared/src/namespaces.ts';
import { ACCESS_LEVELS } from '../../../../shared/src/roles.ts';
import { offsetPage, type Page, type PageRequest } from '../../db/pagination.ts';
import { matchesPattern, searchPattern } from '../../db/search.ts';
import { canGroup } from '../../policies/index.ts';
import { groupAccessLevel } from '../../policies/access.ts';
import { notFound } from '../../util/errors.ts';
import { today } from '../../util/time.ts';
import { groupMembership } from '../../policies/visibility.ts';
import { findGroupWithLevel } from './groups.ts';

/**
 * The Namespaces API over Gatehouse's namespaces, its groups (projects live in groups; users
 * have no personal namespace). As on the platform: an administrator lists every namespace,
 * anyone else those they are a direct member of (`owned_only`: as Owner).
 */
export async function listNamespaces(db: Db, actor: Actor, q: NamespaceListQuery, page: PageRequest): Promise<Page<GroupRow>> {
  const user = actor.user!;
  let query = db.selectFrom('groups').selectAll();
  if (!user.is_admin || q.owned_only) {
    query = query.where((eb) => groupMembership(eb, user.id, q.owned_only ? ACCESS_LEVELS.owner : 0));
  }
  if (q.top_level_only) query = query.where('parent_id', 'is', null);
  if (q.search) {
    const columns = q.full_path_search ? ['groups.name', 'groups.path', 'groups.full_path'] : ['groups.name', 'groups.path'];
    query = query.where(matchesPattern(columns, searchPattern(q.search)));
  }
  return offsetPage(db, query.orderBy('id', 'asc'), page);
}

/** GET /namespaces/:id: a namespace the caller may read, by ID or full path; else the platform's 404. */
export async function findNamespace(db: Db, actor: Actor, idOrPath: string): Promise<{ group: GroupRow; level: number }> {
  const found = await findGroupWithLevel(db, idOrPath, actor.user?.id);
  if (!found || !canGroup(actor, 'read_group', found)) throw notFound('Namespace');
  return found;
}

/** The caller's role in each group of a page (administrators need none: they administer every group). */
export async function levelsIn(db: Db, actor: Actor, groups: GroupRow[]): Promise<Map<number, number>> {
  const levels = new Map<number, number>();
  if (actor.user?.is_admin) return levels;
  for (const g of groups) levels.set(g.id, await groupAccessLevel(db, actor.user?.id, g));
  return levels;
}

export interface NamespaceCounts {
  members: number;
  projects: number;
}

/** What an Owner sees beside a group namespace: its members and projects, the subgroups' included. */
export async function namespaceCounts(db: Db, group: Pick<GroupRow, 'traversal'>): Promise<NamespaceCounts> {
  const tree = `${group.traversal}%`;
  const members = await db
    .selectFrom('members as m')
    .innerJoin('groups as g', 'g.id', 'm.source_id')
    .select(sql<number>`count(distinct m.user_id)`.as('n'))
    .where('m.source_type', '=', 'group')
    .where('g.traversal', 'like', tree)
    .where((e) => e.or([e('m.expires_at', 'is', null), e('m.expires_at', '>', today())]))
    .executeTakeFirst();
  const projects = await db
    .selectFrom('projects as p')
    .innerJoin('groups as g', 'g.id', 'p.namespace_id')
    .select(sql<number>`count(*)`.as('n'))
    .where('g.traversal', 'like', tree)
    .executeTakeFirst();
  return { members: Number(members?.n ?? 0), projects: Number(projects?.n ?? 0) };
}

/** Whether the caller administers the group (and so sees its counts). */
export const administers = (actor: Actor, group: GroupRow, level: number) => canGroup(actor, 'admin_group', { group, level });

/** Paths after the first try, as the platform's: the path, then 1 to 4 appended, then a random number. */
const MAX_NUMBERED = 4;

/**
 * GET /namespaces/:id/exists: whether a namespace of that path is among the parent's children
 * (top-level namespaces without a parent), matched case-insensitively, and if so a free path
 * like it (a path or name no sibling has).
 */
export async function namespaceExists(db: Db, path: string, parentId: number | undefined): Promise<{ exists: boolean; suggests: string[] }> {
  let siblings = db.selectFrom('groups').select(['path', 'name']);
  siblings = parentId === undefined ? siblings.where('parent_id', 'is', null) : siblings.where('parent_id', '=', parentId);
  const rows = await siblings.execute();
  const taken = new Set(rows.flatMap((r) => [r.path.toLowerCase(), r.name.toLowerCase()]));
  const exists = rows.some((r) => r.path.toLowerCase() === path.toLowerCase());
  if (!exists) return { exists, suggests: [] };
  const base = cleanPath(path);
  for (let n = 0; ; n++) {
    const candidate = n === 0 ? base : n <= MAX_NUMBERED ? `${base}${n}` : `${base}${1000 + Math.floor(Math.random() * 9000)}`;
    if (!taken.has(candidate.toLowerCase())) return { exists, suggests: [candidate] };
  }
}

/** A path made of what a namespace path may hold: other characters become `-`, and it starts and ends with a letter or digit. */
export function cleanPath(path: string): string {
  const slug = path
    .replace(/[^a-zA-Z0-9_.-]+/g, '-')
    .replace(/^[^a-zA-Z0-9]+/, '')
    .replace(/[-_.]+$/, '')
    .replace(/\.(git|atom)$/i, '');
  return slug || 'blank';
}
