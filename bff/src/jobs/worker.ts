import type { Logger } from 'pino';
import type { Db } from '../db/index.ts';
import type { JobRow } from '../db/schema.ts';
import { claim, complete, fail, jobEvents, workerId } from './queue.ts';

export type JobHandler = (job: JobRow, payload: unknown) => Promise<void>;

export interface Workers {
  stop(): Promise<void>;
}

/**
 * Runs `count` workers in this process. Each claims a job, runs its handler, and marks it
 * done or failed; when there is nothing to do it waits for an enqueue or a short poll.
 */
export function startWorkers(db: Db, handlers: Record<string, JobHandler>, opts: { count: number; leaseMs: number; logger: Logger; pollMs?: number }): Workers {
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

  const loop = async () => {
    const me = workerId();
    while (!stopping) {
      let job: JobRow | undefined;
      try {
        job = await claim(db, me, opts.leaseMs);
      } catch (e) {
        if (stopping) break;
        opts.logger.warn({ err: e }, 'job claim failed');
        await sleep(1000);
        continue;
      }
      if (!job) {
        await sleep(opts.pollMs ?? 500);
        continue;
      }
      const handler = handlers[job.kind];
      try {
        if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
        await handler(job, JSON.parse(job.payload));
        await complete(db, job);
      } catch (e) {
        opts.logger.warn({ err: e, job: job.id, kind: job.kind }, 'job failed');
        if (!stopping) await fail(db, job, e).catch(() => undefined);
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
