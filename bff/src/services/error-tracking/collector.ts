import { sql } from 'kysely';
import { preparedStatement, type Db } from '../../db/index.ts';
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

const keyOf = preparedStatement((db, v: { publicKey: string; projectId: number }) =>
  db
    .selectFrom('error_tracking_client_keys as k')
    .innerJoin('error_tracking_settings as s', 's.project_id', 'k.project_id')
    .select(['k.id', 'k.project_id'])
    .where('k.public_key', '=', v.publicKey)
    .where('k.project_id', '=', v.projectId)
    .where('k.active', '=', 1)
    .where('s.active', '=', 1)
    .where('s.integrated', '=', 1),
);

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
  const [key] = await keyOf(db, { publicKey: sender.publicKey, projectId });
  if (!key) throw notFound('Project');
  const { count, retryAfterSeconds } = await tally(db, key.id);
  if (count > limits.perKeyPerMinute) throw tooManyRequests(retryAfterSeconds, 'this client key sent too many events; retry later');
  return { projectId: key.project_id, keyId: key.id };
}

/**
 * A key's count in the current minute, shared by every instance through the rate-limit table
 * but written there in batches: each process adds what it counted every FLUSH_EVERY envelopes
 * or FLUSH_MS, whichever comes first (and at the first envelope of a window), and judges by the
 * shared count plus its own not yet written. A burst then costs one shared write per batch,
 * not one per envelope; instances may together overshoot a limit by their unwritten counts.
 */
const WINDOW_MS = 60_000;
const FLUSH_EVERY = 20;
const FLUSH_MS = 250;
interface Tally {
  known: number;
  pending: number;
  flushedAt: number;
  windowEnds: number;
}
const tallies = new WeakMap<Db, Map<number, Tally>>();

async function tally(db: Db, keyId: number): Promise<{ count: number; retryAfterSeconds: number }> {
  let byKey = tallies.get(db);
  if (!byKey) tallies.set(db, (byKey = new Map()));
  const now = Date.now();
  let t = byKey.get(keyId);
  if (!t || now >= t.windowEnds) byKey.set(keyId, (t = { known: 0, pending: 0, flushedAt: 0, windowEnds: now + WINDOW_MS }));
  t.pending++;
  if (t.pending >= FLUSH_EVERY || now - t.flushedAt >= FLUSH_MS) {
    const n = t.pending;
    t.pending = 0;
    t.flushedAt = now;
    const shared = await hit(db, `error_tracking_key:${keyId}`, WINDOW_MS, n);
    t.known = Math.max(t.known, shared.count);
    t.windowEnds = now + shared.retryAfterSeconds * 1000;
  }
  return { count: t.known + t.pending, retryAfterSeconds: Math.max(1, Math.ceil((t.windowEnds - now) / 1000)) };
}

const hourOf = (ms: number) => Math.floor(ms / 3_600_000) * 3600;

/** An envelope waiting for its transaction, and its sender waiting for the answer. */
interface Waiting {
  projectId: number;
  parsed: Parsed;
  senderIp: string | undefined;
  receivedAt: number;
  written: () => void;
  failed: (error: unknown) => void;
}
/** Per database: the envelopes waiting, and whether a transaction is being written. */
const queues = new WeakMap<Db, { waiting: Waiting[]; writing: boolean }>();
/** The most envelopes one transaction writes. */
const BATCH = 64;

/**
 * Records what was parsed. Envelopes are written in batches (group commit): while one
 * transaction is written, those that arrive meanwhile wait, and go together in the next one,
 * so a burst costs a transaction (its BEGIN, its COMMIT, PostgreSQL's flush of its log) per
 * batch rather than per envelope. A batch is committed before any of its senders is answered,
 * so an answered envelope is kept. One envelope that cannot be written (a batch fails) does not
 * take the others with it: the batch is written again one envelope to a transaction.
 */
export function record(db: Db, projectId: number, parsed: Parsed, senderIp: string | undefined): Promise<void> {
  if (!parsed.events.length && !parsed.sessions.length) return Promise.resolve();
  let queue = queues.get(db);
  if (!queue) queues.set(db, (queue = { waiting: [], writing: false }));
  const answer = new Promise<void>((written, failed) => queue.waiting.push({ projectId, parsed, senderIp, receivedAt: Date.now(), written, failed }));
  if (!queue.writing) void writeQueued(db, queue);
  return answer;
}

async function writeQueued(db: Db, queue: { waiting: Waiting[]; writing: boolean }): Promise<void> {
  queue.writing = true;
  try {
    while (queue.waiting.length) {
      const batch = queue.waiting.splice(0, BATCH);
      try {
        await writeBatch(db, batch);
        for (const w of batch) w.written();
      } catch (e) {
        if (batch.length === 1) batch[0]!.failed(e);
        else for (const w of batch) await writeBatch(db, [w]).then(w.written, w.failed);
      }
    }
  } finally {
    queue.writing = false;
  }
}

