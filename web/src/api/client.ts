/**
 * The console's one fetch client. The browser holds no API credential: calls ride on the
 * httpOnly session cookie, and every write echoes the session's CSRF token, which is kept in
 * memory only (it is re-read from GET /api/console/session after a reload).
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

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  query?: Record<string, string | number | boolean | undefined | null>;
  /** A plain value is sent as JSON; FormData as multipart. */
  body?: unknown;
  signal?: AbortSignal;
  /** A 401 is an expected answer here (sign-in, "am I signed in?"): do not redirect. */
  allowUnauthorized?: boolean;
}

export interface ApiResponse<T> {
  data: T;
  headers: Headers;
}

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

export async function request<T>(path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
  const method = opts.method ?? 'GET';
  const url = new URL(path, window.location.origin);
  for (const [k, v] of Object.entries(opts.query ?? {})) {
    if (v !== undefined && v !== null && v !== '') url.searchParams.set(k, String(v));
  }
  const headers: Record<string, string> = { Accept: 'application/json' };
  let body: BodyInit | undefined;
  if (opts.body instanceof FormData) body = opts.body;
  else if (opts.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  if (method !== 'GET' && csrfToken) headers['X-CSRF-Token'] = csrfToken;

  let res: Response;
  try {
    res = await fetch(url, { method, headers, body, credentials: 'same-origin', signal: opts.signal });
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e;
    throw new ApiError(0, 'The server could not be reached. Check your connection and try again.');
  }
  const text = res.status === 204 ? '' : await res.text();
  let parsed: unknown = null;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = null;
    }
  }
  if (!res.ok) {
    const error = errorFrom(res.status, parsed, res.statusText, res.headers);
    if (res.status === 401 && !opts.allowUnauthorized) onUnauthorized();
    throw error;
  }
  return { data: parsed as T, headers: res.headers };
}

export const api = {
  get: <T>(path: string, opts?: Omit<RequestOptions, 'method' | 'body'>) => request<T>(path, { ...opts, method: 'GET' }).then((r) => r.data),
  put: <T>(path: string, body: unknown, opts?: Omit<RequestOptions, 'method' | 'body'>) =>
    request<T>(path, { ...opts, method: 'PUT', body }).then((r) => r.data),
  post: <T>(path: string, body: unknown, opts?: Omit<RequestOptions, 'method' | 'body'>) =>
    request<T>(path, { ...opts, method: 'POST', body }).then((r) => r.data),
  delete: <T>(path: string, opts?: Omit<RequestOptions, 'method' | 'body'>) => request<T>(path, { ...opts, method: 'DELETE' }).then((r) => r.data),
};

/** Pagination headers of the platform's offset pagination. */
export interface PageInfo {
  total: number;
  totalPages: number;
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
  return {
    total: num('X-Total', 0),
    totalPages: num('X-Total-Pages', 1),
    page: num('X-Page', 1),
    perPage: num('X-Per-Page', 20),
    nextPage: next || null,
    prevPage: prev || null,
  };
}

declare module '@tanstack/react-query' {
  interface Register {
    // Every query and mutation of the console goes through this client.
    defaultError: ApiError;
  }
}
