import { gitText } from '../git/git-run.ts';
import type { Db } from '../../db/index.ts';
import type { PipelineJobRow, ProjectRow, UserRow } from '../../db/schema.ts';
import { offsetPage, type Page, type PageRequest } from '../../db/pagination.ts';
import type { CommitStatusBody, CommitStatusState } from '../../../../shared/src/commit-statuses.ts';
import type { PipelineStatus } from '../../../../shared/src/pipelines.ts';
import { badRequest, notFound } from '../../util/errors.ts';
import { resolveCommit } from '../git/branches.ts';
import { nowIso } from '../../util/time.ts';
import { commitMeta, createPipeline, moveJob, refreshPipeline, type PipelineScope } from './pipelines.ts';

/** The stage the platform gives jobs reported by an external CI (GenericCommitStatus). */
export const EXTERNAL_STAGE = 'external';

/**
 * The job state machine's events the commit status API fires for each state, and the states
 * each event may leave (the platform's CommitStatus transitions). `running` enqueues first,
 * quietly, as the platform does.
 */
const EVENTS: Record<CommitStatusState, { event: string; from: string[]; to: PipelineStatus }> = {
  pending: { event: 'enqueue', from: ['created', 'waiting_for_resource', 'preparing', 'skipped'], to: 'pending' },
  running: { event: 'run', from: ['pending'], to: 'running' },
  success: { event: 'success', from: ['created', 'waiting_for_resource', 'preparing', 'pending', 'running'], to: 'success' },
  failed: { event: 'drop', from: ['created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'manual', 'scheduled'], to: 'failed' },
  canceled: { event: 'cancel', from: ['created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'manual', 'scheduled'], to: 'canceled' },
  skipped: { event: 'skip', from: ['created', 'waiting_for_resource', 'preparing', 'pending'], to: 'skipped' },
};

/** The branch a commit is reported on when the caller names none: the default branch if it holds the commit, else the first that does. */
async function branchContaining(dir: string, sha: string, defaultBranch: string): Promise<string | undefined> {
  const stdout = await gitText(dir, ['for-each-ref', '--format=%(refname:lstrip=2)', `--contains=${sha}`, 'refs/heads']);
  const names = stdout.split('\n').filter(Boolean);
  return names.includes(defaultBranch) ? defaultBranch : names[0];
}

export interface StatusReport {
  scope: PipelineScope;
  dir: string;
  defaultBranch: string;
  user: UserRow | null;
}

/**
 * An external CI reports a job on a commit (POST /projects/:id/statuses/:sha): the job of that
 * name still pending or running moves, or a new one is made (an older one of the same name is
 * then retried); the pipeline named, or the newest of the commit and ref, or a new one of
 * source `external`, is recomposed from its jobs.
 */
export async function reportStatus(db: Db, r: StatusReport, shaParam: string, body: CommitStatusBody): Promise<PipelineJobRow> {
  const sha = /^[0-9a-f]{7,40}$/i.test(shaParam) ? await resolveCommit(r.dir, shaParam) : undefined;
  if (!sha) throw notFound('Commit');
  const ref = body.ref ?? (await branchContaining(r.dir, sha, r.defaultBranch));
  if (!ref) throw badRequest('400 Bad request - ref is missing and no branch contains the commit');
  const name = body.name ?? body.context ?? 'default';
  const meta = await commitMeta(r.dir, sha);
  const tag = (await resolveCommit(r.dir, `refs/tags/${ref}`)) !== undefined && (await resolveCommit(r.dir, `refs/heads/${ref}`)) === undefined;
  const step = EVENTS[body.state];
  return db.transaction().execute(async (trx) => {
    const { project } = r.scope;
    let pipeline = body.pipeline_id
      ? await trx.selectFrom('pipelines').selectAll().where('project_id', '=', project.id).where('id', '=', body.pipeline_id).where('sha', '=', sha).executeTakeFirst()
      : await trx.selectFrom('pipelines').selectAll().where('project_id', '=', project.id).where('sha', '=', sha).where('ref', '=', ref).orderBy('id', 'desc').executeTakeFirst();
    if (!pipeline && body.pipeline_id) throw notFound('Pipeline');
    pipeline ??= await createPipeline(trx, r.scope, { ref, tag, source: 'external', user: r.user, commit: meta });

    const now = nowIso();
    let job = await trx
      .selectFrom('pipeline_jobs')
      .selectAll()
      .where('pipeline_id', '=', pipeline.id)
      .where('name', '=', name)
      .where('retried', '=', 0)
      .where('status', 'in', ['pending', 'running'])
      .orderBy('id', 'desc')
      .executeTakeFirst();
    if (!job) {
      // A new job; the older ones of the same name no longer count.
      await trx.updateTable('pipeline_jobs').set({ retried: 1 }).where('pipeline_id', '=', pipeline.id).where('name', '=', name).execute();
      const inserted = await trx
        .insertInto('pipeline_jobs')
        .values({ pipeline_id: pipeline.id, project_id: project.id, name, stage: EXTERNAL_STAGE, status: 'created', ref, sha, target_url: null, description: null, coverage: null, user_id: r.user?.id ?? null, created_at: now, updated_at: now, started_at: null, finished_at: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      job = await trx.selectFrom('pipeline_jobs').selectAll().where('id', '=', inserted.id).executeTakeFirstOrThrow();
    }
    // `running` enqueues a created job on the way, as the platform's API does.
    const from = body.state === 'running' && EVENTS.pending.from.includes(job.status) ? 'pending' : job.status;
    if (!step.from.includes(from)) {
      throw badRequest(`Cannot transition status via :${step.event} from :${job.status} (Reason(s): Status cannot transition via "${step.event}")`);
    }
    const extra = {
      ...(body.target_url !== undefined ? { target_url: body.target_url } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
      ...(body.coverage !== undefined ? { coverage: body.coverage } : {}),
      user_id: r.user?.id ?? job.user_id,
    };
    const moved = await moveJob(trx, r.scope, pipeline, job, step.to, extra);
    await refreshPipeline(trx, r.scope, pipeline);
    return moved;
  });
}

/** The statuses reported on a commit: the latest of each name unless `all`, newest first. */
export async function listStatuses(
  db: Db,
  project: ProjectRow,
  dir: string,
  shaParam: string,
  q: { ref?: string; stage?: string; name?: string; pipeline_id?: number; all?: boolean; order_by?: 'id' | 'pipeline_id'; sort?: 'asc' | 'desc' },
  page: PageRequest,
): Promise<Page<PipelineJobRow>> {
  const sha = /^[0-9a-f]{7,40}$/i.test(shaParam) ? await resolveCommit(dir, shaParam) : undefined;
  if (!sha) throw notFound('Commit');
  let query = db.selectFrom('pipeline_jobs').selectAll().where('project_id', '=', project.id).where('sha', '=', sha);
  if (!q.all) query = query.where('retried', '=', 0);
  if (q.ref) query = query.where('ref', '=', q.ref);
  if (q.stage) query = query.where('stage', '=', q.stage);
  if (q.name) query = query.where('name', '=', q.name);
  if (q.pipeline_id !== undefined) query = query.where('pipeline_id', '=', q.pipeline_id);
  const dir2 = q.sort ?? 'asc';
  query = query.orderBy(q.order_by ?? 'id', dir2);
  if (q.order_by === 'pipeline_id') query = query.orderBy('id', dir2);
  return offsetPage(db, query, page);
}
