import crypto from 'node:crypto';
import { badRequest } from '../../util/errors.ts';

/**
 * What the collector reads of the bodies Sentry SDKs send: an envelope (a header line, then
 * items, each a header line and a payload of `length` bytes or up to the next newline) or a
 * store body (one event as JSON). Pure: bytes in, plain values out; anything that cannot be
 * read is a 400 for the sender.
 */

/** A frame as kept: what the stack trace shows, bounded. */
export interface Frame {
  filename: string | null;
  function: string | null;
  module: string | null;
  lineNo: number | null;
  colNo: number | null;
  context: [number, string][];
  inApp: boolean | null;
}

export interface EventUser {
  id: string | null;
  username: string | null;
  email: string | null;
  ip_address: string | null;
}

/** One error or message event, normalised. */
export interface IncomingEvent {
  eventId: string;
  occurredAt: string | null;
  platform: string | null;
  level: string | null;
  environment: string | null;
  /** The exception's type, or '' for a message event. */
  name: string;
  description: string;
  culprit: string;
  frames: Frame[];
  user: EventUser | null;
  /** sha256 of what groups it with others (see fingerprintOf). */
  fingerprint: string;
}

export interface SessionUpdate {
  status: string;
  count: number;
}

export interface Parsed {
  events: IncomingEvent[];
  sessions: SessionUpdate[];
}

const MAX_FRAMES = 100;
const MAX_TEXT = 2_000;
const MAX_CONTEXT_LINES = 5;
const MAX_ITEMS = 100;
const TOP_FRAMES = 5;

const text = (v: unknown, max = MAX_TEXT): string | null => {
  if (typeof v === 'string') return v.slice(0, max);
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return null;
};
const int = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) && Math.abs(v) < 2 ** 31 ? v : null);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function readJson(bytes: Buffer | string, what: string): unknown {
  try {
    return JSON.parse(typeof bytes === 'string' ? bytes : bytes.toString('utf8'));
  } catch {
    throw badRequest(`400 Bad request - ${what} is not valid JSON`);
  }
}

/** An envelope's items of interest: events (exceptions, messages) and session updates; other items are accepted and dropped. */
export function parseEnvelope(body: Buffer): Parsed {
  let pos = 0;
  const line = (): Buffer => {
    const nl = body.indexOf(10, pos);
    const end = nl < 0 ? body.length : nl;
    const out = body.subarray(pos, end);
    pos = end + 1;
    return out;
  };
  const header = readJson(line(), 'the envelope header');
  if (!isObject(header)) throw badRequest('400 Bad request - the envelope header is not an object');
  const parsed: Parsed = { events: [], sessions: [] };
  let items = 0;
  while (pos < body.length) {
    const headerLine = line();
    if (headerLine.length === 0 || (headerLine.length === 1 && headerLine[0] === 13)) continue;
    if (++items > MAX_ITEMS) throw badRequest('400 Bad request - too many envelope items');
    const itemHeader = readJson(headerLine, 'an envelope item header');
    if (!isObject(itemHeader) || typeof itemHeader.type !== 'string') throw badRequest('400 Bad request - an envelope item has no type');
    let payload: Buffer;
    if (itemHeader.length !== undefined) {
      const length = int(itemHeader.length);
      if (length === null || length < 0 || pos + length > body.length) throw badRequest('400 Bad request - an envelope item is shorter than its length');
      payload = body.subarray(pos, pos + length);
      pos += length;
      if (body[pos] === 10) pos++;
    } else {
      payload = line();
    }
    if (itemHeader.type === 'event') parsed.events.push(readEvent(readJson(payload, 'an event')));
    else if (itemHeader.type === 'session') parsed.sessions.push(readSession(readJson(payload, 'a session')));
    else if (itemHeader.type === 'sessions') parsed.sessions.push(...readSessionAggregates(readJson(payload, 'sessions')));
  }
  return parsed;
}

/** A store body: one event. */
export function parseStore(body: Buffer): Parsed {
  return { events: [readEvent(readJson(body, 'the event'))], sessions: [] };
}

function readSession(v: unknown): SessionUpdate {
  if (!isObject(v)) throw badRequest('400 Bad request - a session is not an object');
  return { status: text(v.status, 20) ?? 'ok', count: 1 };
}

/** Pre-aggregated sessions (`{"aggregates": [{"started", "exited": 3, "errored": 1}]}`), counted by status. */
function readSessionAggregates(v: unknown): SessionUpdate[] {
  if (!isObject(v) || !Array.isArray(v.aggregates)) throw badRequest('400 Bad request - sessions carry no aggregates');
  const out: SessionUpdate[] = [];
  for (const a of v.aggregates.slice(0, MAX_ITEMS)) {
    if (!isObject(a)) continue;
    for (const status of ['exited', 'errored', 'abnormal', 'crashed']) {
      const n = int(a[status]);
      if (n && n > 0) out.push({ status, count: n });
    }
  }
  return out;
}

