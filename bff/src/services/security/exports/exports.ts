import { sql, type Expression, type ExpressionBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Db } from '../../../db/index.ts';
import type { Database, ExportKind, ExportRow, UserRow } from '../../../db/schema.ts';
import { isAdmin, type Actor } from '../../../auth/actor.ts';
import { readableGroupIds, readableProjectIds } from '../../../policies/readable.ts';
import { enqueue } from '../../../queue/queue.ts';
import { exportTicket } from './write.ts';
import { exportRead } from './sources.ts';
import { removeExportFile } from './files.ts';
import type { FileStore } from '../../../files/index.ts';
import { uniqueViolation } from '../../../db/errors.ts';
import { DomainError, forbidden, notFound } from '../../../util/errors.ts';
import { isoPlus, nowIso } from '../../../util/time.ts';
import { offsetPage, type Page, type PageRequest } from '../../../db/pagination.ts';

/**
 * The life of an export, for both kinds (vulnerabilities, dependency lists): created with its
 * job in one transaction, run by the job (jobs/export.ts, writing with write.ts), read and downloaded by its author
 * only, deleted with its file once it expires.
 */

/** Exports are deleted automatically 7 days after they are requested, as on the platform. */
export const EXPORT_RETENTION_MS = 7 * 86_400_000;

/** What an export covers: a project, a group, a pipeline, or (none set) the author's security dashboard. */
export interface Exportable {
  project_id?: number;
  group_id?: number;
  pipeline_id?: number;
}

/**
 * The platform's answer to a second export while one runs: 429 with the message of its
 * vulnerability export service (VulnerabilityExports::CreateService), not its generic throttle's.
 */
export const exportInProgress = () =>
  new DomainError('rate_limited', 'Export already in progress. Please retry after the current export completes.', undefined, 5);

const exportableKey = (e: Exportable) =>
  e.project_id !== undefined ? `project:${e.project_id}` : e.group_id !== undefined ? `group:${e.group_id}` : e.pipeline_id !== undefined ? `pipeline:${e.pipeline_id}` : 'dashboard';
/** What an unfinished export holds in `in_progress_key` (unique): its kind, author and exportable. */
export const inProgressKey = (kind: ExportKind, authorId: number, e: Exportable) => `${kind}:${authorId}:${exportableKey(e)}`;

