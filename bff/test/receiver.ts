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
  close: () => Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const requests: Received[] = [];
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
      setTimeout(() => {
        if (!res.destroyed) res.writeHead(status, headers).end(out);
      }, delayMs);
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
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
