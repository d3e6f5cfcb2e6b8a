/**
 * What can go wrong, in the domain's own terms. Services and handlers throw these; one place
 * (bff/src/http/errors.ts) turns each kind into the platform's status code and body, so no
 * service knows HTTP.
 */
export type DomainErrorKind =
  /** The thing does not exist, or the caller may not know it does (404). */
  | 'not_found'
  /** A request that cannot be carried out as asked: a plain reason (400). */
  | 'bad_request'
  /** Values that break a rule, by field (400). */
  | 'invalid'
  /** The request is well formed but cannot be done in the current state (422). */
  | 'unprocessable'
  /** It already exists (409). */
  | 'conflict'
  /** The caller is known but may not do this (403). */
  | 'forbidden'
  /** The credential used cannot do this, whoever holds it (401; 403 for a console session). */
  | 'unauthorized'
  /** This kind of caller cannot use this operation at all (405). */
  | 'not_allowed'
  /** Too many attempts; try again after `retryAfter` seconds (429). */
  | 'rate_limited'
  /** What was sent is larger than this operation takes (413). */
  | 'too_large'
  /** A service this operation needs is not configured or did not answer (503). */
  | 'unavailable';

export type FieldMessages = { [field: string]: string[] | FieldMessages };

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    readonly fields?: FieldMessages,
    readonly retryAfter?: number,
    /** A limit's own reason, answered as the platform's `{"message": {"error": …}}`. */
    readonly reason?: string,
  ) {
    super(message);
  }
}

/**
 * A fault of the server's own state, not of the request (a repository missing from storage):
 * answered as any unexpected error is (500), and logged with its reason and details.
 */
export class ServerFault extends Error {
  constructor(
    message: string,
    readonly details: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const notFound = (what?: string) => new DomainError('not_found', what ? `404 ${what} Not Found` : '404 Not found');
export const badRequest = (message: string) => new DomainError('bad_request', message);
export const validationFailed = (fields: FieldMessages) => new DomainError('invalid', 'invalid', fields);
export const unprocessable = (reason: string | FieldMessages) =>
  typeof reason === 'string' ? new DomainError('unprocessable', reason) : new DomainError('unprocessable', 'unprocessable', reason);
export const conflict = (message: string) => new DomainError('conflict', message);
export const forbidden = (reason?: string) => new DomainError('forbidden', reason ? `403 Forbidden - ${reason}` : '403 Forbidden');
export const unauthorized = (reason?: string) => new DomainError('unauthorized', reason ? `401 Unauthorized - ${reason}` : '401 Unauthorized');
export const notAllowed = (reason: string) => new DomainError('not_allowed', `405 Method Not Allowed - ${reason}`);
export const serviceUnavailable = (reason?: string) => new DomainError('unavailable', reason ? `503 Service Unavailable - ${reason}` : '503 Service Unavailable');
export const tooLarge = () => new DomainError('too_large', '413 Request Entity Too Large');
export const tooManyRequests = (retryAfterSeconds: number, reason?: string) => new DomainError('rate_limited', '429 Too Many Requests', undefined, retryAfterSeconds, reason);

/**
 * What a collision with a unique index means, by index or constraint name (PostgreSQL) or
 * column list (SQLite). Two identical writes at once both pass a service's own check; the
 * database decides, and the loser gets the same answer as a later duplicate would.
 */
const TAKEN: Record<string, () => DomainError> = {
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

export const takenError = (index: string): DomainError => TAKEN[index]?.() ?? conflict('409 Conflict - a record with these values already exists');

/**
 * An error's code alone (ECONNREFUSED, 57P01, SQLITE_BUSY…), for answers an operator reads: its
 * message may name a server, a path or a connection string. Empty when it has none.
 */
export function errorCodeOf(e: unknown): string {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[\w-]{1,32}$/.test(code) ? code : '';
}
