import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import type { z } from 'zod';
import { uniqueViolation } from '../db/errors.ts';
import { badRequest, DomainError, ServerFault, takenError, validationFailed, type DomainErrorKind, type FieldMessages } from '../util/errors.ts';
import type { Actor } from '../auth/actor.ts';

/**
 * An answer with a status and body of its own that no domain error describes (the scope error's
 * extra field, an ended session's cookie, a body type the API does not take).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body.message === 'string' ? body.message : `HTTP ${status}`);
  }
}

export const unsupportedMediaType = (hint: string) => new ApiError(415, { message: `415 Unsupported Media Type - ${hint}` });

const STATUS: Record<DomainErrorKind, number> = {
  not_found: 404,
  bad_request: 400,
  invalid: 400,
  unprocessable: 422,
  conflict: 409,
  forbidden: 403,
  unauthorized: 401,
  not_allowed: 405,
  rate_limited: 429,
  too_large: 413,
  unavailable: 503,
};

/**
 * The platform's answer to a domain error. A console session never gets 401 for what its
 * credential may not do: to the console a 401 means "sign in again", so that is a 403.
 */
export function toApiError(err: DomainError, req?: Request): ApiError {
  const status = err.kind === 'unauthorized' && (req as (Request & { actor?: Actor }) | undefined)?.actor?.via === 'session' ? 403 : STATUS[err.kind];
  const message = status === 403 && err.kind === 'unauthorized' ? '403 Forbidden' : (err.fields ?? err.message);
  if (err.kind === 'rate_limited') {
    const body = err.reason === undefined ? { message, retry_after: err.retryAfter } : { message: { error: err.reason } };
    return new ApiError(429, body, { 'Retry-After': String(err.retryAfter) });
  }
  return new ApiError(status, { message });
}

/**
 * Zod issues in the spec's two 400 shapes: a missing attribute is `{"message": "x is missing"}`,
 * anything else maps each property (nested for nested entities) to its error strings.
 */
export function fromZodError(error: z.ZodError): DomainError {
  const missing = error.issues.find((i) => i.message === 'is missing');
  if (missing) return badRequest(`${missing.path.join('.') || 'parameter'} is missing`);
  // A rule about the request as a whole (e.g. "at least one parameter") is a plain message.
  const whole = error.issues.find((i) => i.path.length === 0);
  if (whole) return badRequest(whole.message);
  const fields: FieldMessages = {};
  for (const issue of error.issues) {
    const keys = issue.path.map(String);
    let node = fields;
    for (const key of keys.slice(0, -1)) {
      if (typeof node[key] !== 'object' || Array.isArray(node[key])) node[key] = {};
      node = node[key] as FieldMessages;
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

/** The platform's answer to a thrown error, if it is one the API knows (domain, HTTP, unique index). */
export function asApiError(thrown: unknown, req?: Request): ApiError | undefined {
  const index = uniqueViolation(thrown);
  const err = index !== undefined ? takenError(index) : thrown;
  if (err instanceof DomainError) return toApiError(err, req);
  return err instanceof ApiError ? err : undefined;
}

/** The one place errors become responses. Anything unexpected is logged and answered 500. */
export const renderErrors: ErrorRequestHandler = (thrown, req, res, _next) => {
  const err = asApiError(thrown, req) ?? thrown;
  if (err instanceof ApiError) {
    res.set(err.headers).status(err.status).json(err.body);
    return;
  }
  // Body-parser failures are the client's fault.
  const e = err as { status?: number; type?: string; code?: string; message?: string };
  if (e.type === 'entity.parse.failed') {
    res.status(400).json({ message: '400 Bad request - the body is not valid JSON' });
    return;
  }
  if (e.type === 'entity.too.large') {
    res.status(413).json({ message: '413 Request Entity Too Large' });
    return;
  }
  if (typeof e.status === 'number' && e.status >= 400 && e.status < 500) {
    res.status(e.status).json({ message: `${e.status} ${e.message ?? 'Bad request'}` });
    return;
  }
  if (err instanceof ServerFault) req.log?.error(err.details, err.message);
  else req.log?.error({ err }, 'unhandled error');
  res.status(500).json({ message: '500 Internal Server Error' });
};
