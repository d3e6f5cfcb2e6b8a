import type { z } from 'zod';
import type { Logger } from 'pino';
import type { Db } from '../db/index.ts';
import type { JobRow } from '../db/schema.ts';
import type { Config } from '../config.ts';
import type { Vault } from '../auth/vault.ts';
import type { FileStore } from '../files/index.ts';

/** What every job handler may use: the database, the secrets, the file store, the configuration, the log. */
export interface JobDeps {
  db: Db;
  vault: Vault;
  files: FileStore;
  config: Config;
  logger: Logger;
  /** This instance's URL (sent as X-Service-Instance by deliveries). */
  instanceUrl: string;
}

/* eslint-disable @typescript-eslint/no-explicit-any */
export interface JobDefinition<S extends z.ZodType = z.ZodType, R = any, B = any, H extends z.ZodType = z.ZodType> {
  /** The `kind` column of its rows. */
  kind: string;
  /** Checked when the job is queued and again when it runs: a row that no longer fits fails at once. */
  payload: S;
  /**
   * What the jobs of one `enqueueMany` share (an event sent to each of its hooks): stored once,
   * checked once per claimed batch, and handed to each handler as `ctx.shared`.
   */
  shared?: H;
  /** How long a claimed job is held before another worker may take it over; renewed while the handler runs. */
  leaseMs: (config: Config) => number;
  /**
   * Jobs of this kind one worker keeps running at once (default 1): more for a kind whose
   * handler mostly waits on another machine, such as a webhook delivery waiting for its receiver.
   */
  inFlightPerWorker?: number;
  /** Attempts before the job is given up (failed), each after 2^attempt seconds. */
  maxAttempts: number;
  /**
   * Loads once per claimed batch what its jobs of this kind share (the rows they all read),
   * which each handler gets as `ctx.batch`.
   */
  prepare?: (payloads: z.output<S>[], deps: JobDeps) => Promise<B>;
  /** Must be idempotent: a job whose worker died is run again. Its result goes to `record`. */
  handler: (payload: z.output<S>, ctx: JobDeps & { job: JobRow; batch: B; shared: z.output<H> }) => Promise<R>;
  /**
   * Writes the results of finished jobs of this kind in the transaction that marks them done,
   * one per batch of completions: what a job produced is stored exactly when it is done.
   */
  record?: (trx: Db, results: R[]) => Promise<void>;
}

/**
 * What a room asks for when it queues work: the kind, what its rows carry and how often it is
 * tried. Declared in the room that asks (a merge train is kicked from merging), run by its
 * definition in jobs/ (which adds the lease and the handler), so the room need not import
 * the job that calls back into it.
 */
export type JobTicket<S extends z.ZodType = z.ZodType, H extends z.ZodType = z.ZodType> = Pick<JobDefinition<S, unknown, unknown, H>, 'kind' | 'payload' | 'shared' | 'maxAttempts'>;
export const jobTicket = <S extends z.ZodType, H extends z.ZodType = z.ZodUndefined>(ticket: JobTicket<S, H>): JobTicket<S, H> => ticket;

/** Declares a kind of long work once: its payload, lease, attempts and handler. */
export const defineJob = <S extends z.ZodType, R = void, B = undefined, H extends z.ZodType = z.ZodUndefined>(def: JobDefinition<S, R, B, H>): JobDefinition<S, R, B, H> => def;
