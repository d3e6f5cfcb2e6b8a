import type { JobRow } from '../db/schema.ts';
import type { JobDefinition, JobDeps } from './define.ts';
import { claim, complete, fail, jobEvents, renewLease, workerId } from './queue.ts';

export interface Workers {
  stop(): Promise<void>;
}

/**
 * Runs `count` workers in this process over the given job definitions. Each claims a job,
 * checks its payload against the definition, runs its handler while renewing the lease (a
 * third of the lease at a time), and marks it done or failed; when there is nothing to do it
 * waits for an enqueue or a short poll.
 */
export function startWorkers(deps: JobDeps, definitions: JobDefinition[], opts: { count: number; pollMs?: number }): Workers {
  const { db, logger } = deps;
  const byKind = new Map(definitions.map((d) => [d.kind, d]));
  // A claim holds the job for the shortest lease (a worker that dies right after claiming loses
  // little time); a kind with a longer lease extends it before its handler starts.
  const claimLeaseMs = Math.min(...definitions.map((d) => d.leaseMs(deps.config)));
  let stopping = false;
  const wakeups = new Set<() => void>();
  const wake = () => {
    for (const w of wakeups) w();
  };
  jobEvents.on('enqueued', wake);

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

  const run = async (job: JobRow) => {
    const def = byKind.get(job.kind);
    if (!def) throw Object.assign(new Error(`no definition for job kind ${job.kind}`), { permanent: true });
    const parsed = def.payload.safeParse(JSON.parse(job.payload));
    if (!parsed.success) throw Object.assign(new Error(`payload does not fit ${job.kind}: ${parsed.error.message}`), { permanent: true });
    const leaseMs = def.leaseMs(deps.config);
    if (leaseMs !== claimLeaseMs && !(await renewLease(db, job, leaseMs))) return;
    const heartbeat = setInterval(() => void renewLease(db, job, leaseMs).catch(() => undefined), Math.max(leaseMs / 3, 50));
    try {
      await def.handler(parsed.data, { ...deps, job });
    } finally {
      clearInterval(heartbeat);
    }
  };

  const loop = async () => {
    const me = workerId();
    while (!stopping) {
      let job: JobRow | undefined;
      try {
        job = await claim(db, me, claimLeaseMs);
      } catch (e) {
        if (stopping) break;
        logger.warn({ err: e }, 'job claim failed');
        await sleep(1000);
        continue;
      }
      if (!job) {
        await sleep(opts.pollMs ?? 500);
        continue;
      }
      try {
        await run(job);
        await complete(db, job);
      } catch (e) {
        logger.warn({ err: e, job: job.id, kind: job.kind }, 'job failed');
        // A job that can never run (unknown kind, payload that no longer fits) is given up at once.
        const permanent = (e as { permanent?: boolean }).permanent === true;
        if (!stopping) await fail(db, permanent ? { ...job, attempts: job.max_attempts } : job, e).catch(() => undefined);
      }
    }
  };

  const running = Array.from({ length: opts.count }, () => loop());
  return {
    async stop() {
      stopping = true;
      jobEvents.off('enqueued', wake);
      wake();
      await Promise.allSettled(running);
    },
  };
}