export interface NewExport {
  kind: ExportKind;
  authorId: number;
  exportable: Exportable;
  format: string;
  /** A vulnerability export's report filters (null or absent: every finding). */
  filters?: object | null;
  sendEmail: boolean;
  /** One export in progress per author and exportable: a second one answers 429. */
  oneAtATime: boolean;
  /** The ids of the projects a dashboard export covers (export_projects), as a subquery read in the export's transaction. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  covers?: (trx: Db) => SelectQueryBuilder<Database, any, { project_id: number }>;
}

export async function createExport(db: Db, input: NewExport): Promise<ExportRow> {
  const now = nowIso();
  try {
    return await db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('exports')
        .values({
          kind: input.kind,
          author_id: input.authorId,
          project_id: input.exportable.project_id ?? null,
          group_id: input.exportable.group_id ?? null,
          pipeline_id: input.exportable.pipeline_id ?? null,
          format: input.format,
          filters: input.filters ? JSON.stringify(input.filters) : null,
          status: 'created',
          in_progress_key: input.oneAtATime ? inProgressKey(input.kind, input.authorId, input.exportable) : null,
          send_email: input.sendEmail ? 1 : 0,
          expires_at: isoPlus(EXPORT_RETENTION_MS),
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      if (input.covers) {
        // The export's id as a literal: a bound parameter in a select list has no type PostgreSQL can infer.
        const covered = trx.selectFrom(input.covers(trx).as('c')).select([sql.lit(row.id).as('export_id'), 'c.project_id']);
        await trx.insertInto('export_projects').columns(['export_id', 'project_id']).expression(covered).execute();
      }
      await enqueue(trx, exportTicket, { export_id: row.id });
      return row;
    });
  } catch (e) {
    if (uniqueViolation(e)?.includes('in_progress_key')) throw exportInProgress();
    throw e;
  }
}

/**
 * An export of this kind, for its author only: anyone else gets the same 404 as for a missing
 * one. An author who may no longer read what it covers (removed from its project or group, or
 * moved below the role) gets 403, as the platform's export policy answers them.
 */
export async function findOwnExport(db: Db, kind: ExportKind, id: number, actor: Actor & { user: UserRow }, what: string): Promise<ExportRow> {
  const row = await db.selectFrom('exports').selectAll().where('id', '=', id).where('kind', '=', kind).where('author_id', '=', actor.user.id).executeTakeFirst();
  if (!row) throw notFound(what);
  const still = await db.selectFrom('exports').select('id').where('id', '=', row.id).where(await exportsReadable(db, actor)).executeTakeFirst();
  if (!still) throw forbidden();
  return row;
}

export const isFinished = (row: Pick<ExportRow, 'status'>) => row.status === 'finished';
/** Finished or failed: nothing more will happen to it. */
export const isCompleted = (row: Pick<ExportRow, 'status'>) => row.status === 'finished' || row.status === 'failed';

/** The author's exports of an exportable (or of every exportable) they may still read, newest first: the console's list. */
export async function listOwnExports(db: Db, actor: Actor & { user: UserRow }, filter: { project_id?: number; group_id?: number; dashboard?: boolean }, page: PageRequest): Promise<Page<ExportRow>> {
  let q = db.selectFrom('exports').selectAll().where('author_id', '=', actor.user.id).where(await exportsReadable(db, actor));
  if (filter.project_id !== undefined) q = q.where('project_id', '=', filter.project_id);
  else if (filter.group_id !== undefined) q = q.where('group_id', '=', filter.group_id);
  else if (filter.dashboard) q = q.where('project_id', 'is', null).where('group_id', 'is', null).where('pipeline_id', 'is', null);
  return offsetPage(db, q.orderBy('id', 'desc'), page);
}

/**
 * The exports the actor may read now, by what each covers: a project or a group where the actor
 * may still make such an export, a pipeline whose project's dependencies they read, or (a
 * security dashboard export) every project it covers, each by its vulnerabilities.
 */
async function exportsReadable(db: Db, actor: Actor): Promise<(eb: ExpressionBuilder<Database, 'exports'>) => Expression<SqlBool>> {
  if (isAdmin(actor)) return () => sql<boolean>`1 = 1`;
  const [vulnerabilityGroups, dependencyGroups] = await Promise.all([readableGroupIds(db, actor, 'create_vulnerability_export'), readableGroupIds(db, actor, 'read_dependency')]);
  return (eb) =>
    eb.or([
      eb.and([
        eb('exports.kind', '=', 'vulnerability'),
        eb.or([
          eb('exports.project_id', 'in', readableProjectIds(db, actor, 'create_vulnerability_export')),
          eb('exports.group_id', 'in', vulnerabilityGroups),
          eb.and([
            eb('exports.project_id', 'is', null),
            eb('exports.group_id', 'is', null),
            eb('exports.pipeline_id', 'is', null),
            eb.not(
              eb.exists(
                eb
                  .selectFrom('export_projects as ep')
                  .select('ep.project_id')
                  .whereRef('ep.export_id', '=', 'exports.id')
                  .where('ep.project_id', 'not in', readableProjectIds(db, actor, exportRead('vulnerability'))),
              ),
            ),
          ]),
        ]),
      ]),
      eb.and([
        eb('exports.kind', '=', 'dependency_list'),
        eb.or([
          eb('exports.project_id', 'in', readableProjectIds(db, actor, 'read_dependency')),
          eb('exports.group_id', 'in', dependencyGroups),
          eb('exports.pipeline_id', 'in', db.selectFrom('pipelines').select('pipelines.id').where('pipelines.project_id', 'in', readableProjectIds(db, actor, 'read_dependency'))),
        ]),
      ]),
    ]);
}

/** Deletes exports past their expiry and their files; run by the hourly housekeeping. */
export async function purgeExpiredExports(db: Db, files: FileStore, now = nowIso()): Promise<number> {
  let purged = 0;
  for (;;) {
    const expired = await db.selectFrom('exports').select(['id', 'file_key', 'file_path']).where('expires_at', '<=', now).orderBy('id').limit(500).execute();
    if (!expired.length) return purged;
    for (const e of expired) await removeExportFile(files, e);
    await db
      .deleteFrom('exports')
      .where(
        'id',
        'in',
        expired.map((e) => e.id),
      )
      .execute();
    purged += expired.length;
  }
}
