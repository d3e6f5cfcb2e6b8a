import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import type { Workers } from '../queue/worker.ts';
import { errorCodeOf } from '../util/errors.ts';

/**
 * What a readiness check finds: whether this instance can rely on the thing, and when it cannot,
 * why, in words an operator can act on. The detail is served to the monitoring allowlist: it
 * must never carry a credential or a connection string (the server log gets the full error).
 */
export interface CheckResult {
  ok: boolean;
  detail?: string;
  /** Something wrong that does not take the instance out (every instance shares it): told in the check's entry all the same. */
  warning?: string;
}

/**
 * One check of /-/readiness, answered as `<name>_check` (the platform's `db_check`,
 * `gitaly_check`…). The list is made once at start (server.ts) and passed in the app's deps:
 * adding a check is adding one entry there.
 */
export interface ReadinessCheck {
  name: string;
  run: () => Promise<CheckResult>;
}

/** A check that has not answered by then is failed: a load balancer probes with a short timeout of its own. */
export const CHECK_TIMEOUT_MS = 2_000;

/** The database answers `select 1` (within the check's timeout). */
export async function databaseCheck(db: Db, logger: Logger): Promise<CheckResult> {
  try {
    await sql`select 1`.execute(db);
    return { ok: true };
  } catch (err) {
    logger.warn({ err }, 'readiness: the database did not answer');
    // The error's code only (ECONNREFUSED, 57P01, SQLITE_BUSY…): its message may name the server.
    const code = errorCodeOf(err);
    return { ok: false, detail: `the database did not answer select 1${code ? ` (${code})` : ''}` };
  }
}

/** This instance's job workers are taking jobs, or it runs none (GATEHOUSE_WORKERS=0: other instances do the work). */
export function jobWorkersCheck(config: Config, workers: Workers | undefined): CheckResult {
  if (config.workers === 0) return { ok: true };
  if (!workers) return { ok: false, detail: 'the job workers have not started yet' };
  if (!workers.taking()) return { ok: false, detail: 'the job workers have stopped' };
  return { ok: true };
}

type CheckEntry = { status: 'ok'; message?: string } | { status: 'failed'; message: string };

/**
 * Every check at once, each within CHECK_TIMEOUT_MS, answered in the platform's shape:
 * `{"status":"ok","master_check":[{"status":"ok"}],"db_check":[{"status":"ok"}],…}`, a failed
 * check as `[{"status":"failed","message":"…"}]` and the whole as `"failed"`. `master_check`
 * is the platform's check of the serving process itself: whatever answers is it.
 */
export async function readiness(checks: ReadinessCheck[], logger: Logger): Promise<{ ok: boolean; body: Record<string, unknown> }> {
  const results = await Promise.all(checks.map((check) => withTimeout(check, logger)));
  const body: Record<string, unknown> = { status: 'ok', master_check: [{ status: 'ok' }] };
  let ok = true;
  checks.forEach((check, i) => {
    const { ok: passed, detail, warning } = results[i];
    const entry: CheckEntry = passed ? { status: 'ok', ...(warning ? { message: warning } : {}) } : { status: 'failed', message: detail || `${check.name} check failed` };
    body[`${check.name}_check`] = [entry];
    ok &&= passed;
  });
  if (!ok) body.status = 'failed';
  return { ok, body };
}

async function withTimeout(check: ReadinessCheck, logger: Logger): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<CheckResult>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, detail: `no answer within ${CHECK_TIMEOUT_MS / 1000} s` }), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([
      check.run().catch((err: unknown): CheckResult => {
        logger.warn({ err, check: check.name }, 'readiness check threw');
        return { ok: false, detail: 'the check failed unexpectedly (see the server log)' };
      }),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
