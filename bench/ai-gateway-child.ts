/**
 * The AI gateway double of bench/code-suggestions.ts, in its own process (`node --import tsx
 * bench/ai-gateway-child.ts`): a bare `node:http` server on 127.0.0.1 that answers every POST to
 * `/v2/code/completions` at once, once the request body has arrived and parsed as JSON, with a
 * completion in the shape the platform's gateway answers. The AI gateway itself cannot run here
 * (it needs a model); this stands in for it and counts what it received.
 *
 *   POST /v2/code/completions  a completion (200), or 400 for a body that is not JSON
 *   GET  /stats                {"completions": N, "refused": N} since the start
 *
 * Reports `@@bench {"url": ...}` on stdout once it listens and stops on SIGTERM or when its
 * stdin closes.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface AiGatewayChildReady {
  url: string;
}
export interface AiGatewayStats {
  completions: number;
  refused: number;
}

const stats: AiGatewayStats = { completions: 0, refused: 0 };
const ANSWER = JSON.stringify({
  id: 'bench',
  model: { engine: 'double', name: 'bench-double', lang: 'typescript' },
  object: 'text_completion',
  created: 1_700_000_000,
  choices: [{ text: 'return a + b;', index: 0, finish_reason: 'length' }],
});

const server = http.createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/stats') {
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(stats));
    return;
  }
  let raw = '';
  req.setEncoding('utf8');
  req.on('data', (c: string) => (raw += c));
  req.on('end', () => {
    try {
      JSON.parse(raw);
    } catch {
      stats.refused++;
      res.writeHead(400, { 'Content-Type': 'application/json' }).end('{"detail":"not JSON"}');
      return;
    }
    stats.completions++;
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(ANSWER);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const ready: AiGatewayChildReady = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  console.log(`@@bench ${JSON.stringify(ready)}`);
});
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.stdin.on('end', stop);
process.stdin.resume();
