import createClient, { type Middleware } from 'openapi-fetch';
import type { ConsolePaths } from './console-paths.ts';
import type { paths } from './schema.d.ts';

/**
 * The console's one fetch client. The browser holds no API credential: calls ride on the
 * httpOnly session cookie, and every write echoes the session's CSRF token, which is kept in
 * memory only (it is re-read from GET /api/console/session after a reload). Paths, parameters
 * and bodies are checked at compile time against the types generated from the route table
 * (`npm run openapi:types`); `data()`/`page()` turn an answer into its body or an ApiError.
 */

/** Field errors of a 400 `{"message": {"field": ["error", ...]}}`, flattened to dotted paths. */
export type FieldErrors = Record<string, string[]>;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Present when the server answered with per-field validation errors. */
    readonly fieldErrors: FieldErrors | null = null,
    readonly body: unknown = null,
    /** The answer's headers (Retry-After of a 429, for one), when there was an answer. */
    readonly headers: Headers | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get isForbidden() {
    return this.status === 403;
  }

  get isNotFound() {
    return this.status === 404;
  }

  /** Seconds to wait before asking again, from a 429's Retry-After header (or its body). */
  get retryAfterSeconds(): number | null {
    const header = Number(this.headers?.get('Retry-After') ?? Number.NaN);
    if (Number.isFinite(header) && header >= 0) return header;
    const body = (this.body as { retry_after?: unknown } | null)?.retry_after;
    return typeof body === 'number' ? body : null;
  }
}

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;

let csrfToken: string | null = null;
export const setCsrfToken = (token: string | null) => {
  csrfToken = token;
};

type UnauthorizedHandler = () => void;
let onUnauthorized: UnauthorizedHandler = () => {};
/** Called on any 401 (except where a request opts out): the app sends the user to sign in. */
export const setUnauthorizedHandler = (fn: UnauthorizedHandler) => {
  onUnauthorized = fn;
};

/** `{"message": {"a": ["x"], "b": {"c": ["y"]}}}` → `{"a": ["x"], "b.c": ["y"]}`. */
export function flattenFieldErrors(node: unknown, prefix = '', out: FieldErrors = {}): FieldErrors {
  if (Array.isArray(node)) {
    if (node.every((v) => typeof v === 'string')) out[prefix || 'base'] = node as string[];
    else node.forEach((v, i) => flattenFieldErrors(v, prefix ? `${prefix}.${i}` : String(i), out));
  } else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) flattenFieldErrors(v, prefix ? `${prefix}.${k}` : k, out);
  } else if (typeof node === 'string') {
    out[prefix || 'base'] = [node];
  }
  return out;
}

function errorFrom(status: number, body: unknown, statusText: string, headers: Headers | null = null): ApiError {
  const message = (body as { message?: unknown } | null)?.message ?? (body as { error?: unknown } | null)?.error;
  if (typeof message === 'string') return new ApiError(status, message, null, body, headers);
  if (message && typeof message === 'object') {
    const fields = flattenFieldErrors(message);
    const summary = Object.entries(fields)
      .map(([k, v]) => `${k} ${v.join(', ')}`)
      .join('; ');
    return new ApiError(status, summary || `${status} ${statusText}`, fields, body, headers);
  }
  return new ApiError(status, `${status} ${statusText || 'Request failed'}`, null, body, headers);
}

/** Every request asks for JSON; writes echo the session's CSRF token. */
const sessionMiddleware: Middleware = {
  onRequest({ request }) {
    request.headers.set('Accept', 'application/json');
    if (request.method !== 'GET' && csrfToken) request.headers.set('X-CSRF-Token', csrfToken);
    return request;
  },
};

/** Empty filters (a cleared search box) are left out of the URL, as the server reads "" as a value. */
const querySerializer = (query: Record<string, unknown>) => {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  }
  return params.toString();
};

const makeClient = <P extends {}>(baseUrl: string) => {
  const client = createClient<P>({ baseUrl, credentials: 'same-origin', querySerializer });
  client.use(sessionMiddleware);
  return client;
};

