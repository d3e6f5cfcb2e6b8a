import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type Page, type Request } from '@playwright/test';

/** What e2e/hooks.spec.ts needs besides the browser: the API as root, a sign-in, and a real HTTP receiver. */

const BASE_URL = process.env.E2E_BASE_URL!;
const ROOT_PASSWORD = process.env.E2E_ROOT_PASSWORD!;
const ROOT_TOKEN = process.env.E2E_ROOT_TOKEN!;

/** Calls the API as root with the token, the way a script would, to set up and to check what the console did. */
export async function apiAsRoot<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<{ status: number; json: T }> {
  const res = await fetch(`${BASE_URL}/api/v4${path}`, {
    method,
    headers: { 'PRIVATE-TOKEN': ROOT_TOKEN, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, json: (text ? JSON.parse(text) : null) as T };
}

export async function signInAt(page: Page, path: string, username = 'root', password = ROOT_PASSWORD) {
  await page.goto(path);
  await page.getByLabel('Username', { exact: true }).fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
}

export async function createUser(prefix: string, suffix: string) {
  const username = `${prefix}-${suffix}`;
  const password = `${prefix}-password-1`;
  const user = await apiAsRoot<{ id: number }>('POST', '/users', { username, name: `${prefix} user`, email: `${username}@example.com`, password });
  expect(user.status).toBe(201);
  return { id: user.json.id, username, password };
}

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
