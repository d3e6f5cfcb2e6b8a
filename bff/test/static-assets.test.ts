// Runs on SQLite only: the console's files are served from the dist folder; the database holds nothing of them
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { createServer } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { precompress, SCREEN_PRELOADS } from '../src/http/static-assets.ts';
import { startTestServer, type TestServer } from './harness.ts';

/**
 * The built console as the server sends it: a dist folder made here the way the build makes it
 * (files, then `precompress`), served by the real app. Requests go through node:http, which
 * (unlike fetch) hands over the bytes as they travelled, so the encoding is checked, not undone.
 */

const INDEX = `<!doctype html><html lang="en"><head><title>Gatehouse</title></head><body><div id="root"></div>${'<!-- padding -->'.repeat(100)}</body></html>`;
const SCRIPT = `export const screens = [${Array.from({ length: 400 }, (_, i) => `"screen-${i}"`).join(',')}];\n`;
const SMALL_CSS = 'body{margin:0}';
/** What the build lists for two screens (none of the URLs the other tests ask for). */
const PRELOADS = { '/user/access_tokens': ['/assets/small-Ef56Gh78.css', '/assets/main-Ab12Cd34.js'], '/admin/*': ['/assets/main-Ab12Cd34.js'] };

let server: TestServer;
let dist: string;
let app: http.Server;
let base: string;

before(async () => {
  server = await startTestServer();
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-dist-'));
  fs.mkdirSync(path.join(dist, 'assets'));
  fs.writeFileSync(path.join(dist, 'index.html'), INDEX);
  fs.writeFileSync(path.join(dist, 'assets', 'main-Ab12Cd34.js'), SCRIPT);
  fs.writeFileSync(path.join(dist, 'assets', 'main-Ab12Cd34.js.map'), JSON.stringify({ version: 3, sources: [], mappings: 'A'.repeat(4000) }));
  fs.writeFileSync(path.join(dist, 'assets', 'small-Ef56Gh78.css'), SMALL_CSS);
  fs.writeFileSync(path.join(dist, SCREEN_PRELOADS), JSON.stringify(PRELOADS));
  precompress(dist);
  const config = loadConfig({ GATEHOUSE_DATA_DIR: dist, GATEHOUSE_LOG_LEVEL: 'silent' });
  app = createServer({ db: server.running.db, vault: server.running.vault, files: server.running.files, config, logger: pino({ level: 'silent' }), webDist: dist });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
});