function readFrames(v: unknown): Frame[] {
  const frames = isObject(v) && Array.isArray(v.frames) ? v.frames : [];
  // The innermost frames are last: those are kept when there are too many.
  return frames.slice(-MAX_FRAMES).filter(isObject).map((f) => {
    const lineNo = int(f.lineno);
    const pre = Array.isArray(f.pre_context) ? f.pre_context.slice(-MAX_CONTEXT_LINES) : [];
    const post = Array.isArray(f.post_context) ? f.post_context.slice(0, MAX_CONTEXT_LINES) : [];
    const context: [number, string][] = [];
    if (lineNo !== null && typeof f.context_line === 'string') {
      pre.forEach((l, i) => context.push([lineNo - pre.length + i, text(l, 500) ?? '']));
      context.push([lineNo, f.context_line.slice(0, 500)]);
      post.forEach((l, i) => context.push([lineNo + 1 + i, text(l, 500) ?? '']));
    }
    return {
      filename: text(f.filename) ?? text(f.abs_path),
      function: text(f.function, 500),
      module: text(f.module, 500),
      lineNo,
      colNo: int(f.colno),
      context,
      inApp: typeof f.in_app === 'boolean' ? f.in_app : null,
    };
  });
}

function messageOf(e: Record<string, unknown>): string | null {
  for (const m of [e.message, e.logentry]) {
    if (typeof m === 'string') return m.slice(0, MAX_TEXT);
    if (isObject(m)) {
      const t = text(m.formatted) ?? text(m.message);
      if (t !== null) return t;
    }
  }
  return null;
}

function userOf(v: unknown): EventUser | null {
  if (!isObject(v)) return null;
  const u = { id: text(v.id, 255), username: text(v.username, 255), email: text(v.email, 255), ip_address: text(v.ip_address, 64) };
  return u.id ?? u.username ?? u.email ?? u.ip_address ? u : null;
}

/**
 * An event as the SDKs send it (exception or message): an exception's primary value is the
 * last of `exception.values` (the one raised; earlier ones are its causes).
 */
export function readEvent(v: unknown): IncomingEvent {
  if (!isObject(v)) throw badRequest('400 Bad request - an event is not an object');
  const values = isObject(v.exception) && Array.isArray(v.exception.values) ? v.exception.values : Array.isArray(v.exception) ? v.exception : [];
  const exception = [...values].reverse().find(isObject);
  const message = messageOf(v);
  if (!exception && message === null) throw badRequest('400 Bad request - the event has neither an exception nor a message');
  const frames = exception ? readFrames(exception.stacktrace) : readFrames(v.stacktrace);
  // A message with a stack trace attached comes as an exception without a type: still a message.
  const name = exception ? (text(exception.type, 255) ?? (message !== null ? '' : 'Error')) : '';
  const description = exception ? (text(exception.value) ?? message ?? '') : message!;
  const top = frames.at(-1);
  const culprit = text(v.transaction, 255) ?? text(v.culprit, 255) ?? (top ? `${top.function ?? '?'}(${top.module ?? top.filename ?? '?'})` : '');
  const timestamp = typeof v.timestamp === 'number' ? new Date(v.timestamp * 1000) : typeof v.timestamp === 'string' ? new Date(v.timestamp) : null;
  const eventId = text(v.event_id, 64) ?? crypto.randomUUID().replace(/-/g, '');
  return {
    eventId,
    occurredAt: timestamp && !Number.isNaN(timestamp.getTime()) && timestamp.getUTCFullYear() > 2000 && timestamp.getUTCFullYear() < 3000 ? timestamp.toISOString() : null,
    platform: text(v.platform, 64),
    level: text(v.level, 32),
    environment: text(v.environment, 255),
    name,
    description,
    culprit,
    frames,
    user: userOf(v.user),
    fingerprint: fingerprintOf(v.fingerprint, exception ? ['exception', name, description, ...topFrames(frames)] : ['message', description]),
  };
}

/** The frames that group an exception: its innermost few, of the application's own code where it marks any. */
function topFrames(frames: Frame[]): string[] {
  const own = frames.filter((f) => f.inApp === true);
  return (own.length ? own : frames).slice(-TOP_FRAMES).map((f) => `${f.module ?? f.filename ?? ''}:${f.function ?? ''}`);
}

/** The SDK's fingerprint where it gives one (`{{ default }}` standing for ours), else ours. */
function fingerprintOf(given: unknown, defaults: string[]): string {
  let parts = defaults;
  if (Array.isArray(given) && given.length && given.every((p) => typeof p === 'string' || typeof p === 'number')) {
    parts = given.slice(0, 50).flatMap((p) => (/^\{\{\s*default\s*\}\}$/.test(String(p)) ? defaults : [`sdk:${String(p).slice(0, 500)}`]));
  }
  return crypto.createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

/** Who the event reached: its first identity of id, username, email or IP address (an SDK's `{{auto}}` IP is the sender's). */
export function identityOf(user: EventUser | null, senderIp: string | undefined): string | null {
  if (!user) return null;
  if (user.id) return `id:${user.id}`;
  if (user.username) return `username:${user.username}`;
  if (user.email) return `email:${user.email.toLowerCase()}`;
  const ip = user.ip_address === '{{auto}}' ? senderIp : user.ip_address;
  return ip ? `ip:${ip}` : null;
}
