import type { Db } from '../../db/index.ts';
import type { ProtectedTagAccessLevelRow, ProtectedTagRow } from '../../db/schema.ts';
import type { ProtectedTagCreateBody, ProtectedTagListQuery } from '../../../../shared/src/protected-tags.ts';
import { pageOfList, type Page, type PageRequest } from '../../db/pagination.ts';
import { notFound, unprocessable } from '../../util/errors.ts';
import { nowIso } from '../../util/time.ts';

/** A protected tag as the API shows it: the row and who may create it. */
export interface ProtectedTagView {
  row: ProtectedTagRow;
  create: ProtectedTagAccessLevelRow[];
}

async function views(db: Db, rows: ProtectedTagRow[]): Promise<ProtectedTagView[]> {
  if (!rows.length) return [];
  const levels = await db.selectFrom('protected_tag_access_levels').selectAll().where('protected_tag_id', 'in', rows.map((r) => r.id)).orderBy('id').execute();
  return rows.map((row) => ({ row, create: levels.filter((l) => l.protected_tag_id === row.id) }));
}

export async function listProtectedTags(db: Db, projectId: number, _q: ProtectedTagListQuery, page: PageRequest): Promise<Page<ProtectedTagView>> {
  const rows = await db.selectFrom('protected_tags').selectAll().where('project_id', '=', projectId).orderBy('id').execute();
  return pageOfList(rows, page).mapAsync((items) => views(db, items));
}

/** A protected tag by its name or wildcard exactly; the platform's 404 Not found. */
export async function findProtectedTag(db: Db, projectId: number, name: string): Promise<ProtectedTagView> {
  const row = await db.selectFrom('protected_tags').selectAll().where('project_id', '=', projectId).where('name', '=', name).executeTakeFirst();
  if (!row) throw notFound();
  return (await views(db, [row]))[0];
}

/**
 * POST …/protected_tags: `create_access_level` and the `allowed_to_create` roles (Maintainers
 * when neither is given). A name protected already is the platform's 422 "Name has already been taken".
 */
export async function protectTag(db: Db, projectId: number, body: ProtectedTagCreateBody): Promise<ProtectedTagView> {
  for (const e of body.allowed_to_create ?? []) {
    for (const key of ['user_id', 'group_id', 'deploy_key_id'] as const) {
      if (e[key] !== undefined) throw unprocessable({ allowed_to_create: [`${key} entries are not supported: only access_level entries`] });
    }
  }
  const given = [...(body.create_access_level === undefined ? [] : [body.create_access_level]), ...(body.allowed_to_create ?? []).flatMap((e) => (e.access_level === undefined ? [] : [e.access_level]))];
  const levels = given.length ? [...new Set(given)] : [40];
  const taken = () => unprocessable('Name has already been taken');
  if (await db.selectFrom('protected_tags').select('id').where('project_id', '=', projectId).where('name', '=', body.name).executeTakeFirst()) throw taken();
  const id = await db.transaction().execute(async (trx) => {
    const now = nowIso();
    const created = await trx
      .insertInto('protected_tags')
      .values({ project_id: projectId, name: body.name, created_at: now, updated_at: now })
      .onConflict((oc) => oc.columns(['project_id', 'name']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!created) throw taken();
    await trx.insertInto('protected_tag_access_levels').values(levels.map((access_level) => ({ protected_tag_id: created.id, access_level }))).execute();
    return created.id;
  });
  const row = await db.selectFrom('protected_tags').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  return (await views(db, [row]))[0];
}

export async function unprotectTag(db: Db, current: ProtectedTagView): Promise<void> {
  await db.deleteFrom('protected_tags').where('id', '=', current.row.id).execute();
}
