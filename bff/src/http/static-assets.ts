import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import express, { Router } from 'express';
import { unknownRoute } from './errors.ts';

/**
 * The built console, served as the build left it: every text file also exists compressed beside
 * itself (`x.js.br`, `x.js.gz`, made by `precompress` at build time, so no request pays for
 * compression), and each request gets the smallest variant its Accept-Encoding takes. Files
 * under /assets/ carry a content hash in their name, so they are cached for a year and never
 * revalidated; index.html (the SPA's entry for every screen URL) is revalidated on every load,
 * so a new build is seen at once.
 */

/** Source maps are left out: only developer tools read them, and they are most of the bytes to compress. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|webmanifest)$/;
/** Below this a compressed file saves less than its headers cost. */
const MIN_BYTES = 1024;
const ENCODINGS = [
  { name: 'br', ext: '.br' },
  { name: 'gzip', ext: '.gz' },
] as const;
type Encoding = (typeof ENCODINGS)[number]['name'] | 'identity';

/** Written by the build (vite.config.ts): each route path of the console with the files its screen needs beyond the first chunk's. */
export const SCREEN_PRELOADS = 'screen-preloads.json';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

/** Writes `<file>.br` and `<file>.gz` beside every compressible file of `dir` (recursively), at maximum compression. */
export function precompress(dir: string): { files: number; bytes: number; br: number; gzip: number } {
  const totals = { files: 0, bytes: 0, br: 0, gzip: 0 };
  for (const rel of listFiles(dir)) {
    if (!COMPRESSIBLE.test(rel)) continue;
    const file = path.join(dir, rel);
    const raw = fs.readFileSync(file);
    if (raw.length < MIN_BYTES) continue;
    const br = zlib.brotliCompressSync(raw, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
    });
    const gzip = zlib.gzipSync(raw, { level: zlib.constants.Z_BEST_COMPRESSION });
    fs.writeFileSync(`${file}.br`, br);
    fs.writeFileSync(`${file}.gz`, gzip);
    totals.files++;
    totals.bytes += raw.length;
    totals.br += br.length;
    totals.gzip += gzip.length;
  }
  return totals;
}

function listFiles(dir: string, prefix = ''): string[] {
  return fs.readdirSync(path.join(dir, prefix), { withFileTypes: true }).flatMap((e) => {
    const rel = path.posix.join(prefix, e.name);
    return e.isDirectory() ? listFiles(dir, rel) : e.isFile() ? [rel] : [];
  });
}

/**
 * The encodings a client takes, best first, from its Accept-Encoding (RFC 9110 §12.5.3): a
 * q=0 refuses one, `*` stands for any not named, and identity is acceptable unless refused.
 */
export function acceptedEncodings(header: string | undefined): Encoding[] {
  const q = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    q.set(name, Number.isFinite(value) ? value : 0);
  }
  const weight = (name: string) => q.get(name) ?? q.get('*') ?? (name === 'identity' ? 1 : 0);
  const candidates: Encoding[] = ['br', 'gzip', 'identity'];
  // Stable sort: between equal weights the smaller variant (br, then gzip) wins.
  return candidates.filter((e) => weight(e) > 0).sort((a, b) => weight(b) - weight(a));
}

interface Asset {
  file: string;
  /** The encodings it exists in besides identity. */
  variants: Set<Encoding>;
  cacheControl: string;
}

/**
 * Serves `dist` (read once: a build replaces the folder and the server restarts with it):
 * its files by URL path, a missing file under /assets/ as a 404 (a stale chunk must fail
 * loudly, not load index.html as JavaScript), and index.html for every other GET, where the
 * SPA's router takes over.
 */
export function staticAssets(dist: string): Router {
  const assets = new Map<string, Asset>();
  const files = new Set(listFiles(dist));
  for (const rel of files) {
    if (ENCODINGS.some((e) => rel.endsWith(e.ext) && files.has(rel.slice(0, -e.ext.length)))) continue;
    assets.set(`/${rel}`, {
      file: path.join(dist, rel),
      variants: new Set(ENCODINGS.filter((e) => files.has(rel + e.ext)).map((e) => e.name)),
      cacheControl: rel.startsWith('assets/') ? IMMUTABLE : REVALIDATE,
    });
  }
  const index = assets.get('/index.html');
  if (!index) throw new Error(`${dist} has no index.html`);

  const send = (asset: Asset, req: express.Request, res: express.Response, next: express.NextFunction) => {
    // A client refusing every variant there is gets the file as it is, as RFC 9110 allows.
    const encoding = acceptedEncodings(req.get('accept-encoding')).find((e) => e === 'identity' || asset.variants.has(e)) ?? 'identity';
    res.setHeader('Vary', 'Accept-Encoding');
    // The type is the original file's, whichever variant travels.
    res.type(path.extname(asset.file));
    if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding);
    const file = encoding === 'identity' ? asset.file : asset.file + ENCODINGS.find((e) => e.name === encoding)!.ext;
    res.sendFile(file, { cacheControl: false, headers: { 'Cache-Control': asset.cacheControl }, acceptRanges: encoding === 'identity', dotfiles: 'allow' }, (err) => {
      if (err && !res.headersSent) next(err);
    });
  };

  const pages = screenPages(dist, index.file);
  const router = Router();
  router.get('/{*path}', (req, res, next) => {
    const asset = assets.get(req.path);
    if (asset) return send(asset, req, res, next);
    if (req.path.startsWith('/assets/')) return unknownRoute(req, res, next);
    const page = pages(req.path);
    if (!page) return send(index, req, res, next);
    const encoding = acceptedEncodings(req.get('accept-encoding')).find((e) => e in page) ?? 'identity';
    res.setHeader('Vary', 'Accept-Encoding');
    res.setHeader('Cache-Control', REVALIDATE);
    res.type('html');
    if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding);
    res.send(page[encoding]);
  });
  return router;
}

type Page = Record<Encoding, Buffer>;

/**
 * index.html as the page for a screen's URL: with links that fetch the screen's files (listed by
 * the build in SCREEN_PRELOADS) alongside the first chunk's, instead of after it has run. Made
 * once per route path, compressed as the other files; undefined for a URL of no listed screen
 * (or without the list), which gets index.html as it is. Paths match as the router's do: the
 * exact path, else the longest `/*` prefix.
 */
function screenPages(dist: string, indexFile: string): (urlPath: string) => Page | undefined {
  const list = path.join(dist, SCREEN_PRELOADS);
  if (!fs.existsSync(list)) return () => undefined;
  const screens = JSON.parse(fs.readFileSync(list, 'utf8')) as Record<string, string[]>;
  const html = fs.readFileSync(indexFile, 'utf8');
  const pages = new Map<string, Page>();
  for (const [route, files] of Object.entries(screens)) {
    const links = files.map((f) => (f.endsWith('.css') ? `<link rel="stylesheet" crossorigin href="${f}">` : `<link rel="modulepreload" crossorigin href="${f}">`));
    const raw = Buffer.from(html.replace('</head>', `${links.join('\n')}\n</head>`));
    pages.set(route, {
      identity: raw,
      br: zlib.brotliCompressSync(raw, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY } }),
      gzip: zlib.gzipSync(raw, { level: zlib.constants.Z_BEST_COMPRESSION }),
    });
  }
  const splats = [...pages.keys()].filter((r) => r.endsWith('/*')).sort((a, b) => b.length - a.length);
  return (urlPath) => {
    const at = urlPath.replace(/\/+$/, '') || '/';
    return pages.get(at) ?? pages.get(splats.find((r) => `${at}/`.startsWith(r.slice(0, -1))) ?? '');
  };
}
