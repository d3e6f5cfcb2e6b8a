import { sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import { badRequest, notFound, tooManyRequests } from '../../util/errors.ts';
import { hit } from '../rate-limits.ts';
import { identityOf, type IncomingEvent, type Parsed } from './sentry-payload.ts';

/**
 * The collector's writes: events grouped into errors, session updates counted. Every statement
 * finds its row through a unique index (the key, the project's fingerprint, an error's user or
 * hour), so an event costs the same however many a project holds.
 */

export interface Sender {
  /** The project as the URL names it (digits; anything else is no project). */
  projectId: string;
  publicKey: string | undefined;
  /** The sender's address, for an SDK's `{{auto}}` IP. */
  ip: string | undefined;
}

export interface CollectorLimits {
  /** Envelopes (or store bodies) one key may send per minute. */
  perKeyPerMinute: number;
}

/**
 * The key's project, when the key is an active key of the project named in the URL and the
 * project's integrated error tracking is on; otherwise the same 404 for every case, so that a
 * sender learns nothing of projects or keys (a request without any key: 400 where the project
 * collects). Then the key's rate.
 */
export async function admit(db: Db, sender: Sender, limits: CollectorLimits): Promise<{ projectId: number; keyId: number }> {
  const projectId = /^\d{1,10}$/.test(sender.projectId) ? Number(sender.projectId) : NaN;
  if (!Number.isSafeInteger(projectId) || projectId > 2_147_483_647) throw notFound('Project');
  if (!sender.publicKey) {
    // No key at all is a request the collector cannot read (400), once the project is known to collect: as the platform answers.
    const tracked = await db.selectFrom('error_tracking_settings').select('project_id').where('project_id', '=', projectId).where('active', '=', 1).where('integrated', '=', 1).executeTakeFirst();
    if (!tracked) throw notFound('Project');
    throw badRequest('400 Bad request - the request names no client key (sentry_key or X-Sentry-Auth)');
  }
  const key = await db
    .selectFrom('error_tracking_client_keys as k')
    .innerJoin('error_tracking_settings as s', 's.project_id', 'k.project_id')
    .select(['k.id', 'k.project_id'])
    .where('k.public_key', '=', sender.publicKey)
    .where('k.project_id', '=', projectId)
    .where('k.active', '=', 1)
    .where('s.active', '=', 1)
    .where('s.integrated', '=', 1)
    .executeTakeFirst();
  if (!key) throw notFound('Project');
  const { count, retryAfterSeconds } = await hit(db, `error_tracking_key:${key.id}`, 60_000, 1);
  if (count > limits.perKeyPerMinute) throw tooManyRequests(retryAfterSeconds, 'this client key sent too many events; retry later');
  return { projectId: key.project_id, keyId: key.id };
}

const hourOf = (ms: number) => Math.floor(ms / 3_600_000) * 3600;

/** Records what was parsed, in one transaction. */
export async function record(db: Db, projectId: number, parsed: Parsed, senderIp: string | undefined): Promise<void> {
  if (!parsed.events.length && !parsed.sessions.length) return;
  const now = Date.now();
  await db.transaction().execute(async (trx) => {
    for (const event of parsed.events) await recordEvent(trx, projectId, event, now, senderIp);
    for (const s of parsed.sessions) {
      await trx
        .insertInto('error_tracking_session_hours')
        .values({ project_id: projectId, hour: hourOf(now), status: s.status, count: s.count })
        .onConflict((oc) => oc.columns(['project_id', 'hour', 'status']).doUpdateSet({ count: sql<number>`error_tracking_session_hours.count + ${s.count}` }))
        .execute();
    }
  });
}

async function recordEvent(trx: Db, projectId: number, event: IncomingEvent, now: number, senderIp: string | undefined): Promise<void> {
  const seen = new Date(now).toISOString();
  const stackTrace = JSON.stringify(event.frames);
  const error = await trx
    .insertInto('error_tracking_errors')
    .values({
      project_id: projectId,
      fingerprint: event.fingerprint,
      name: event.name,
      description: event.description,
      actor: event.culprit,
      platform: event.platform,
      status: 'unresolved',
      first_seen_at: seen,
      last_seen_at: seen,
      stack_trace: stackTrace,
    })
    .onConflict((oc) =>
      oc.columns(['project_id', 'fingerprint']).doUpdateSet({
        events_count: sql<number>`error_tracking_errors.events_count + 1`,
        last_seen_at: seen,
        description: event.description,
        actor: event.culprit,
        platform: event.platform,
        stack_trace: stackTrace,
        // A resolved error that happens again is unresolved again; an ignored one stays ignored.
        status: sql<'unresolved'>`CASE WHEN error_tracking_errors.status = 'resolved' THEN 'unresolved' ELSE error_tracking_errors.status END`,
      }),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  const identity = identityOf(event.user, senderIp);
  await trx
    .insertInto('error_tracking_error_events')
    .values({
      error_id: error.id,
      event_id: event.eventId,
      description: event.description,
      level: event.level,
      environment: event.environment,
      platform: event.platform,
      user_identity: identity,
      occurred_at: event.occurredAt ?? seen,
      payload: JSON.stringify({ frames: event.frames, user: event.user }),
    })
    .execute();
  if (identity) {
    const added = await trx.insertInto('error_tracking_error_users').values({ error_id: error.id, identity }).onConflict((oc) => oc.doNothing()).returning('error_id').executeTakeFirst();
    if (added) await trx.updateTable('error_tracking_errors').set({ users_count: sql<number>`users_count + 1` }).where('id', '=', error.id).execute();
  }
  await trx
    .insertInto('error_tracking_error_hours')
    .values({ error_id: error.id, hour: hourOf(now), count: 1 })
    .onConflict((oc) => oc.columns(['error_id', 'hour']).doUpdateSet({ count: sql<number>`error_tracking_error_hours.count + 1` }))
    .execute();
}

/** Sessions counted for the project, by status (what the collector accepted of release health). */
export async function sessionCounts(db: Db, projectId: number): Promise<Record<string, number>> {
  const rows = await db.selectFrom('error_tracking_session_hours').select(['status', sql<number>`sum(count)`.as('n')]).where('project_id', '=', projectId).groupBy('status').execute();
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}
