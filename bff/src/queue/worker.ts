import type { JobRow } from '../db/schema.ts';
import type { JobDefinition, JobDeps } from './define.ts';
import { claimBatch, completeBatch, fail, jobEvents, renewLeases, sharedPayloads, workerId } from './queue.ts';

export interface Workers {
  stop(): Promise<void>;
  /** Whether they are taking jobs: started, not stopped, and their claiming loop has not ended. */
  taking(): boolean;
}

/** A claimed job, checked against its definition, with what its batch shares. */
interface Held {
  job: JobRow;
  def: JobDefinition;
  payload: unknown;
  /** What it shares with the other jobs of its enqueue (checked once per batch). */
  shared: unknown;
  batch: Promise<unknown>;
  leaseMs: number;
  /** When its lease was last set (performance.now()). */
  renewedAt: number;
}

/** A job whose handler returned, waiting to be completed with the others of its batch. */
interface Finished {
  job: JobRow;
  def: JobDefinition;
  result: unknown;
}

/** Jobs claimed ahead of the free slots, at most. */
const DEFAULT_BATCH = 128;
/** How long a finished job may wait for others to complete with. */
const COMPLETE_DELAY_MS = 20;
/** Jobs completed in one transaction at most (more wait for the next one). */
const COMPLETE_BATCH = 500;
/** After an enqueue finds nothing (its transaction has not committed yet), look again this soon… */
const QUICK_POLL_MS = 5;
/** …for this long. */
const QUICK_POLL_WINDOW_MS = 250;

const permanent = (message: string) => Object.assign(new Error(message), { permanent: true });

/**
 * Runs jobs in this process over the given job definitions: `count` workers, each running one
 * job at a time or a definition's `inFlightPerWorker` of its kind. One claimer takes due jobs
 * in batches (one statement each, up to `batch` ahead of the free slots), checks each payload
 * against its definition, reads the payloads its jobs share (stored once per enqueue) and
 * loads what a batch's jobs share (the definition's `prepare`); the handlers run; the jobs that finished meanwhile are completed
 * together, in one transaction with what their handlers produced (the definition's `record`);
 * one heartbeat renews the leases of every job held. With nothing to do it waits for an
 * enqueue or a short poll.
 */
