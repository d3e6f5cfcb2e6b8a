import net from 'node:net';
import type { Readable } from 'node:stream';
import { Agent, request } from 'undici';
import { BlockedRequestError, checkHost, guardedLookup } from './guard.ts';

/**
 * Outbound GET and HEAD to a package repository (virtual registries' upstreams), and POST to
 * the AI gateway (code suggestions, never redirected), on the main
 * thread since the body is streamed on to a caller and the file store. The same guard as
 * webhooks' (guard.ts): at connect time, so a name cannot re-resolve somewhere internal, and
 * on every redirect. `timeoutMs` bounds the connection, the wait for the headers, and every
 * pause between two pieces of the body, so a stalled upstream frees its caller.
 * Loaded on first use (it brings the HTTP client, about 0.25 s of CPU).
 */
const agents = new Map<string, Agent>();
function agentFor(allowLocal: boolean, timeoutMs: number): Agent {
  const key = `${allowLocal}:${timeoutMs}`;
  let agent = agents.get(key);
  if (!agent) {
    agent = new Agent({
      connect: { lookup: guardedLookup(allowLocal) as never, timeout: timeoutMs },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      keepAliveTimeout: 4_000,
    });
    agents.set(key, agent);
  }
  return agent;
}

export interface UpstreamCall {
  url: string;
  method: 'GET' | 'HEAD' | 'POST';
  /** A POST's body (sent as it is: give its Content-Type in `headers`). */
  body?: string;
  /** Sent to the URL's own origin only (credentials never follow a redirect elsewhere). */
  authorization?: string;
  headers?: Record<string, string>;
  allowLocal: boolean;
  timeoutMs: number;
  maxRedirects?: number;
}

export interface UpstreamAnswer {
  status: number;
  headers: Record<string, string>;
  /** The body as it arrives: read it or `dump` it. */
  body: Readable & { dump(): Promise<void> };
}

/** No HTTP answer could be had: refused by the guard, timed out, or the network failed. */
export class UpstreamUnreachable extends Error {
  constructor(
    message: string,
    readonly timedOut: boolean,
  ) {
    super(message);
  }
}

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** Why a request or a body failed, in words; a timeout is said so. */
export function unreachable(e: unknown): UpstreamUnreachable {
  if (e instanceof UpstreamUnreachable) return e;
  const err = e as Error & { code?: string; cause?: Error & { code?: string } };
  const blocked = err instanceof BlockedRequestError ? err : err?.cause instanceof BlockedRequestError ? err.cause : undefined;
  if (blocked) return new UpstreamUnreachable(blocked.message, false);
  if (TIMEOUT_CODES.has(err?.code ?? '') || err?.name === 'TimeoutError') return new UpstreamUnreachable('Connection timeout', true);
  return new UpstreamUnreachable(`${err?.cause?.code ?? err?.code ?? err?.name ?? 'Error'}: ${err?.cause?.message ?? err?.message ?? String(e)}`, false);
}

/** Throws UpstreamUnreachable when no HTTP answer came; any status is an answer. */
export async function upstreamRequest(call: UpstreamCall): Promise<UpstreamAnswer> {
  let target = new URL(call.url);
  const origin = target.origin;
  try {
    for (let hop = 0; ; hop++) {
      if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new BlockedRequestError(`redirect to ${target.protocol} refused`);
      // IP literals are never looked up, so they are checked here; names are checked at connect.
      if (net.isIP(target.hostname.replace(/^\[|\]$/g, '')) || /localhost$/i.test(target.hostname)) await checkHost(target.hostname, call.allowLocal);
      // The bytes as the upstream keeps them (the client decodes no compression), so they are the file's.
      const headers: Record<string, string> = { 'User-Agent': 'Gatehouse', 'Accept-Encoding': 'identity', ...(call.headers ?? {}) };
      if (call.authorization && target.origin === origin) headers.Authorization = call.authorization;
      const res = await request(target, { method: call.method, headers, body: call.body, dispatcher: agentFor(call.allowLocal, call.timeoutMs) });
      const location = res.headers.location;
      // A POST is never sent on elsewhere: its redirect is answered as it is.
      if (call.method !== 'POST' && res.statusCode >= 300 && res.statusCode < 400 && res.statusCode !== 304 && typeof location === 'string' && hop < (call.maxRedirects ?? 3)) {
        await res.body.dump();
        target = new URL(location, target);
        continue;
      }
      const flat: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) flat[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
      return { status: res.statusCode, headers: flat, body: res.body as unknown as UpstreamAnswer['body'] };
    }
  } catch (e) {
    throw unreachable(e);
  }
}

/** Basic authentication of an upstream's credentials. */
export const basicAuthorization = (username: string, password: string) => `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