after(async () => {
  await new Promise<void>((resolve) => app.close(() => resolve()));
  await server.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

function get(urlPath: string, acceptEncoding?: string, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${urlPath}`, { method, headers: acceptEncoding === undefined ? {} : { 'Accept-Encoding': acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

const IMMUTABLE = 'public, max-age=31536000, immutable';

describe('precompress', () => {
  it('writes brotli and gzip copies of text files from 1 KB, not of source maps or smaller files', () => {
    const assets = fs.readdirSync(path.join(dist, 'assets')).sort();
    assert.deepEqual(assets, ['main-Ab12Cd34.js', 'main-Ab12Cd34.js.br', 'main-Ab12Cd34.js.gz', 'main-Ab12Cd34.js.map', 'small-Ef56Gh78.css']);
    assert.ok(fs.existsSync(path.join(dist, 'index.html.br')) && fs.existsSync(path.join(dist, 'index.html.gz')));
  });
});

describe('GET /assets/<hashed file>', () => {
  it('sends the brotli copy to a browser that takes brotli, cached as immutable for a year', async () => {
    const res = await get('/assets/main-Ab12Cd34.js', 'gzip, deflate, br, zstd');
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-encoding'], 'br');
    assert.equal(zlib.brotliDecompressSync(res.body).toString(), SCRIPT);
    assert.ok(res.body.length < SCRIPT.length / 2);
    assert.equal(Number(res.headers['content-length']), res.body.length);
    assert.match(res.headers['content-type']!, /^text\/javascript|^application\/javascript/);
    assert.equal(res.headers['cache-control'], IMMUTABLE);
    assert.equal(res.headers.vary, 'Accept-Encoding');
    assert.equal(res.headers['accept-ranges'], undefined);
  });

  it('sends the gzip copy to a client that takes gzip only, or prefers it by weight', async () => {
    for (const accept of ['gzip', 'br;q=0.5, gzip']) {
      const res = await get('/assets/main-Ab12Cd34.js', accept);
      assert.equal(res.status, 200, accept);
      assert.equal(res.headers['content-encoding'], 'gzip', accept);
      assert.equal(zlib.gunzipSync(res.body).toString(), SCRIPT, accept);
      assert.equal(res.headers['cache-control'], IMMUTABLE);
      assert.equal(res.headers.vary, 'Accept-Encoding');
    }
  });

  it('sends the file as it is without Accept-Encoding, or when every copy is refused', async () => {
    for (const accept of [undefined, 'identity', 'br;q=0, gzip;q=0', 'deflate']) {
      const res = await get('/assets/main-Ab12Cd34.js', accept);
      assert.equal(res.status, 200, String(accept));
      assert.equal(res.headers['content-encoding'], undefined, String(accept));
      assert.equal(res.body.toString(), SCRIPT, String(accept));
      assert.equal(res.headers['cache-control'], IMMUTABLE);
      assert.equal(res.headers.vary, 'Accept-Encoding');
    }
  });

  it('sends a file too small to compress as it is, whatever the client takes', async () => {
    const res = await get('/assets/small-Ef56Gh78.css', 'br, gzip');
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-encoding'], undefined);
    assert.equal(res.body.toString(), SMALL_CSS);
    assert.match(res.headers['content-type']!, /^text\/css/);
    assert.equal(res.headers['cache-control'], IMMUTABLE);
  });

  it('answers HEAD with the headers of the chosen copy and no body', async () => {
    const res = await get('/assets/main-Ab12Cd34.js', 'br', 'HEAD');
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-encoding'], 'br');
    assert.equal(res.body.length, 0);
  });

  it('answers 404, not the console page, for a file that is not there (a chunk of an older build)', async () => {
    for (const missing of ['/assets/main-Zz99Zz99.js', '/assets/', '/assets/main-Ab12Cd34.js.br.br']) {
      const res = await get(missing, 'br, gzip');
      assert.equal(res.status, 404, missing);
      assert.match(res.headers['content-type']!, /^application\/json/, missing);
      assert.doesNotMatch(res.body.toString(), /<html/, missing);
      assert.notEqual(res.headers['cache-control'], IMMUTABLE, missing);
    }
  });

  it('does not serve the compressed copies under their own names as other files', async () => {
    const res = await get('/assets/main-Ab12Cd34.js.br', 'br');
    assert.equal(res.status, 404);
  });
});

describe('GET <a screen URL>', () => {
  it('sends index.html, compressed as the browser takes it and revalidated on every load', async () => {
    for (const screen of ['/', '/groups', '/groups/acme/platform/-/hooks/12/events?status=successful', '/index.html']) {
      const res = await get(screen, 'gzip, deflate, br');
      assert.equal(res.status, 200, screen);
      assert.equal(res.headers['content-encoding'], 'br', screen);
      assert.equal(zlib.brotliDecompressSync(res.body).toString(), INDEX, screen);
      assert.match(res.headers['content-type']!, /^text\/html/, screen);
      assert.equal(res.headers['cache-control'], 'no-cache', screen);
      assert.equal(res.headers.vary, 'Accept-Encoding', screen);
    }
    const plain = await get('/groups/acme');
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(plain.body.toString(), INDEX);
  });

  it("preloads the files of the screen at the URL, as the build listed them, and only that screen's", async () => {
    const links = (html: string) => [...html.matchAll(/<link rel="(\w+)" crossorigin href="([^"]+)">/g)].map((m) => `${m[1]} ${m[2]}`);
    const tokens = await get('/user/access_tokens/', 'br');
    assert.equal(tokens.headers['content-encoding'], 'br');
    assert.equal(tokens.headers['cache-control'], 'no-cache');
    assert.match(tokens.headers['content-type']!, /^text\/html/);
    const html = zlib.brotliDecompressSync(tokens.body).toString();
    assert.deepEqual(links(html), ['stylesheet /assets/small-Ef56Gh78.css', 'modulepreload /assets/main-Ab12Cd34.js']);
    assert.equal(html.replace(/<link[^>]*>\n/g, ''), INDEX);
    // A splat takes what is under it; a path under an exact one is another screen.
    for (const screen of ['/admin', '/admin/users/3']) assert.deepEqual(links((await get(screen)).body.toString()), ['modulepreload /assets/main-Ab12Cd34.js'], screen);
    assert.equal(zlib.gunzipSync((await get('/user/access_tokens/3', 'gzip')).body).toString(), INDEX);
  });

  it('leaves the API its own answers: an unknown API path is a JSON 404, not the console', async () => {
    const res = await get('/api/v4/no-such-thing', 'br');
    assert.equal(res.status, 404);
    assert.match(res.headers['content-type']!, /^application\/json/);
  });

  it('leaves /-/ to the monitoring endpoints: /-/health answers itself, any other path there is a JSON 404, not the console', async () => {
    const health = await get('/-/health', 'br');
    assert.equal(health.status, 200);
    assert.equal(health.body.toString(), 'GitLab OK');
    for (const urlPath of ['/-/no-such-thing', '/-/']) {
      const res = await get(urlPath, 'br');
      assert.equal(res.status, 404, urlPath);
      assert.match(res.headers['content-type']!, /^application\/json/, urlPath);
    }
  });
});
