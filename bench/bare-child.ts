/**
 * Baselines for bench/run.ts, each in its own process like the Gatehouse server:
 * `node --import tsx bench/bare-child.ts http|express` answers GET / with a small JSON body
 * (Express also POST /envelope, reading the body whole)
 * and reports `@@bench {"url": ...}` on stdout once it listens. It stops on SIGTERM or when
 * its stdin closes.
 */
import http from 'node:http';
import express from 'express';

const kind = process.argv[2];
const BODY = { id: 1, name: 'bench' };

function bareHttp(): http.Server {
  return http.createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/') {
      const body = JSON.stringify(BODY);
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
    } else {
      res.writeHead(404).end();
    }
  });
}

function bareExpress(): http.Server {
  const app = express();
  app.get('/', (_req, res) => {
    res.json(BODY);
  });
  // The error tracking bench's baseline: a body read whole, and an empty JSON answer (bench/error-tracking.ts).
  app.post('/envelope', express.raw({ type: () => true, limit: '1mb' }), (_req, res) => {
    res.json({});
  });
  return http.createServer(app);
}

if (kind !== 'http' && kind !== 'express') {
  console.error('usage: bare-child.ts http|express');
  process.exit(2);
}
const server = kind === 'http' ? bareHttp() : bareExpress();
// Same keep-alive setting as the Gatehouse server (bff/src/server.ts).
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`@@bench ${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
});

const shutdown = () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
process.stdin.on('end', shutdown);
process.stdin.resume();