function writeBatch(db: Db, batch: Waiting[]): Promise<void> {
  return db.transaction().execute(async (trx) => {
    for (const { projectId, parsed, senderIp, receivedAt } of batch) {
      for (const event of parsed.events) await recordEvent(trx, projectId, event, receivedAt, senderIp);
      for (const s of parsed.sessions) await countSessions(trx, { projectId, hour: hourOf(receivedAt), status: s.status, count: s.count });
    }
  });
}

// The statements of an event, compiled once (preparedStatement): building them anew would cost more than running them.
const countSessions = preparedStatement((db, v: { projectId: number; hour: number; status: string; count: number }) =>
  db
    .insertInto('error_tracking_session_hours')
    .values({ project_id: v.projectId, hour: v.hour, status: v.status, count: v.count })
    .onConflict((oc) => oc.columns(['project_id', 'hour', 'status']).doUpdateSet({ count: sql<number>`error_tracking_session_hours.count + CAST(${v.count} AS integer)` })),
);

type ErrorValues = { projectId: number; fingerprint: string; name: string; description: string; actor: string; platform: string | null; seen: string; stackTrace: string };
const upsertError = preparedStatement((db, v: ErrorValues) =>
  db
    .insertInto('error_tracking_errors')
    .values({ project_id: v.projectId, fingerprint: v.fingerprint, name: v.name, description: v.description, actor: v.actor, platform: v.platform, status: 'unresolved', first_seen_at: v.seen, last_seen_at: v.seen, stack_trace: v.stackTrace })
    .onConflict((oc) =>
      // Only the counters and the dates move: the latest stack trace is read from the latest
      // event (by the (error_id, id) index), so the error's row stays small to rewrite.
      oc.columns(['project_id', 'fingerprint']).doUpdateSet({
        events_count: sql<number>`error_tracking_errors.events_count + 1`,
        last_seen_at: v.seen,
        // A resolved error that happens again is unresolved again; an ignored one stays ignored.
        status: sql<'unresolved'>`CASE WHEN error_tracking_errors.status = 'resolved' THEN 'unresolved' ELSE error_tracking_errors.status END`,
      }),
    )
    .returning('id'),
);

type EventValues = { errorId: number; eventId: string; description: string; level: string | null; environment: string | null; platform: string | null; identity: string | null; occurredAt: string; payload: string };
const insertEvent = preparedStatement((db, v: EventValues) =>
  db.insertInto('error_tracking_error_events').values({
    error_id: v.errorId,
    event_id: v.eventId,
    description: v.description,
    level: v.level,
    environment: v.environment,
    platform: v.platform,
    user_identity: v.identity,
    occurred_at: v.occurredAt,
    payload: v.payload,
  }),
);
const addUser = preparedStatement((db, v: { errorId: number; identity: string }) =>
  db.insertInto('error_tracking_error_users').values({ error_id: v.errorId, identity: v.identity }).onConflict((oc) => oc.doNothing()).returning('error_id'),
);
const countUser = preparedStatement((db, v: { errorId: number }) => db.updateTable('error_tracking_errors').set({ users_count: sql<number>`users_count + 1` }).where('id', '=', v.errorId));
const countHour = preparedStatement((db, v: { errorId: number; hour: number }) =>
  db
    .insertInto('error_tracking_error_hours')
    .values({ error_id: v.errorId, hour: v.hour, count: 1 })
    .onConflict((oc) => oc.columns(['error_id', 'hour']).doUpdateSet({ count: sql<number>`error_tracking_error_hours.count + 1` })),
);

async function recordEvent(trx: Db, projectId: number, event: IncomingEvent, now: number, senderIp: string | undefined): Promise<void> {
  const seen = new Date(now).toISOString();
  const [error] = await upsertError(trx, { projectId, fingerprint: event.fingerprint, name: event.name, description: event.description, actor: event.culprit, platform: event.platform, seen, stackTrace: JSON.stringify(event.frames) });
  const errorId = error!.id;
  const identity = identityOf(event.user, senderIp);
  await insertEvent(trx, {
    errorId,
    eventId: event.eventId,
    description: event.description,
    level: event.level,
    environment: event.environment,
    platform: event.platform,
    identity,
    occurredAt: event.occurredAt ?? seen,
    payload: JSON.stringify({ frames: event.frames, user: event.user }),
  });
  if (identity && (await addUser(trx, { errorId, identity })).length) await countUser(trx, { errorId });
  await countHour(trx, { errorId, hour: hourOf(now) });
}

/** Sessions counted for the project, by status (what the collector accepted of release health). */
export async function sessionCounts(db: Db, projectId: number): Promise<Record<string, number>> {
  const rows = await db.selectFrom('error_tracking_session_hours').select(['status', sql<number>`sum(count)`.as('n')]).where('project_id', '=', projectId).groupBy('status').execute();
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}
