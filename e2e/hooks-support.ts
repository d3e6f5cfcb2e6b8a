import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page, Request } from '@playwright/test';

/** What e2e/hooks.spec.ts needs besides the fixtures: a record of the console's hook requests, and a real HTTP receiver. */

/** Records the console's requests to the hooks API (not page loads, whose paths may say "hooks" too). */
export function recordHookRequests(page: Page): Request[] {
  const seen: Request[] = [];
  page.on('request', (r) => {
    if (/\/api\/v4\/(groups|projects)\/[^/]+\/hooks(\/|\?|$)/.test(r.url())) seen.push(r);
  });
  return seen;
}

export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A real HTTP receiver on 127.0.0.1 in the test process: it records every request and answers with the status the test sets. */
export class Receiver {
  status = 200;
  readonly requests: Received[] = [];
  port = 0;
  private server: http.Server | null = null;

  async start() {
    this.server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        this.requests.push({ path: req.url ?? '', headers: req.headers, body });
        const status = this.status;
        res.writeHead(status, { 'Content-Type': 'application/json', 'X-Receiver': 'e2e' });
        res.end(JSON.stringify({ ok: status < 300, answered: status }));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async stop() {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  byEvent(event: string) {
    return this.requests.filter((r) => r.headers['x-service-event'] === event);
  }
}
