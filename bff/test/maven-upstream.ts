import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';

/**
 * Another system, standing for a Maven repository: a loopback HTTP server that serves the files
 * of a directory behind HTTP Basic, and records every request it receives (so a test can check
 * what reached it, and that a caller's token never did). The first segment of a path chooses
 * how it behaves, so one server stands for several upstreams:
 *
 * - `/maven/<file>`: the file, or 404; 401 without the right credentials; an ETag, and 304 for it.
 *   Any user name that starts with the given one will do with the password.
 * - `/slow/<file>`: the same after 300 ms (requests for one file then overlap).
 * - `/chunked/<file>`: the same without a Content-Length.
 * - `/forbidden/…`: 403. `/broken/…`: 503. `/empty/…`: 404 (a repository without the file).
 * - `/stall/<file>`: the headers and half the file, then nothing more.
 */
export interface Received {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
}

export interface MavenUpstream {
  url: string;
  port: number;
  received: Received[];
  /** GET requests that reached it for this path (`/maven/com/x/a.jar`). */
  fetches(p: string): number;
  close(): Promise<void>;
}

export async function startMavenUpstream(opts: { root: string; username: string; password: string; port?: number }): Promise<MavenUpstream> {
  const received: Received[] = [];
  // The password, under the user name or any user name that starts with it (so that one server
  // stands for several upstreams of one group, which must differ in URL or credentials).
  const authorised = (header: string | undefined) => {
    const [user, ...secret] = Buffer.from(/^Basic (.+)$/.exec(header ?? '')?.[1] ?? '', 'base64').toString('utf8').split(':');
    return user.startsWith(opts.username) && secret.join(':') === opts.password;
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://upstream');
    received.push({ method: req.method ?? 'GET', path: url.pathname, headers: req.headers });
    const [, mode, ...rest] = decodeURIComponent(url.pathname).split('/');
    if (!authorised(req.headers.authorization)) {
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="upstream"' }).end();
      return;
    }
    if (mode === 'forbidden') return void res.writeHead(403).end();
    if (mode === 'broken') return void res.writeHead(503).end();
    if (mode === 'empty') return void res.writeHead(404).end();
    const file = path.join(opts.root, ...rest);
    if (rest.some((s) => s === '..') || !fs.existsSync(file) || !fs.statSync(file).isFile()) return void res.writeHead(404).end();
    const bytes = fs.readFileSync(file);
    const etag = `"${crypto.createHash('md5').update(bytes).digest('hex')}"`;
    const send = () => {
      if (req.headers['if-none-match'] === etag) return void res.writeHead(304, { ETag: etag }).end();
      const type = file.endsWith('.pom') ? 'text/xml' : file.endsWith('.jar') ? 'application/java-archive' : 'application/octet-stream';
      if (mode === 'stall') {
        res.writeHead(200, { 'Content-Type': type, 'Content-Length': String(bytes.length), ETag: etag });
        res.write(bytes.subarray(0, bytes.length >> 1));
        return;
      }
      const headers: Record<string, string> = { 'Content-Type': type, ETag: etag };
      if (mode !== 'chunked') headers['Content-Length'] = String(bytes.length);
      res.writeHead(200, headers);
      res.end(req.method === 'HEAD' ? undefined : bytes);
    };
    if (mode === 'slow') setTimeout(send, 300);
    else send();
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    fetches: (p) => received.filter((r) => r.method === 'GET' && r.path === p).length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