export function startWorkers(deps: JobDeps, definitions: JobDefinition[], opts: { count: number; pollMs?: number; batch?: number }): Workers {
  const { db, logger } = deps;
  const pollMs = opts.pollMs ?? 500;
  const batch = opts.batch ?? DEFAULT_BATCH;
  const byKind = new Map(definitions.map((d) => [d.kind, d]));
  // A claim holds each job for its kind's lease, set by the claiming statement itself.
  const leases = new Map(definitions.map((d) => [d.kind, d.leaseMs(deps.config)]));
  const claimLeaseMs = Math.min(...leases.values());
  // Each worker runs one job at a time, or several of a kind that mostly waits on the network.
  const slots = new Map(definitions.map((d) => [d, opts.count * (d.inFlightPerWorker ?? 1)]));
  const slotsInAll = Math.max(...slots.values());
  const slotsSum = [...slots.values()].reduce((a, b) => a + b, 0);
  const active = new Map<JobDefinition, number>();
  let inFlight = 0;
  const me = workerId();
  let stopping = false;

  const wakeups = new Set<() => void>();
  const wake = () => {
    for (const w of wakeups) w();
  };
  let enqueuedAt = -Infinity;
  const onEnqueue = () => {
    enqueuedAt = performance.now();
    wake();
  };
  jobEvents.on('enqueued', onEnqueue);

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        wakeups.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      wakeups.add(done);
    });

  /** Jobs claimed and not finished: `ready` ones wait for a slot, `running` ones have one. */
  const held = new Map<number, Held>();
  const ready: Held[] = [];
  const running = new Set<Promise<void>>();
  const finished: Finished[] = [];

  // Every lease is extended once a quarter of it has passed (a job is never closer than half
  // its lease to losing it), in one statement per lease length.
  const heartbeat = setInterval(() => void renewDue().catch((e) => logger.warn({ err: e }, 'job lease renewal failed')), Math.max(claimLeaseMs / 4, 25));
  heartbeat.unref();
  async function renewDue() {
    const now = performance.now();
    const due = new Map<number, number[]>();
    for (const h of held.values()) {
      if (now - h.renewedAt < h.leaseMs / 4) continue;
      const ids = due.get(h.leaseMs);
      if (ids) ids.push(h.job.id);
      else due.set(h.leaseMs, [h.job.id]);
    }
    for (const [leaseMs, ids] of due) {
      await renewLeases(db, me, ids, leaseMs);
      for (const id of ids) {
        const h = held.get(id);
        if (h) h.renewedAt = now;
      }
    }
  }

  const failed = async (job: JobRow, e: unknown) => {
    logger.warn({ err: e, job: job.id, kind: job.kind }, 'job failed');
    // A job that can never run (unknown kind, payload that no longer fits) is given up at once.
    const never = (e as { permanent?: boolean }).permanent === true;
    if (!stopping) await fail(db, never ? { ...job, attempts: job.max_attempts } : job, e).catch(() => undefined);
  };

  /** A job's shared payload, parsed and checked once per batch (undefined for jobs of a kind that shares none). */
  const sharedOf = (def: JobDefinition, job: JobRow, texts: Map<number, string>, checked: Map<number, { success: boolean; data?: unknown; error?: Error }>) => {
    if (!def.shared) return { success: true, data: undefined };
    const id = job.shared_payload_id;
    const text = id === null ? undefined : texts.get(id);
    if (id === null || text === undefined) return { success: false, error: new Error('its shared payload is gone') };
    let result = checked.get(id);
    if (!result) {
      result = def.shared.safeParse(JSON.parse(text));
      checked.set(id, result);
    }
    return result;
  };

  /** Checks claimed jobs against their definitions and starts loading what each kind's batch shares. */
  const accept = (jobs: JobRow[], texts: Map<number, string>) => {
    const byDef = new Map<JobDefinition, Held[]>();
    const checked = new Map<number, { success: boolean; data?: unknown; error?: Error }>();
    for (const job of jobs) {
      const def = byKind.get(job.kind);
      const parsed = def?.payload.safeParse(JSON.parse(job.payload));
      const shared = def && parsed?.success ? sharedOf(def, job, texts, checked) : undefined;
      if (!def || !parsed?.success || !shared?.success) {
        const why = !def ? `no definition for job kind ${job.kind}` : `payload does not fit ${job.kind}: ${(parsed?.error ?? shared?.error)?.message}`;
        running.add(track(failed(job, permanent(why))));
        continue;
      }
      const h: Held = { job, def, payload: parsed.data, shared: shared.data, batch: Promise.resolve(undefined), leaseMs: leases.get(job.kind)!, renewedAt: performance.now() };
      held.set(job.id, h);
      ready.push(h);
      const same = byDef.get(def);
      if (same) same.push(h);
      else byDef.set(def, [h]);
    }
    for (const [def, list] of byDef) {
      if (!def.prepare) continue;
      const shared = def.prepare(
        list.map((h) => h.payload),
        deps,
      );
      shared.catch(() => undefined); // each job's handler reports it
      for (const h of list) h.batch = shared;
    }
  };

  const run = async (h: Held): Promise<Finished> => ({ job: h.job, def: h.def, result: await h.def.handler(h.payload, { ...deps, job: h.job, batch: await h.batch, shared: h.shared }) });

  const track = (p: Promise<void>) => {
    const task: Promise<void> = p.finally(() => {
      running.delete(task);
      fill();
    });
    return task;
  };

  /** Starts ready jobs, in order, while their kinds have free slots; asks for more when few are left. */
  const fill = () => {
    for (let i = 0; i < ready.length && inFlight < slotsSum; ) {
      const h = ready[i];
      const busy = active.get(h.def) ?? 0;
      if (busy >= slots.get(h.def)!) {
        i++;
        continue;
      }
      ready.splice(i, 1);
      active.set(h.def, busy + 1);
      inFlight++;
      const task = run(h).then(
        (done) => {
          finished.push(done);
          completeSoon();
        },
        (e) => failed(h.job, e),
      );
      running.add(
        track(
          task.finally(() => {
            held.delete(h.job.id);
            active.set(h.def, active.get(h.def)! - 1);
            inFlight--;
          }),
        ),
      );
    }
    if (ready.length < batch / 2) wake();
  };

  // Completion: whatever finished while the previous transaction ran goes in the next one.
  let completing: Promise<void> | undefined;
  const completeSoon = () => {
    if (completing) return;
    // A few ms later, so that the jobs answered meanwhile share the transaction (a job's
    // result is stored only then, but its work is done: this delays no one).
    completing = new Promise<void>((resolve) => setTimeout(resolve, finished.length >= batch ? 0 : COMPLETE_DELAY_MS))
      .then(completeAll)
      .finally(() => {
        completing = undefined;
        if (finished.length) completeSoon();
      });
  };
  const completeAll = async () => {
    while (finished.length) {
      const group = finished.splice(0, COMPLETE_BATCH);
      try {
        await completeBatch(
          db,
          me,
          group.map((f) => f.job.id),
          async (trx, stillHeld) => {
            for (const def of definitions) {
              const results = group.filter((f) => f.def === def && stillHeld.has(f.job.id)).map((f) => f.result);
              if (def.record && results.length) await def.record(trx, results);
            }
          },
        );
      } catch (e) {
        logger.warn({ err: e, jobs: group.length }, 'completing jobs failed');
        await Promise.all(group.map((f) => fail(db, f.job, e).catch(() => undefined)));
      }
    }
  };

  // Slots take jobs from `ready`, which the claimer tops up when it is half empty, so that
  // claims come in batches whatever the number of slots.
  const claimer = async () => {
    let sweptAt = -Infinity;
    while (!stopping) {
      if (ready.length >= batch / 2) {
        await sleep(pollMs);
        continue;
      }
      const want = slotsInAll + batch - running.size - ready.length;
      // Jobs whose worker died are looked for at most once a poll: they are rare, and this
      // keeps the busy path at one statement per claim.
      const sweep = performance.now() - sweptAt >= pollMs;
      let jobs: JobRow[];
      let texts: Map<number, string>;
      try {
        jobs = await claimBatch(db, me, leases, want, { expired: sweep });
        texts = await sharedPayloads(db, jobs);
      } catch (e) {
        if (stopping) break;
        logger.warn({ err: e }, 'job claim failed');
        await sleep(1000);
        continue;
      }
      if (sweep && jobs.length < want) sweptAt = performance.now();
      accept(jobs, texts);
      fill();
      // An enqueue inside a transaction announces rows that other connections see only after
      // its commit: look again soon rather than a whole poll later.
      if (!jobs.length) await sleep(performance.now() - enqueuedAt < QUICK_POLL_WINDOW_MS ? QUICK_POLL_MS : pollMs);
    }
  };
  let claimingEnded = false;
  const claiming = claimer().finally(() => {
    claimingEnded = true;
  });

  return {
    taking: () => !stopping && !claimingEnded,
    async stop() {
      stopping = true;
      jobEvents.off('enqueued', onEnqueue);
      wake();
      await claiming;
      // Jobs claimed ahead run too: their leases would keep them from other instances meanwhile.
      while (running.size || ready.length) {
        fill();
        await Promise.allSettled([...running]);
      }
      while (completing) await completing;
      clearInterval(heartbeat);
    },
  };
}
