import type { AdminJob } from '../../../shared/src/admin-jobs.ts';
import type { AdminJobRow } from '../queue/admin.ts';

/** How much of a job's last error the admin area shows: the message and the top of its stack. */
const ERROR_MAX = 2000;

/**
 * A job's last error with what could be a credential masked: a URL's user and password and its
 * query string (where tokens ride), `token=…`-style pairs and Authorization values, and long
 * random-looking strings (Gatehouse's tokens are 32 base64url characters after their prefix).
 * Errors come from handlers and the libraries they call, so this is the one place to be sure.
 */
export function maskCredentials(text: string): string {
  return text
    .replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@]+@/gi, '$1***@')
    .replace(/(\b[a-z][a-z0-9+.-]*:\/\/[^\s?#"'<>]+)\?[^\s#"'<>]*/gi, '$1?***')
    .replace(/\b(bearer|basic)\s+[^\s"',;]+/gi, '$1 ***')
    .replace(/\b((?:private[-_]?)?token|secret|password|passwd|api[-_]?key|authorization|x-gitlab-token|private-token|cookie)(["']?\s*[:=]\s*["']?)[^\s"',;&]+/gi, '$1$2***')
    .replace(/[A-Za-z0-9_-]{24,}/g, (run) => (/[A-Z]/.test(run) && /[a-z]/.test(run) && /[0-9]/.test(run) ? '***' : run));
}

export function presentAdminJob(row: AdminJobRow): AdminJob {
  return {
    id: row.id,
    kind: row.kind,
    state: row.state,
    attempts: row.attempts,
    max_attempts: row.max_attempts,
    run_at: row.run_at,
    locked_until: row.locked_until,
    last_error: row.last_error === null ? null : maskCredentials(row.last_error.slice(0, ERROR_MAX)),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
