import type { Db } from '../../db/index.ts';
import type { GroupRow, LabelRow } from '../../db/schema.ts';
import type { LabelCreateBody, LabelListQuery, LabelUpdateBody } from '../../../../shared/src/labels.ts';
import { ownerColumn, ownerColumns, type TwinOwner } from '../../db/twins.ts';
import { pageOfList, type Page, type PageRequest } from '../../db/pagination.ts';
import { ancestorIds } from '../../policies/access.ts';
import { conflict, notFound } from '../../util/errors.ts';
import { nowIso } from '../../util/time.ts';

/**
 * Labels of groups and projects (twins). A project uses its own and its ancestor groups'; a
 * group uses its own and its ancestors'. Titles are unique per owner.
 */
export interface LabelScope {
  owner: TwinOwner;
  /** The group itself, or the project's namespace: whose ancestors' labels are inherited. */
  group: GroupRow;
}

const inherited = (s: LabelScope) => (s.owner.scope === 'groups' ? ancestorIds(s.group).filter((id) => id !== s.owner.id) : ancestorIds(s.group));

export interface LabelCounts {
  open_issues_count: number;
  closed_issues_count: number;
  open_merge_requests_count: number;
}

export async function listLabels(db: Db, s: LabelScope, q: LabelListQuery, page: PageRequest): Promise<Page<LabelRow & { counts?: LabelCounts }>> {
  const ancestors = q.include_ancestor_groups === false ? [] : inherited(s);
  let query = db
    .selectFrom('labels')
    .selectAll()
    .where((eb) => eb.or([eb(ownerColumn(s.owner.scope), '=', s.owner.id), ...(ancestors.length && !q.only_group_labels ? [eb('group_id', 'in', ancestors)] : [])]));
  if (q.search) query = query.where((eb) => eb(eb.fn('lower', ['title']), 'like', `%${q.search!.toLowerCase().replace(/[\\%_]/g, '')}%`));
  const rows = await query.orderBy('title').orderBy('id').execute();
  const paged = pageOfList(rows, page);
  if (!q.with_counts) return paged;
  return paged.mapAsync(async (items) => {
    const counts = await labelCounts(db, items.map((l) => l.id));
    return items.map((l) => ({ ...l, counts: counts.get(l.id) }));
  });
}

async function labelCounts(db: Db, ids: number[]): Promise<Map<number, LabelCounts>> {
  const out = new Map<number, LabelCounts>(ids.map((id) => [id, { open_issues_count: 0, closed_issues_count: 0, open_merge_requests_count: 0 }]));
  if (!ids.length) return out;
  const issues = await db
    .selectFrom('label_links')
    .innerJoin('issues', 'issues.id', 'label_links.target_id')
    .select(['label_links.label_id', 'issues.state'])
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('label_links.target_type', '=', 'Issue')
    .where('label_links.label_id', 'in', ids)
    .groupBy(['label_links.label_id', 'issues.state'])
    .execute();
  for (const r of issues) out.get(r.label_id)![r.state === 'opened' ? 'open_issues_count' : 'closed_issues_count'] = Number(r.n);
  const mrs = await db
    .selectFrom('label_links')
    .innerJoin('merge_requests', 'merge_requests.id', 'label_links.target_id')
    .select('label_links.label_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('label_links.target_type', '=', 'MergeRequest')
    .where('merge_requests.state', '=', 'opened')
    .where('label_links.label_id', 'in', ids)
    .groupBy('label_links.label_id')
    .execute();
  for (const r of mrs) out.get(r.label_id)!.open_merge_requests_count = Number(r.n);
  return out;
}

/** The label named by id or title (as the platform's :label_id), among the owner's own or inherited ones. */
export async function findLabel(db: Db, s: LabelScope, idOrTitle: string): Promise<LabelRow> {
  const ancestors = inherited(s);
  const found = await db
    .selectFrom('labels')
    .selectAll()
    .where((eb) => eb.or([eb(ownerColumn(s.owner.scope), '=', s.owner.id), ...(ancestors.length ? [eb('group_id', 'in', ancestors)] : [])]))
    .where((eb) => (/^\d+$/.test(idOrTitle) && Number(idOrTitle) <= 2_147_483_647 ? eb.or([eb('id', '=', Number(idOrTitle)), eb('title', '=', idOrTitle)]) : eb('title', '=', idOrTitle)))
    .orderBy('project_id')
    .executeTakeFirst();
  if (!found) throw notFound('Label');
  return found;
}

/** A label belongs to the owner the route names; an inherited one cannot be changed there. */
export function ownLabel(s: LabelScope, label: LabelRow): LabelRow {
  if (label[ownerColumn(s.owner.scope)] !== s.owner.id) throw notFound('Label');
  return label;
}

async function taken(db: Db, s: LabelScope, title: string, except?: number): Promise<void> {
  let q = db.selectFrom('labels').select('id').where(ownerColumn(s.owner.scope), '=', s.owner.id).where('title', '=', title);
  if (except !== undefined) q = q.where('id', '!=', except);
  if (await q.executeTakeFirst()) throw conflict('Label already exists');
}

export async function createLabel(db: Db, s: LabelScope, body: LabelCreateBody): Promise<LabelRow> {
  await taken(db, s, body.name);
  const now = nowIso();
  return db
    .insertInto('labels')
    .values({ ...ownerColumns(s.owner), title: body.name, color: body.color, description: body.description ?? null, priority: body.priority ?? null, created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateLabel(db: Db, s: LabelScope, label: LabelRow, body: LabelUpdateBody): Promise<LabelRow> {
  if (body.new_name !== undefined) await taken(db, s, body.new_name, label.id);
  return db
    .updateTable('labels')
    .set({
      title: body.new_name ?? label.title,
      color: body.color ?? label.color,
      description: body.description === undefined ? label.description : body.description,
      priority: body.priority === undefined ? label.priority : body.priority,
      updated_at: nowIso(),
    })
    .where('id', '=', label.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteLabel(db: Db, label: LabelRow): Promise<void> {
  await db.deleteFrom('labels').where('id', '=', label.id).execute();
}

/** Black or white text, whichever reads better on the label's colour (the platform's text_color). */
export function textColor(color: string): string {
  const hex = color.startsWith('#') ? color.slice(1) : '';
  const full = hex.length === 3 ? hex.replace(/./g, (c) => c + c) : hex;
  if (full.length !== 6) return '#FFFFFF';
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16));
  return r * 0.299 + g * 0.587 + b * 0.114 > 186 ? '#1F1E24' : '#FFFFFF';
}
