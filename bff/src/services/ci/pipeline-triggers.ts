import type { Db } from '../../db/index.ts';
import type { PipelineRow, PipelineTriggerRow, ProjectRow, UserRow } from '../../db/schema.ts';
import type { Vault } from '../../auth/vault.ts';
import { newToken, safeEqual, tokenDigest } from '../../auth/secrets.ts';
import { offsetPage, type Page, type PageRequest } from '../../db/pagination.ts';
import type { PipelineTriggerBody } from '../../../../shared/src/pipeline-triggers.ts';
import { ACCESS_LEVELS } from '../../../../shared/src/roles.ts';
import { badRequest, notFound, validationFailed } from '../../util/errors.ts';
import { nowIso } from '../../util/time.ts';
import { resolveCommit } from '../git/branches.ts';
import { projectAccessLevel } from '../../policies/access.ts';
import { commitMeta, createPipeline, type PipelineScope } from './pipelines.ts';
import { usersById } from '../access/users.ts';

/** Trigger tokens carry the platform's shape (glptt-) with our own prefix. */
export const TRIGGER_TOKEN_PREFIX = 'gtptt-';
/** CI job tokens (CI_JOB_TOKEN): the platform's prefix and ours. */
const JOB_TOKEN = /^(glcbt|gtcbt)-/;

export interface TriggerView {
  trigger: PipelineTriggerRow;
  owner: UserRow | null;
  /** As the caller may see it: whole for its owner, its first four characters for others. */
  token: string;
}

const shownToken = (plaintext: string, owner: boolean) => (owner ? plaintext : plaintext.slice(0, 4));

/** Each trigger with its owner; the token opened from the vault only for the caller who owns it. */
async function views(db: Db, vault: Vault, viewer: UserRow | null, rows: PipelineTriggerRow[]): Promise<TriggerView[]> {
  const users = await usersById(db, rows.map((r) => r.owner_id));
  return rows.map((trigger) => ({
    trigger,
    owner: trigger.owner_id === null ? null : (users.get(trigger.owner_id) ?? null),
    token: shownToken(vault.decrypt(trigger.encrypted_token), viewer !== null && trigger.owner_id === viewer.id),
  }));
}

export async function listTriggers(db: Db, vault: Vault, viewer: UserRow | null, project: ProjectRow, page: PageRequest): Promise<Page<TriggerView>> {
  const rows = await offsetPage(db, db.selectFrom('pipeline_triggers').selectAll().where('project_id', '=', project.id).orderBy('id', 'desc'), page);
  return rows.mapAsync((items) => views(db, vault, viewer, items));
}

export async function findTrigger(db: Db, project: ProjectRow, id: number): Promise<PipelineTriggerRow> {
  const row = await db.selectFrom('pipeline_triggers').selectAll().where('project_id', '=', project.id).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Trigger');
  return row;
}

export const viewTrigger = async (db: Db, vault: Vault, viewer: UserRow | null, trigger: PipelineTriggerRow) => (await views(db, vault, viewer, [trigger]))[0];

/** A new trigger token owned by its creator, who is shown it whole (now and later). */
export async function createTrigger(db: Db, vault: Vault, owner: UserRow, project: ProjectRow, description: string): Promise<TriggerView> {
  const plaintext = newToken(TRIGGER_TOKEN_PREFIX);
  const now = nowIso();
  const inserted = await db
    .insertInto('pipeline_triggers')
    .values({ project_id: project.id, owner_id: owner.id, description, token_digest: tokenDigest(plaintext), encrypted_token: vault.encrypt(plaintext), last_used_at: null, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const trigger = await db.selectFrom('pipeline_triggers').selectAll().where('id', '=', inserted.id).executeTakeFirstOrThrow();
  return { trigger, owner, token: plaintext };
}

export async function updateTrigger(db: Db, trigger: PipelineTriggerRow, description: string | undefined): Promise<PipelineTriggerRow> {
  if (description === undefined) return trigger;
  const updated_at = nowIso();
  await db.updateTable('pipeline_triggers').set({ description, updated_at }).where('id', '=', trigger.id).execute();
  return { ...trigger, description, updated_at };
}

export async function deleteTrigger(db: Db, trigger: PipelineTriggerRow): Promise<void> {
  await db.deleteFrom('pipeline_triggers').where('id', '=', trigger.id).execute();
}

export interface TriggerRequest {
  db: Db;
  scope: PipelineScope;
  dir: string;
}

/**
 * POST /projects/:id/trigger/pipeline: the token names a trigger of this project (404 otherwise,
 * as on the platform), whose owner must still be allowed to run pipelines; `ref` must name a
 * branch or tag. The pipeline waits (`created`) for the external CI to report its jobs.
 */
export async function triggerPipeline(r: TriggerRequest, body: PipelineTriggerBody): Promise<PipelineRow> {
  if (JOB_TOKEN.test(body.token)) {
    throw badRequest('400 Bad request - CI/CD job tokens are not supported: Gatehouse runs no jobs of its own. Use a pipeline trigger token (POST /projects/:id/triggers)');
  }
  const { project, group } = r.scope;
  const digest = tokenDigest(body.token);
  const trigger = await r.db.selectFrom('pipeline_triggers').selectAll().where('token_digest', '=', digest).where('project_id', '=', project.id).executeTakeFirst();
  if (!trigger || !safeEqual(trigger.token_digest, digest)) throw notFound();
  const owner = trigger.owner_id === null ? undefined : await r.db.selectFrom('users').selectAll().where('id', '=', trigger.owner_id).executeTakeFirst();
  const level = owner && owner.state === 'active' ? await projectAccessLevel(r.db, owner.id, project, group) : 0;
  if (!owner || (level < ACCESS_LEVELS.developer && owner.is_admin !== 1)) throw validationFailed({ base: ['Insufficient permissions to create a new pipeline'] });

  const branch = body.ref.startsWith('-') ? undefined : await resolveCommit(r.dir, `refs/heads/${body.ref}`);
  const tag = branch ? undefined : body.ref.startsWith('-') ? undefined : await resolveCommit(r.dir, `refs/tags/${body.ref}`);
  const sha = branch ?? tag;
  if (!sha) throw validationFailed({ base: ['Reference not found'] });
  const commit = await commitMeta(r.dir, sha);
  return r.db.transaction().execute(async (trx) => {
    await trx.updateTable('pipeline_triggers').set({ last_used_at: nowIso() }).where('id', '=', trigger.id).execute();
    return createPipeline(trx, r.scope, { ref: body.ref, tag: !branch, source: 'trigger', user: owner, triggerId: trigger.id, variables: body.variables, inputs: body.inputs, commit });
  });
}
