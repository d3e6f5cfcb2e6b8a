/**
 * The upstream of the virtual registries bench (bench/virtual-registries.ts), in its own process:
 * another system standing for a Maven repository, a plain `node:http` static server of one
 * directory behind HTTP Basic on loopback.
 *
 *   node --import tsx bench/maven-upstream-child.ts <root> <username> <password>
 *
 * - `GET|HEAD /maven/<path>`: the file under <root> (symbolic links followed), streamed with its
 *   Content-Length and a Content-Type by extension; 404 when missing; 401 without the credentials.
 * - `GET /counts` (same credentials): the GET requests of each `/maven/…` path so far, as JSON
 *   `{ "<path>": n }`, so that the bench can tell how often Gatehouse fetched a file.
 *
 * Reports `@@bench {"url": ...}` on stdout once it listens; serves until SIGTERM or until its
 * stdin closes.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { serveUntilParentGoes } from './lib.ts';

export interface UpstreamChildReady {
  url: string;
}

const [root, username, password] = process.argv.slice(2);
if (!root || !username || !password) {
  console.error('usage: maven-upstream-child.ts <root> <username> <password>');
  process.exit(2);
}
const expected = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
const counts = new Map<string, number>();

const TYPES: Record<string, string> = { '.pom': 'text/xml', '.xml': 'text/xml', '.jar': 'application/java-archive', '.sha1': 'text/plain', '.md5': 'text/plain' };

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://upstream');
  if (req.headers.authorization !== expected) return void res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="upstream"' }).end();
  if (req.method === 'GET' && url.pathname === '/counts') {
    const body = JSON.stringify(Object.fromEntries(counts));
    return void res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) }).end(body);
  }
  if ((req.method !== 'GET' && req.method !== 'HEAD') || !url.pathname.startsWith('/maven/')) return void res.writeHead(404).end();
  if (req.method === 'GET') counts.set(url.pathname, (counts.get(url.pathname) ?? 0) + 1);
  const segments = decodeURIComponent(url.pathname).split('/').slice(2);
  if (segments.some((s) => s === '' || s === '.' || s === '..')) return void res.writeHead(404).end();
  const file = path.join(root, ...segments);
  fs.stat(file, (err, stat) => {
    if (err || !stat.isFile()) return void res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'Content-Length': String(stat.size) });
    if (req.method === 'HEAD') return void res.end();
    const stream = fs.createReadStream(file);
    stream.on('error', () => res.destroy());
    stream.pipe(res);
  });
});
// Same keep-alive setting as the Gatehouse server (bff/src/server.ts).
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  const ready: UpstreamChildReady = { url: serveUntilParentGoes({ server, close }) };
  process.stdout.write(`@@bench ${JSON.stringify(ready)}\n`);
});
