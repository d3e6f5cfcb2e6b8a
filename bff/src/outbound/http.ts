import dns from 'node:dns';
import net from 'node:net';
import { EventEmitter } from 'node:events';
import type { Readable } from 'node:stream';
import ipaddr from 'ipaddr.js';
import type { Agent } from 'undici';

/**
 * Outbound HTTP for webhooks: a timeout, a cap on what is kept of the response, and a guard
 * that refuses loopback, private, link-local, metadata and other internal addresses after DNS
 * resolution, at connect time (so a name cannot re-resolve somewhere else) and on every
 * redirect, unless the instance allows local requests.
 */
/**
 * Addresses are classified by range with ipaddr.js (IANA special-purpose registries). IPv4 is
 * reachable only in global unicast; IPv6 only in global unicast (2000::/3, minus the special
 * ranges), and an IPv6 form that embeds an IPv4 address (mapped, SIIT, NAT64, 6to4, Teredo) is
 * judged by the IPv4 address it leads to.
 */
function ipv4Reachable(v4: ipaddr.IPv4): boolean {
  return v4.range() === 'unicast';
}

const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

/** The IPv4 addresses an IPv6 address of an embedding range leads to (Teredo names two). */
function embeddedIpv4(v6: ipaddr.IPv6, range: string): ipaddr.IPv4[] | undefined {
  const b = v6.toByteArray();
  const v4 = (bytes: number[]) => new ipaddr.IPv4(bytes);
  switch (range) {
    case 'ipv4Mapped':
    case 'rfc6145':
    case 'rfc6052':
      return [v4(b.slice(12, 16))];
    case '6to4':
      return [v4(b.slice(2, 6))];
    case 'teredo':
      // Server at bits 32–63; client at the last 32 bits, inverted.
      return [v4(b.slice(4, 8)), v4(b.slice(12, 16).map((x) => x ^ 0xff))];
    default:
      return undefined;
  }
}

/** Whether an address must not be reached (anything that is not an IP address counts as internal). */
export function isInternalAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return !ipv4Reachable(ipaddr.IPv4.parse(address));
  if (family !== 6) return true;
  // Canonical hex form first: ipaddr.js reads any dotted tail (`::8.8.8.8`) as IPv4-mapped.
  const v6 = ipaddr.IPv6.parse(new URL(`http://[${address.replace(/%.*$/, '')}]/`).hostname.slice(1, -1));
  const range = v6.range();
  const embedded = embeddedIpv4(v6, range);
  if (embedded) return !embedded.every(ipv4Reachable);
  return range !== 'unicast' || !v6.match(GLOBAL_UNICAST);
}

export class BlockedRequestError extends Error {}

/** Resolves a host and refuses it when any of its addresses is internal. */
export async function checkHost(hostname: string, allowLocal: boolean): Promise<void> {
  if (allowLocal) return;
  const host = hostname.replace(/^\[|\]$/g, '');
  if (/^localhost$|\.localhost$/i.test(host)) throw new BlockedRequestError('Requests to localhost are not allowed');
  const addresses = net.isIP(host) ? [host] : (await dns.promises.lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  const internal = addresses.find(isInternalAddress);
  if (internal) throw new BlockedRequestError(`Requests to the local network are not allowed (${host} resolves to ${internal})`);
}

/** Validation at configuration time: a well-formed http(s) URL whose host may be reached. */
export async function checkUrl(raw: string, allowLocal: boolean): Promise<void> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new BlockedRequestError('is not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new BlockedRequestError('must use http or https');
  try {
    await checkHost(url.hostname, allowLocal);
  } catch (e) {
    if (e instanceof BlockedRequestError) throw e;
    throw new BlockedRequestError(`host ${url.hostname} cannot be resolved`);
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

function guardedLookup(allowLocal: boolean) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => {
    dns.lookup(hostname, { ...options, all: true, verbatim: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const list = addresses as dns.LookupAddress[];
      const bad = !allowLocal && list.find((a) => isInternalAddress(a.address));
      if (bad) return callback(Object.assign(new BlockedRequestError(`Requests to the local network are not allowed (${hostname} resolves to ${bad.address})`), { code: 'EBLOCKED' }), []);
      if (options.all) return callback(null, list);
      callback(null, list[0].address, list[0].family);
    });
  };
}

/** undici (about 0.25 s of CPU to load) comes with the first outbound request, not with every server's start. */
let undici: Promise<typeof import('undici')> | undefined;
const loadUndici = () => (undici ??= import('undici'));

const agents = new Map<string, Agent>();
function agentFor({ Agent }: typeof import('undici'), verifyTls: boolean, allowLocal: boolean, timeoutMs: number): Agent {
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
    const client = await loadUndici();
    // Credentials written into the URL are sent as Basic authentication (the HTTP client would
    // drop them), and only to the URL's own origin, never after a redirect elsewhere.
    const { url: first, origin, authorization } = splitCredentials(opts.url);
    let target = first;
    for (let hop = 0; ; hop++) {
      if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new BlockedRequestError(`redirect to ${target.protocol} refused`);
      const basic = authorization && target.origin === origin && !Object.keys(opts.headers).some((h) => h.toLowerCase() === 'authorization') ? { Authorization: authorization } : {};
      // IP literals are never looked up, so they are checked here; names are checked at connect.
      if (net.isIP(target.hostname.replace(/^\[|\]$/g, '')) || /localhost$/i.test(target.hostname)) await checkHost(target.hostname, opts.allowLocal);
      const res = await client.request(target, {
        method,
        headers: method === 'POST' ? { ...opts.headers, ...basic } : { 'User-Agent': opts.headers['User-Agent'] ?? 'Gatehouse', ...basic },
        body: method === 'POST' ? opts.body : undefined,
        dispatcher: agentFor(client, opts.verifyTls, opts.allowLocal, opts.timeoutMs),
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
