import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { z } from 'zod';
import { uniqueViolation } from '../db/errors.ts';

/** An error with the platform's status code and body; thrown anywhere, rendered once. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body.message === 'string' ? body.message : `HTTP ${status}`);
  }
}

export const notFound = (what?: string) => new ApiError(404, { message: what ? `404 ${what} Not Found` : '404 Not found' });
export const unauthorized = () => new ApiError(401, { message: '401 Unauthorized' });
export const forbidden = (reason?: string) => new ApiError(403, { message: reason ? `403 Forbidden - ${reason}` : '403 Forbidden' });
export const badRequest = (message: string) => new ApiError(400, { message });
export const conflict = (message: string) => new ApiError(409, { message });
export const unsupportedMediaType = (hint: string) => new ApiError(415, { message: `415 Unsupported Media Type - ${hint}` });
export const unprocessable = (message: string) => new ApiError(422, { message });
export const tooManyRequests = (retryAfterSeconds: number) =>
  new ApiError(429, { message: '429 Too Many Requests', retry_after: retryAfterSeconds }, { 'Retry-After': String(retryAfterSeconds) });

/** Validation failures as `{"message": {"field": ["error", ...]}}`, nested for nested entities. */
export const validationFailed = (fields: Record<string, unknown>) => new ApiError(400, { message: fields });

/**
 * Zod issues in the spec's two 400 shapes: a missing attribute is `{"message": "x is missing"}`,
 * anything else maps each property (nested for nested entities) to its error strings.
 */
export function fromZodError(error: z.ZodError): ApiError {
  const missing = error.issues.find((i) => i.message === 'is missing');
  if (missing) return badRequest(`${missing.path.join('.') || 'parameter'} is missing`);
  // A rule about the request as a whole (e.g. "at least one parameter") is a plain message.
  const whole = error.issues.find((i) => i.path.length === 0);
  if (whole) return badRequest(whole.message);
  const fields: Record<string, unknown> = {};
  for (const issue of error.issues) {
    const keys = issue.path.map(String);
    let node = fields as Record<string, unknown>;
    for (const key of keys.slice(0, -1)) {
      if (typeof node[key] !== 'object' || Array.isArray(node[key])) node[key] = {};
      node = node[key] as Record<string, unknown>;
    }
    const last = keys[keys.length - 1];
    const list = (Array.isArray(node[last]) ? node[last] : []) as string[];
    if (!list.includes(issue.message)) list.push(issue.message);
    node[last] = list;
  }
  return validationFailed(fields);
}

export const unknownRoute: RequestHandler = (_req, res) => {
  res.status(404).json({ error: '404 Not Found' });
};

/**
 * What a collision with a unique index means to the caller, by index or constraint name
 * (PostgreSQL) or column list (SQLite). Two identical writes at once both pass the service's
 * own check; the database decides, and the loser gets the same answer as a later duplicate.
 */
const TAKEN: Record<string, () => ApiError> = {
  groups_full_path_lower: () => validationFailed({ path: ['has already been taken'] }),
  projects_path_lower: () => validationFailed({ path: ['has already been taken'] }),
  users_username_lower: () => conflict('Username has already been taken'),
  users_email_lower: () => conflict('Email has already been taken'),
  members_source_user: () => conflict('Member already exists'),
  'members.source_type, members.source_id, members.user_id': () => conflict('Member already exists'),
  scim_identities_group_uid: () => validationFailed({ extern_uid: ['has already been taken'] }),
  'scim_identities.group_id, scim_identities.extern_uid': () => validationFailed({ extern_uid: ['has already been taken'] }),
  scim_identities_group_user: () => validationFailed({ user_id: ['has already been taken'] }),
  'scim_identities.group_id, scim_identities.user_id': () => validationFailed({ user_id: ['has already been taken'] }),
};

export function fromUniqueViolation(err: unknown): ApiError | undefined {
  const index = uniqueViolation(err);
  if (index === undefined) return undefined;
  return TAKEN[index]?.() ?? conflict('409 Conflict - a record with these values already exists');
}

/** The one place errors become responses. Anything unexpected is logged and answered 500. */
export const renderErrors: ErrorRequestHandler = (thrown, req, res, _next) => {
  const err = fromUniqueViolation(thrown) ?? thrown;
  if (err instanceof ApiError) {
    res.set(err.headers).status(err.status).json(err.body);
    return;
  }
  // Body-parser and multer failures are the client's fault.
  const e = err as { status?: number; type?: string; code?: string; message?: string };
  if (e.type === 'entity.parse.failed') {
    res.status(400).json({ message: '400 Bad request - the body is not valid JSON' });
    return;
  }
  if (e.type === 'entity.too.large' || e.code === 'LIMIT_FILE_SIZE') {
    res.status(413).json({ message: '413 Request Entity Too Large' });
    return;
  }
  if (typeof e.code === 'string' && e.code.startsWith('LIMIT_')) {
    res.status(400).json({ message: `400 Bad request - ${e.message}` });
    return;
  }
  if (typeof e.status === 'number' && e.status >= 400 && e.status < 500) {
    res.status(e.status).json({ message: `${e.status} ${e.message ?? 'Bad request'}` });
    return;
  }
  req.log?.error({ err }, 'unhandled error');
  res.status(500).json({ message: '500 Internal Server Error' });
};
