import net from 'node:net';
import { EventEmitter } from 'node:events';
import type { Readable } from 'node:stream';
import { Agent, request } from 'undici';
import { BlockedRequestError, checkHost, guardedLookup } from './guard.ts';

/**
 * Outbound HTTP for webhooks, run on the sender thread (sender.ts): a timeout, a cap on what is
 * kept of the response, and the guard (guard.ts) at connect time (so a name cannot re-resolve
 * somewhere else) and on every redirect. The API's side checks URLs with guard.ts alone and
 * never loads the HTTP client (undici, about 0.25 s of CPU to load).
 */
const agents = new Map<string, Agent>();
function agentFor(verifyTls: boolean, allowLocal: boolean, timeoutMs: number): Agent {
  const key = `${verifyTls}:${allowLocal}:${timeoutMs}`;
  let agent = agents.get(key);
  if (!agent) {
    agent = new Agent({
      connect: { lookup: guardedLookup(allowLocal) as never, rejectUnauthorized: verifyTls, timeout: timeoutMs },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      keepAliveTimeout: 4_000,
    });
    agents.set(key, agent);
  }
  return agent;
}

export interface OutboundResult {
  status: number | null;
  headers: Record<string, string>;
  body: string;
  durationMs: number;
  /** Why no HTTP status could be had (timeout, refused, blocked, TLS). */
  error?: string;
}

export const RESPONSE_BODY_LIMIT = 64 * 1024;

/**
 * A request's overall deadline. One timer checks every request in flight, and a request is
 * aborted through a plain emitter (undici takes one as its signal): at thousands of
 * deliveries a second, a timer and an AbortSignal per request cost more than the request.
 */
type Deadline = EventEmitter & { at: number; reason?: Error };
const inFlight = new Set<Deadline>();
let sweeper: NodeJS.Timeout | undefined;
const SWEEP_MS = 25;

function deadline(ms: number): Deadline {
  const d: Deadline = Object.assign(new EventEmitter(), { at: performance.now() + ms });
  inFlight.add(d);
  if (!sweeper) {
    sweeper = setInterval(() => {
      const now = performance.now();
      for (const e of inFlight) {
        if (e.at > now) continue;
        inFlight.delete(e);
        e.reason = new DOMException('The operation timed out.', 'TimeoutError');
        e.emit('abort');
      }
      if (!inFlight.size) {
        clearInterval(sweeper);
        sweeper = undefined;
      }
    }, SWEEP_MS);
    sweeper.unref();
  }
  return d;
}

/** One outbound POST: plain data, so that it can be handed to the sender thread (sender.ts). */
export interface OutboundRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  verifyTls: boolean;
  allowLocal: boolean;
  maxRedirects?: number;
}

/** Never throws: a request that gets no HTTP answer has `status: null` and the reason in `error`. */
export async function postJson(opts: OutboundRequest): Promise<OutboundResult> {
  const started = performance.now();
  const signal = deadline(opts.timeoutMs);
  let method: 'POST' | 'GET' = 'POST';
  try {
    // Credentials written into the URL are sent as Basic authentication (the HTTP client would
    // drop them), and only to the URL's own origin, never after a redirect elsewhere.
    const { url: first, origin, authorization } = splitCredentials(opts.url);
    let target = first;
    for (let hop = 0; ; hop++) {
      if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new BlockedRequestError(`redirect to ${target.protocol} refused`);
      const basic = authorization && target.origin === origin && !Object.keys(opts.headers).some((h) => h.toLowerCase() === 'authorization') ? { Authorization: authorization } : {};
      // IP literals are never looked up, so they are checked here; names are checked at connect.
      if (net.isIP(target.hostname.replace(/^\[|\]$/g, '')) || /localhost$/i.test(target.hostname)) await checkHost(target.hostname, opts.allowLocal);
      const res = await request(target, {
        method,
        headers: method === 'POST' ? { ...opts.headers, ...basic } : { 'User-Agent': opts.headers['User-Agent'] ?? 'Gatehouse', ...basic },
        body: method === 'POST' ? opts.body : undefined,
        dispatcher: agentFor(opts.verifyTls, opts.allowLocal, opts.timeoutMs),
        signal,
      });
      const location = res.headers.location;
      if (res.statusCode >= 300 && res.statusCode < 400 && typeof location === 'string' && hop < (opts.maxRedirects ?? 3)) {
        await res.body.dump();
        target = new URL(location, target);
        if (res.statusCode !== 307 && res.statusCode !== 308) method = 'GET';
        continue;
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : String(v);
      const body = await readCapped(res.body, RESPONSE_BODY_LIMIT);
      return { status: res.statusCode, headers, body, durationMs: performance.now() - started };
    }
  } catch (e) {
    const err = e as Error & { code?: string; cause?: Error & { code?: string } };
    const blockedCause = err instanceof BlockedRequestError ? err : err.cause instanceof BlockedRequestError ? err.cause : undefined;
    const message = blockedCause
      ? blockedCause.message
      : err.name === 'TimeoutError' || err.name === 'AbortError' || err.code === 'UND_ERR_HEADERS_TIMEOUT' || err.code === 'UND_ERR_BODY_TIMEOUT'
        ? `Request timed out after ${opts.timeoutMs / 1000} s`
        : `${err.cause?.code ?? err.code ?? err.name}: ${err.cause?.message ?? err.message}`;
    return { status: null, headers: {}, body: '', durationMs: performance.now() - started, error: message };
  } finally {
    inFlight.delete(signal);
  }
}

/** The URL without its user:password@, its origin, and those credentials as a Basic Authorization value. */
function splitCredentials(raw: string): { url: URL; origin: string; authorization?: string } {
  const url = new URL(raw);
  if (!url.username && !url.password) return { url, origin: url.origin };
  const userinfo = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  url.username = '';
  url.password = '';
  return { url, origin: url.origin, authorization: `Basic ${Buffer.from(userinfo).toString('base64')}` };
}

/** The body up to `limit` bytes; the rest is not read (the connection is then closed). */
function readCapped(body: Readable, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => resolve(Buffer.concat(chunks).subarray(0, limit).toString('utf8'));
    body.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= limit) {
        body.destroy();
        done();
      }
    });
    body.on('end', done);
    body.on('error', reject);
  });
}
