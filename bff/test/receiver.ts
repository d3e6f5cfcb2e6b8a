import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A real HTTP receiver on 127.0.0.1 for webhook deliveries: records what arrives, answers as told. */
export interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  json: any;
}

export interface Receiver {
  url: string;
  requests: Received[];
  /** Status (and optional delay) of the next answers; default 200. */
  respond: (status: number, opts?: { delayMs?: number; body?: string; headers?: Record<string, string> }) => void;
  waitFor: (count: number, timeoutMs?: number) => Promise<Received[]>;
  /**
   * Answers wait (held) until release() from the moment the `count`th request (of those
   * recorded) arrives, in the same turn: what is on its way then stays on its way.
   */
  holdFrom: (count: number) => void;
  release: () => void;
  close: () => Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const requests: Received[] = [];
  let held: (() => void)[] | undefined;
  let holdAt = Infinity;
  let answer = { status: 200, delayMs: 0, body: '{"ok":true}', headers: { 'Content-Type': 'application/json', 'X-Receiver': 'test' } as Record<string, string> };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        parsed = undefined;
      }
      const { status, delayMs, body: out, headers } = answer;
      requests.push({ method: req.method!, url: req.url!, headers: req.headers, body, json: parsed });
      if (requests.length >= holdAt) held ??= [];
      const send = () => {
        if (!res.destroyed) res.writeHead(status, headers).end(out);
      };
      setTimeout(() => (held ? held.push(send) : send()), delayMs);
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    respond(status, opts = {}) {
      answer = { status, delayMs: opts.delayMs ?? 0, body: opts.body ?? answer.body, headers: { ...answer.headers, ...(opts.headers ?? {}) } };
    },
    async waitFor(count, timeoutMs = 8000) {
      const until = Date.now() + timeoutMs;
      while (requests.length < count) {
        if (Date.now() > until) throw new Error(`expected ${count} deliveries, got ${requests.length}`);
        await new Promise((r) => setTimeout(r, 25));
      }
      return requests;
    },
    holdFrom(count) {
      holdAt = count;
    },
    release() {
      const waiting = held ?? [];
      held = undefined;
      holdAt = Infinity;
      for (const send of waiting) send();
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** The headers a receiver written for the platform reads: its own names, nothing of the spec's. */
const PLATFORM_HEADERS = ['x-gitlab-event', 'x-gitlab-token', 'x-gitlab-instance', 'x-gitlab-webhook-uuid', 'x-gitlab-event-uuid', 'idempotency-key'] as const;
type PlatformHeaders = Partial<Record<(typeof PLATFORM_HEADERS)[number], string>>;
const KNOWN_EVENTS = /^(Push|Tag Push|Issue|Confidential Issue|Note|Confidential Note|Merge Request|Wiki Page|Pipeline|Job|Repository Update|Deployment|Feature Flag|Release|Emoji|Resource Access Token|Member|Subgroup|Project|Vulnerability|Milestone) Hook$/;

/** A delivery a platform-style receiver accepted (or refused, with the reason). */
export interface PlatformDelivery {
  headers: PlatformHeaders;
  accepted: boolean;
  reason?: string;
  /** Already seen under this X-Gitlab-Event-UUID and Idempotency-Key: a resend or a retry. */
  duplicate: boolean;
  json: any;
}

export interface PlatformReceiver {
  url: string;
  deliveries: PlatformDelivery[];
  waitFor: (count: number, timeoutMs?: number) => Promise<PlatformDelivery[]>;
  close: () => Promise<void>;
}

/**
 * A real HTTP receiver on 127.0.0.1 written the way receivers for the platform are (a CI
 * server's plugin, a chat bot): it reads ONLY the platform's header names — `X-Gitlab-Event`
 * must name a known hook, `X-Gitlab-Token` must equal its secret (compared in constant time),
 * the event and webhook UUIDs and the Idempotency-Key must be there — and answers 401 or 400
 * otherwise, as such a receiver refuses a delivery it cannot verify.
 */
export async function startPlatformReceiver(secret: string): Promise<PlatformReceiver> {
  const deliveries: PlatformDelivery[] = [];
  const seen = new Set<string>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const headers: PlatformHeaders = {};
      for (const name of PLATFORM_HEADERS) {
        const value = req.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      let json: unknown;
      try {
        json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        json = undefined;
      }
      const token = Buffer.from(headers['x-gitlab-token'] ?? '');
      const expected = Buffer.from(secret);
      let reason: string | undefined;
      if (token.length !== expected.length || !crypto.timingSafeEqual(token, expected)) reason = 'invalid X-Gitlab-Token';
      else if (!KNOWN_EVENTS.test(headers['x-gitlab-event'] ?? '')) reason = `unknown X-Gitlab-Event ${headers['x-gitlab-event']}`;
      else if (!headers['x-gitlab-event-uuid'] || !headers['x-gitlab-webhook-uuid'] || !headers['idempotency-key'] || !headers['x-gitlab-instance']) reason = 'missing delivery identifiers';
      else if (json === undefined) reason = 'body is not JSON';
      const key = `${headers['x-gitlab-event-uuid']} ${headers['idempotency-key']}`;
      const duplicate = !reason && seen.has(key);
      if (!reason) seen.add(key);
      deliveries.push({ headers, accepted: !reason, reason, duplicate, json });
      const status = reason === 'invalid X-Gitlab-Token' ? 401 : reason ? 400 : 200;
      res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(reason ? { message: reason } : { status: duplicate ? 'duplicate' : 'accepted' }));
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    deliveries,
    async waitFor(count, timeoutMs = 8000) {
      const until = Date.now() + timeoutMs;
      while (deliveries.length < count) {
        if (Date.now() > until) throw new Error(`expected ${count} deliveries, got ${deliveries.length}`);
        await new Promise((r) => setTimeout(r, 25));
      }
      return deliveries;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