/** The platform API, typed by web/src/api/schema.d.ts (generated from the route table). */
export const v4 = makeClient<paths>('/api/v4');
/** The console's own endpoints (session, abilities), typed by console-paths.ts. */
export const consoleApi = makeClient<ConsolePaths>('/api/console');

export interface CallOptions {
  /** A 401 is an expected answer here (sign-in, "am I signed in?"): do not redirect. */
  allowUnauthorized?: boolean;
}

/** What an openapi-fetch call resolves to: data on a 2xx, error otherwise. */
type Answer = { data?: unknown; error?: unknown; response: Response };
/** The success body of a call (void for a 204). */
export type DataOf<A extends Answer> = Exclude<A['data'], undefined>;

export interface ApiResponse<T> {
  data: T;
  headers: Headers;
}

/** Awaits a typed call and gives its body and headers, or throws an ApiError. */
export async function answer<A extends Answer>(call: Promise<A>, opts: CallOptions = {}): Promise<ApiResponse<DataOf<A>>> {
  let res: A;
  try {
    res = await call;
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e;
    throw new ApiError(0, 'The server could not be reached. Check your connection and try again.');
  }
  const { response } = res;
  if (!response.ok) {
    const error = errorFrom(response.status, res.error ?? null, response.statusText, response.headers);
    if (response.status === 401 && !opts.allowUnauthorized) onUnauthorized();
    throw error;
  }
  return { data: res.data as DataOf<A>, headers: response.headers };
}

/** The body of a typed call, or an ApiError. */
export const data = async <A extends Answer>(call: Promise<A>, opts?: CallOptions) => (await answer(call, opts)).data;

/** One page of a list: its items and the pagination headers. */
export interface Page<T> {
  items: T[];
  page: PageInfo;
}

/** A list call read as a page (items plus X-Total, X-Page, …). */
export async function page<T>(call: Promise<{ data?: T[]; error?: unknown; response: Response }>, opts?: CallOptions): Promise<Page<T>> {
  const res = await answer(call, opts);
  return { items: res.data, page: pageInfo(res.headers) };
}

/** Pagination headers of the platform's offset pagination. */
export interface PageInfo {
  /** X-Total and X-Total-Pages: null for a list too long for the server to count (over 10,000 records, as on the platform). */
  total: number | null;
  totalPages: number | null;
  page: number;
  perPage: number;
  nextPage: number | null;
  prevPage: number | null;
}

export function pageInfo(headers: Headers): PageInfo {
  const num = (name: string, fallback: number) => {
    const v = headers.get(name);
    return v === null || v === '' || Number.isNaN(Number(v)) ? fallback : Number(v);
  };
  const next = num('X-Next-Page', 0);
  const prev = num('X-Prev-Page', 0);
  // A paged answer without X-Total is a list past the server's count limit.
  const counted = headers.get('X-Total') !== null || headers.get('X-Page') === null;
  return {
    total: counted ? num('X-Total', 0) : null,
    totalPages: counted ? num('X-Total-Pages', 1) : null,
    page: num('X-Page', 1),
    perPage: num('X-Per-Page', 20),
    nextPage: next || null,
    prevPage: prev || null,
  };
}

/**
 * What a write says when it fails. Every mutation gets an error toast (MutationCache in
 * main.tsx) unless the screen shows that error itself.
 */
export type MutationMeta = {
  /** The toast's title, e.g. "Push rules were not saved". */
  errorTitle?: string;
  /** What a 403 means here, when the screen knows which role is missing. */
  forbidden?: string;
  /** Errors the screen shows itself (a form putting a 400 under its fields): no toast for them. */
  showsError?: (error: ApiError) => boolean;
};

/** Options every mutation hook of web/src/api takes from its screen. */
export interface MutationOptions {
  meta?: MutationMeta;
}

declare module '@tanstack/react-query' {
  interface Register {
    // Every query and mutation of the console goes through this client.
    defaultError: ApiError;
    mutationMeta: MutationMeta;
  }
}
