import { gitText } from '../git/git-run.ts';
import { sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { GroupRow, PipelineJobRow, PipelineRow, ProjectRow, UserRow } from '../../db/schema.ts';
import { isPostgres } from '../../db/dialect.ts';
import { offsetPage, type Page, type PageRequest } from '../../db/pagination.ts';
import { COMPLETED_STATUSES, type PipelineListQuery, type PipelineStatus } from '../../../../shared/src/pipelines.ts';
import { notFound } from '../../util/errors.ts';
import { nowIso } from '../../util/time.ts';
import { json } from '../../util/rows.ts';
import { fireHookEvent } from '../webhooks/hook-delivery.ts';
import { usersById } from '../access/users.ts';
import { jobPayload, pipelinePayload } from '../webhooks/hook-payloads.ts';
import { announce } from '../notifier.ts';

/** Where pipeline events happen: the project, its namespace, and the base of the URLs payloads carry. */
export interface PipelineScope {
  project: ProjectRow;
  group: GroupRow;
  baseUrl: string;
}

/** Jobs that can still move (and so be canceled); the rest are finished. */
export const ACTIVE_JOB_STATUSES = ['created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'manual', 'scheduled'] as const;

/**
 * A pipeline's status composed from its latest jobs, as the platform composes it
 * (Gitlab::Ci::Status::Composite): a failed or canceled job that may fail counts as a success
 * with warnings; undefined when there are no jobs.
 */
export function composeStatus(jobs: { status: string; allow_failure: number | boolean }[]): PipelineStatus | undefined {
  if (!jobs.length) return undefined;
  const set = new Set(jobs.map((j) => (j.allow_failure && (j.status === 'failed' || j.status === 'canceled') ? 'success_with_warnings' : j.status)));
  const onlyOf = (...s: string[]) => [...set].every((x) => s.includes(x));
  const anyOf = (...s: string[]) => s.some((x) => set.has(x));
  if (onlyOf('skipped')) return 'skipped';
  if (onlyOf('success', 'skipped', 'success_with_warnings')) return 'success';
  if (onlyOf('created', 'success_with_warnings')) return 'created';
  if (onlyOf('preparing', 'success_with_warnings')) return 'preparing';
  if (onlyOf('canceled', 'success', 'skipped', 'success_with_warnings')) return 'canceled';
  if (onlyOf('pending', 'created', 'skipped', 'success_with_warnings')) return 'pending';
  if (anyOf('running', 'pending')) return 'running';
  if (anyOf('waiting_for_resource')) return 'waiting_for_resource';
  if (anyOf('manual')) return 'manual';
  if (anyOf('scheduled')) return 'scheduled';
  if (anyOf('preparing')) return 'preparing';
  if (anyOf('created')) return 'running';
  return 'failed';
}

/** Seconds during which at least one job ran: the union of the jobs' running periods, as the platform counts a pipeline's duration. */
export function runningSeconds(jobs: { started_at: string | null; finished_at: string | null }[], now = Date.now()): number | null {
  const periods = jobs
    .filter((j) => j.started_at)
    .map((j) => [Date.parse(j.started_at!), j.finished_at ? Date.parse(j.finished_at) : now] as const)
    .sort((a, b) => a[0] - b[0]);
  if (!periods.length) return null;
  let total = 0;
  let [start, end] = periods[0];
  for (const [s, e] of periods.slice(1)) {
    if (s > end) {
      total += end - start;
      [start, end] = [s, e];
    } else end = Math.max(end, e);
  }
  total += end - start;
  return Math.round(total / 1000);
}

/** What the pipeline records of its commit, read once from git: payloads never read git inside a transaction. */
export interface CommitMeta {
  sha: string;
  beforeSha: string;
  message: string;
  authorName: string;
  authorEmail: string;
  committedAt: string;
}

export async function commitMeta(dir: string, sha: string): Promise<CommitMeta> {
  const stdout = await gitText(dir, ['show', '-s', '--format=%P%x00%an%x00%ae%x00%cI%x00%B', sha, '--']);
  const [parents, authorName, authorEmail, committed, message] = stdout.split('\x00');
  return {
    sha,
    beforeSha: parents.split(' ')[0] || '0000000000000000000000000000000000000000',
    message: message.replace(/\n$/, ''),
    authorName,
    authorEmail,
    committedAt: new Date(committed).toISOString(),
  };
}

export interface NewPipeline {
  ref: string;
  tag: boolean;
  source: string;
  user: UserRow | null;
  triggerId?: number;
  variables?: Record<string, string>;
  inputs?: Record<string, unknown>;
  commit: CommitMeta;
}

/** A new pipeline (status `created` until a job reports), numbered within its project, its event queued in the same transaction. */
export async function createPipeline(trx: Db, scope: PipelineScope, p: NewPipeline): Promise<PipelineRow> {
  // One numbering per project: on PostgreSQL the project row is locked while the next iid is taken.
  if (isPostgres(trx)) await trx.selectFrom('projects').select('id').where('id', '=', scope.project.id).forUpdate().execute();
  const last = await trx.selectFrom('pipelines').select(sql<number>`max(iid)`.as('iid')).where('project_id', '=', scope.project.id).executeTakeFirst();
  const now = nowIso();
  const inserted = await trx
    .insertInto('pipelines')
    .values({
      project_id: scope.project.id,
      iid: Number(last?.iid ?? 0) + 1,
      sha: p.commit.sha,
      before_sha: p.commit.beforeSha,
      ref: p.ref,
      tag: p.tag ? 1 : 0,
      status: 'created',
      source: p.source,
      user_id: p.user?.id ?? null,
      trigger_id: p.triggerId ?? null,
      variables: JSON.stringify(Object.entries(p.variables ?? {}).map(([key, value]) => ({ key, value }))),
      inputs: JSON.stringify(p.inputs ?? {}),
      coverage: null,
      commit_message: p.commit.message,
      commit_author_name: p.commit.authorName,
      commit_author_email: p.commit.authorEmail,
      committed_at: p.commit.committedAt,
      started_at: null,
      finished_at: null,
      duration: null,
      queued_duration: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const pipeline = await trx.selectFrom('pipelines').selectAll().where('id', '=', inserted.id).executeTakeFirstOrThrow();
  await firePipelineEvent(trx, scope, pipeline);
  return pipeline;
}

/** The jobs that count: the latest of each name (older ones were retried). */
export const latestJobs = (trx: Db, pipelineId: number) =>
  trx.selectFrom('pipeline_jobs').selectAll().where('pipeline_id', '=', pipelineId).where('retried', '=', 0).orderBy('id').execute();

/**
 * Recomposes the pipeline from its jobs after one moved: its status, when it started and
 * finished, its duration and coverage. A pipeline event is queued when the status changed.
 */
export async function refreshPipeline(trx: Db, scope: PipelineScope, pipeline: PipelineRow): Promise<PipelineRow> {
  const jobs = await latestJobs(trx, pipeline.id);
  const status = composeStatus(jobs) ?? (pipeline.status as PipelineStatus);
  const now = nowIso();
  const completed = COMPLETED_STATUSES.includes(status);
  const startedAt = pipeline.started_at ?? (status === 'running' || jobs.some((j) => j.started_at) ? now : null);
  const coverages = jobs.map((j) => j.coverage).filter((c): c is number => c !== null);
  const changes = {
    status,
    started_at: startedAt,
    finished_at: completed ? (pipeline.status === status && pipeline.finished_at ? pipeline.finished_at : now) : null,
    duration: runningSeconds(jobs),
    queued_duration: startedAt ? Math.round((Date.parse(startedAt) - Date.parse(pipeline.created_at)) / 1000) : null,
    coverage: coverages.length ? (coverages.reduce((a, b) => a + b, 0) / coverages.length).toFixed(2) : null,
    updated_at: now,
  };
  await trx.updateTable('pipelines').set(changes).where('id', '=', pipeline.id).execute();
  const updated = { ...pipeline, ...changes };
  if (status !== pipeline.status) {
    await firePipelineEvent(trx, scope, updated, jobs);
    await announce('pipelineMoved', { trx, pipeline: updated });
  }
  return updated;
}

async function firePipelineEvent(trx: Db, scope: PipelineScope, pipeline: PipelineRow, jobs?: PipelineJobRow[]): Promise<void> {
  const builds = jobs ?? (await latestJobs(trx, pipeline.id));
  const users = await usersById(trx, [pipeline.user_id, ...builds.map((j) => j.user_id)]);
  await fireHookEvent(
    trx,
    { traversal: scope.group.traversal, projectId: scope.project.id },
    'pipeline_events',
    pipelinePayload({ ...scope, pipeline, jobs: builds, users }),
  );
}

/** Queues the job event of a job that moved (or was made), in the caller's transaction. */
export async function fireJobEvent(trx: Db, scope: PipelineScope, pipeline: PipelineRow, job: PipelineJobRow): Promise<void> {
  const users = await usersById(trx, [job.user_id, pipeline.user_id]);
  const retries = await trx
    .selectFrom('pipeline_jobs')
    .select(sql<number>`count(*)`.as('n'))
    .where('pipeline_id', '=', pipeline.id)
    .where('name', '=', job.name)
    .where('retried', '=', 1)
    .executeTakeFirst();
  await fireHookEvent(
    trx,
    { traversal: scope.group.traversal, projectId: scope.project.id },
    'job_events',
    jobPayload({ ...scope, pipeline, job, users, retriesCount: Number(retries?.n ?? 0) }),
  );
}

/** A pipeline with the people it names, as presenters need them. */
export interface PipelineView {
  pipeline: PipelineRow;
  user: UserRow | null;
}

async function withUsers(db: Db, pipelines: PipelineRow[]): Promise<PipelineView[]> {
  const users = await usersById(db, pipelines.map((p) => p.user_id));
  return pipelines.map((pipeline) => ({ pipeline, user: pipeline.user_id === null ? null : (users.get(pipeline.user_id) ?? null) }));
}

export const viewOf = async (db: Db, pipeline: PipelineRow): Promise<PipelineView> => (await withUsers(db, [pipeline]))[0];

const SCOPE_STATUSES: Record<string, string[]> = {
  running: ['running'],
  pending: ['pending'],
  finished: [...COMPLETED_STATUSES],
};

/** The project's pipelines, filtered and ordered as the platform's list (newest first by default). */
export async function listPipelines(db: Db, project: ProjectRow, q: PipelineListQuery, page: PageRequest): Promise<Page<PipelineView>> {
  let query = db.selectFrom('pipelines').selectAll('pipelines').where('pipelines.project_id', '=', project.id);
  if (q.scope && SCOPE_STATUSES[q.scope]) query = query.where('pipelines.status', 'in', SCOPE_STATUSES[q.scope]);
  if (q.scope === 'branches') query = query.where('pipelines.tag', '=', 0);
  if (q.scope === 'tags') query = query.where('pipelines.tag', '=', 1);
  if (q.status) query = query.where('pipelines.status', '=', q.status);
  if (q.source) query = query.where('pipelines.source', '=', q.source);
  if (q.ref) query = query.where('pipelines.ref', '=', q.ref);
  if (q.sha) query = query.where('pipelines.sha', '=', q.sha);
  if (q.updated_after) query = query.where('pipelines.updated_at', '>', new Date(q.updated_after).toISOString());
  if (q.updated_before) query = query.where('pipelines.updated_at', '<', new Date(q.updated_before).toISOString());
  if (q.created_after) query = query.where('pipelines.created_at', '>', new Date(q.created_after).toISOString());
  if (q.created_before) query = query.where('pipelines.created_at', '<', new Date(q.created_before).toISOString());
  if (q.username) {
    const name = q.username.toLowerCase();
    query = query.where('pipelines.user_id', 'in', (eb) => eb.selectFrom('users').select('id').where(sql<string>`lower(username)`, '=', name));
  }
  const column = q.order_by ?? 'id';
  const dir = q.sort ?? 'desc';
  query = query.orderBy(`pipelines.${column}`, dir);
  if (column !== 'id') query = query.orderBy('pipelines.id', dir);
  return (await offsetPage(db, query, page)).mapAsync((rows) => withUsers(db, rows));
}

/** A pipeline by its own id, wherever it is (the caller checks who may read it). */
export const pipelineById = (db: Db, id: number): Promise<PipelineRow | undefined> => db.selectFrom('pipelines').selectAll().where('id', '=', id).executeTakeFirst();

export async function findPipeline(db: Db, project: ProjectRow, id: number): Promise<PipelineRow> {
  const row = await db.selectFrom('pipelines').selectAll().where('project_id', '=', project.id).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Pipeline');
  return row;
}

/** A pipeline's jobs, newest first; `scope` keeps those in the given states; retried ones only when asked. */
export async function listJobs(db: Db, pipeline: PipelineRow, q: { scope?: string[]; include_retried?: boolean }, page: PageRequest): Promise<Page<PipelineJobRow>> {
  let query = db.selectFrom('pipeline_jobs').selectAll().where('pipeline_id', '=', pipeline.id);
  if (!q.include_retried) query = query.where('retried', '=', 0);
  if (q.scope?.length) query = query.where('status', 'in', q.scope);
  return offsetPage(db, query.orderBy('id', 'desc'), page);
}

/** Moves a job to a new status with its timestamps, and queues its event. */
export async function moveJob(trx: Db, scope: PipelineScope, pipeline: PipelineRow, job: PipelineJobRow, status: PipelineStatus, extra: Partial<PipelineJobRow> = {}): Promise<PipelineJobRow> {
  const now = nowIso();
  const changes = {
    ...extra,
    status,
    updated_at: now,
    started_at: status === 'running' ? (job.started_at ?? now) : job.started_at,
    finished_at: COMPLETED_STATUSES.includes(status) ? now : null,
  };
  await trx.updateTable('pipeline_jobs').set(changes).where('id', '=', job.id).execute();
  const moved = { ...job, ...changes };
  await fireJobEvent(trx, scope, pipeline, moved);
  return moved;
}

/** Cancels every job that can still move; a pipeline without jobs is canceled itself. */
export async function cancelPipeline(db: Db, scope: PipelineScope, pipeline: PipelineRow): Promise<PipelineRow> {
  return db.transaction().execute(async (trx) => {
    const jobs = await latestJobs(trx, pipeline.id);
    for (const job of jobs) if ((ACTIVE_JOB_STATUSES as readonly string[]).includes(job.status)) await moveJob(trx, scope, pipeline, job, 'canceled');
    if (!jobs.length && !COMPLETED_STATUSES.includes(pipeline.status as PipelineStatus)) {
      const now = nowIso();
      await trx.updateTable('pipelines').set({ status: 'canceled', finished_at: now, updated_at: now }).where('id', '=', pipeline.id).execute();
      const canceled = { ...pipeline, status: 'canceled', finished_at: now, updated_at: now };
      await firePipelineEvent(trx, scope, canceled, []);
      return canceled;
    }
    return refreshPipeline(trx, scope, pipeline);
  });
}

/**
 * Retries the failed and canceled jobs: each is replaced by a new pending job of the same
 * name, which the external CI reports on again (the old one is kept, marked retried).
 */
export async function retryPipeline(db: Db, scope: PipelineScope, pipeline: PipelineRow, user: UserRow | null): Promise<PipelineRow> {
  return db.transaction().execute(async (trx) => {
    const jobs = await latestJobs(trx, pipeline.id);
    const now = nowIso();
    for (const job of jobs.filter((j) => j.status === 'failed' || j.status === 'canceled')) {
      await trx.updateTable('pipeline_jobs').set({ retried: 1 }).where('id', '=', job.id).execute();
      const { id: _old, ...copy } = job;
      const inserted = await trx
        .insertInto('pipeline_jobs')
        .values({ ...copy, status: 'pending', retried: 0, user_id: user?.id ?? job.user_id, created_at: now, updated_at: now, started_at: null, finished_at: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      await fireJobEvent(trx, scope, pipeline, await trx.selectFrom('pipeline_jobs').selectAll().where('id', '=', inserted.id).executeTakeFirstOrThrow());
    }
    return refreshPipeline(trx, scope, pipeline);
  });
}

export async function deletePipeline(db: Db, pipeline: PipelineRow): Promise<void> {
  await db.deleteFrom('pipelines').where('id', '=', pipeline.id).execute();
}

export const pipelineVariables = (pipeline: PipelineRow) => json<{ key: string; value: string }[]>(pipeline.variables, []);
