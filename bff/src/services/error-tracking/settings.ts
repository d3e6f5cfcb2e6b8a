import crypto from 'node:crypto';
import type { Db } from '../../db/index.ts';
import type { ErrorTrackingClientKeyRow, ErrorTrackingSettingRow, ProjectRow } from '../../db/schema.ts';
import { offsetPage, type Page, type PageRequest } from '../../db/pagination.ts';
import { notFound } from '../../util/errors.ts';
import { nowIso } from '../../util/time.ts';
import type { ErrorTrackingSettingBody } from '../../../../shared/src/error-tracking.ts';

/** The project's setting; the platform answers 404 until one has been saved. */
export async function getSetting(db: Db, project: ProjectRow): Promise<ErrorTrackingSettingRow> {
  const row = await db.selectFrom('error_tracking_settings').selectAll().where('project_id', '=', project.id).executeTakeFirst();
  if (!row) throw notFound('Error Tracking Setting');
  return row;
}

/** Turns error tracking (and its integrated backend) on or off; the first save creates the setting. */
export async function saveSetting(db: Db, project: ProjectRow, body: ErrorTrackingSettingBody): Promise<ErrorTrackingSettingRow> {
  const values = { project_id: project.id, active: body.active ? 1 : 0, integrated: body.integrated ? 1 : 0, updated_at: nowIso() };
  return db
    .insertInto('error_tracking_settings')
    .values(values)
    .onConflict((oc) => oc.column('project_id').doUpdateSet({ active: values.active, integrated: values.integrated, updated_at: values.updated_at }))
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A new public key, `glet_` and 32 hex digits as the platform makes them. */
const newPublicKey = () => `glet_${crypto.randomBytes(16).toString('hex')}`;

export function createClientKey(db: Db, project: ProjectRow): Promise<ErrorTrackingClientKeyRow> {
  return db.insertInto('error_tracking_client_keys').values({ project_id: project.id, public_key: newPublicKey(), created_at: nowIso() }).returningAll().executeTakeFirstOrThrow();
}

export function listClientKeys(db: Db, project: ProjectRow, page: PageRequest): Promise<Page<ErrorTrackingClientKeyRow>> {
  return offsetPage(db, db.selectFrom('error_tracking_client_keys').selectAll().where('project_id', '=', project.id).orderBy('id'), page);
}

export async function getClientKey(db: Db, project: ProjectRow, id: number): Promise<ErrorTrackingClientKeyRow> {
  const row = await db.selectFrom('error_tracking_client_keys').selectAll().where('project_id', '=', project.id).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Client Key');
  return row;
}

/** Deletes the key (events sent with it are refused from now on) and returns it, as the platform answers. */
export async function deleteClientKey(db: Db, key: ErrorTrackingClientKeyRow): Promise<ErrorTrackingClientKeyRow> {
  await db.deleteFrom('error_tracking_client_keys').where('id', '=', key.id).execute();
  return key;
}

/**
 * The DSN SDKs are configured with: the public key as the URL's user, at the collector's base
 * (`/api/v4/error_tracking/collector/<project id>`) under the external URL; SDKs append
 * `/api/<project id>/envelope/` (or `/store/`) to the path before the last segment.
 */
export function dsnOf(baseUrl: string, key: ErrorTrackingClientKeyRow): string {
  const u = new URL(baseUrl);
  return `${u.protocol}//${key.public_key}@${u.host}${u.pathname.replace(/\/+$/, '')}/api/v4/error_tracking/collector/${key.project_id}`;
}
