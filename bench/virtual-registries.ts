/**
 * The "virtual registries" section of `npm run bench` (BENCH_ONLY=virtual): Maven's downloads
 * through a virtual registry's pull-through (`GET /api/v4/virtual_registries/packages/maven/:id/*path`).
 *
 * The upstream is another system: a plain `node:http` static server behind HTTP Basic on
 * loopback, in a process of its own (bench/maven-upstream-child.ts), serving BENCH_VR_ARTIFACTS
 * files (default 200): JARs and POMs of Debian's /usr/share/maven-repo (distinct files, spread
 * over the repository), or, where that directory is missing or holds fewer, generated ones of
 * realistic sizes (POMs of a few kB, JARs of a log-normal size around 40 kB). Gatehouse runs in
 * a process of its own (bench/delivery-child.ts), the clients in this one: BENCH_CONNECTIONS
 * (default 10) fetch the files off one queue, each body checked against the upstream's file
 * (SHA-1).
 *
 * Three passes over the same files, each timed from the first request to the last body:
 * - direct: straight from the upstream, the baseline (once, after an untimed pass that warms the
 *   page cache and the upstream's code; Gatehouse's cold pass reads the same warm files);
 * - cold: through Gatehouse with an empty cache, every file fetched from the upstream (with the
 *   upstream's credentials, which Gatehouse keeps) and stored while it is streamed;
 * - warm: the same again, every file served from Gatehouse's cache.
 * MB/s and files/s of each, the ratio to the direct read, per-file p50/p99, and the upstream's
 * own count of the requests it got for those files (expected: each once when cold, none warm).
 *
 * Then BENCH_VR_CONCURRENT requests (default 50) at once for one uncached file (the largest JAR
 * the passes do not read, under a path of its own):
 * the upstream's count of its fetches of that file (expected 1), the time until every request
 * was answered, and whether every body is byte-identical to the upstream's.
 *
 * On SQLite, and on PostgreSQL with BENCH_PG (a throwaway database). It measures; a wrong
 * answer is printed as an error line, never a failure.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { CONNECTIONS, envNumber, fmtInt, fmtMs, fmtRatio, gatehouseApi, percentile, printAligned, startChild, withPgDatabase, withTempDir, type LoadRow } from './lib.ts';
import type { DeliveryChildReady } from './delivery-child.ts';
import type { UpstreamChildReady } from './maven-upstream-child.ts';

export const VIRTUAL_REGISTRIES_LABEL = 'virtual registries';

const ARTIFACTS = Math.round(envNumber('BENCH_VR_ARTIFACTS', 200, 1));
const CONCURRENT = Math.round(envNumber('BENCH_VR_CONCURRENT', 50, 1));
const DEBIAN_REPO = '/usr/share/maven-repo';
const UPSTREAM = { username: 'mirror-bot', password: `upstream-${crypto.randomBytes(8).toString('hex')}` };
/** Where the concurrent requests' file sits: a path of its own, so no pass has cached it. */
const HOT_PATH = 'com/example/gatehouse-bench/concurrent/1.0/concurrent-1.0.jar';
/** One request that takes longer than this is counted wrong, rather than holding the bench. */
const REQUEST_TIMEOUT_MS = 120_000;

interface Artifact {
  /** The Maven path, relative to the repository's root. */
  path: string;
  size: number;
  sha1: string;
}

interface Repository {
  root: string;
  artifacts: Artifact[];
  hot: Artifact;
  /** Where the files came from, for the header. */
  source: string;
}

type Pass = 'direct' | 'cold' | 'warm';

/** A pass over the files: rps is files/s, p50/p99 per file. */
interface DownloadRow extends LoadRow {
  pass: Pass;
  seconds: number;
  bytes: number;
  files: number;
  /** GET requests the upstream got for the files during the pass (not counted for the direct read). */
  upstreamFetches?: number;
  /** Answers that were not the upstream's file, and the upstream's counts off what was expected. */
  wrong: string[];
}

interface ConcurrentRow {
  target: string;
  requests: number;
  upstreamFetches: number;
  ms: number;
  /** Bodies equal to the upstream's file, byte for byte. */
  identical: number;
  wrong: string[];
}

export interface VirtualRegistriesReport {
  source: string;
  files: number;
  bytes: number;
  hotBytes: number;
  downloads: DownloadRow[];
  concurrent: ConcurrentRow[];
  /** Whether the PostgreSQL runs were skipped (no BENCH_PG). */
  pgSkipped: boolean;
}

// ---------------------------------------------------------------------------------------
// The upstream's files

const sha1 = (bytes: Buffer) => crypto.createHash('sha1').update(bytes).digest('hex');

/** JARs and POMs under Debian's repository: one path per distinct file, sorted by path. */
function debianFiles(): { path: string; real: string }[] {
  if (!fs.existsSync(DEBIAN_REPO)) return [];
  const found: { path: string; real: string }[] = [];
  const walk = (dir: string) => {
    for (const name of fs.readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      let stat: fs.Stats;
      try {
        stat = fs.statSync(full);
      } catch {
        continue; // A dangling link.
      }
      if (stat.isDirectory()) walk(full);
      else if (stat.isFile() && /\.(jar|pom)$/.test(name)) found.push({ path: path.relative(DEBIAN_REPO, full), real: fs.realpathSync(full) });
    }
  };
  walk(DEBIAN_REPO);
  const byFile = new Map<string, { path: string; real: string }>();
  for (const f of found) if (!byFile.has(f.real)) byFile.set(f.real, f);
  return [...byFile.values()];
}

/** A small deterministic generator, so that generated sizes are the same from run to run. */
function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Generated artifacts of realistic sizes: POM and JAR in turn; JARs' bytes random (a JAR is compressed). */
function generate(root: string, count: number): string[] {
  const random = mulberry32(31);
  const paths: string[] = [];
  for (let i = 0; i < count; i++) {
    const n = Math.floor(i / 2);
    const base = `org/example/generated/lib-${n}/1.0/lib-${n}-1.0`;
    let bytes: Buffer;
    if (i % 2 === 0) {
      const size = 1500 + Math.floor(random() * 10_000);
      const head = `<?xml version="1.0" encoding="UTF-8"?>\n<project><modelVersion>4.0.0</modelVersion><groupId>org.example.generated</groupId><artifactId>lib-${n}</artifactId><version>1.0</version>\n`;
      bytes = Buffer.from(`${head}<!-- ${'x'.repeat(Math.max(0, size - head.length - 20))} -->\n</project>\n`);
    } else {
      // Log-normal around 40 kB (Box-Muller), within 2 kB and 4 MB.
      const normal = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
      bytes = crypto.randomBytes(Math.min(4 << 20, Math.max(2048, Math.round(40_000 * Math.exp(1.3 * normal)))));
    }
    const file = `${base}.${i % 2 === 0 ? 'pom' : 'jar'}`;
    fs.mkdirSync(path.join(root, path.dirname(file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), bytes);
    paths.push(file);
  }
  return paths;
}

/** The upstream's directory: links to Debian's files (spread over its repository), generated files for the rest, and the concurrent requests' file. */
function prepareRepository(dir: string): Repository {
  const root = path.join(dir, 'upstream');
  const debian = debianFiles();
  const picked = debian.length <= ARTIFACTS ? debian : Array.from({ length: ARTIFACTS }, (_, i) => debian[Math.floor((i * debian.length) / ARTIFACTS)]!);
  for (const f of picked) {
    fs.mkdirSync(path.join(root, path.dirname(f.path)), { recursive: true });
    fs.symlinkSync(f.real, path.join(root, f.path));
  }
  const generated = generate(root, ARTIFACTS - picked.length);
  // The largest of Debian's JARs the passes do not read (else the largest), under a path of its own; or 2 MiB generated.
  const jars = debian.filter((f) => f.path.endsWith('.jar')).sort((a, b) => fs.statSync(b.real).size - fs.statSync(a.real).size);
  const largest = jars.find((f) => !picked.includes(f)) ?? jars[0];
  fs.mkdirSync(path.join(root, path.dirname(HOT_PATH)), { recursive: true });
  if (largest) fs.symlinkSync(largest.real, path.join(root, HOT_PATH));
  else fs.writeFileSync(path.join(root, HOT_PATH), crypto.randomBytes(2 << 20));
  const describe = (p: string): Artifact => {
    const bytes = fs.readFileSync(path.join(root, p));
    return { path: p, size: bytes.length, sha1: sha1(bytes) };
  };
  const source = [picked.length ? `${fmtInt(picked.length)} from Debian's ${DEBIAN_REPO}` : '', generated.length ? `${fmtInt(generated.length)} generated${debian.length ? '' : ` (${DEBIAN_REPO} is missing)`}` : '']
    .filter(Boolean)
    .join(', ');
  return { root, artifacts: [...picked.map((f) => f.path), ...generated].map(describe), hot: describe(HOT_PATH), source };
}

// ---------------------------------------------------------------------------------------
// Clients

const basic = (username: string, password: string) => `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;

/** One GET, its body checked against the upstream's file: the bytes received, and what was wrong if anything was. */
async function download(url: string, authorization: string, artifact: Artifact): Promise<{ bytes: number; wrong?: string }> {
  try {
    const res = await fetch(url, { headers: { Authorization: authorization }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    const body = Buffer.from(await res.arrayBuffer());
    if (res.status !== 200) return { bytes: body.length, wrong: `${artifact.path}: HTTP ${res.status} ${body.toString('utf8', 0, 160)}` };
    if (sha1(body) !== artifact.sha1) return { bytes: body.length, wrong: `${artifact.path}: ${fmtInt(body.length)} bytes unlike the upstream's ${fmtInt(artifact.size)}` };
    return { bytes: body.length };
  } catch (e) {
    return { bytes: 0, wrong: `${artifact.path}: ${(e as Error).message}` };
  }
}

/** Every artifact once, CONNECTIONS clients taking the next one off a queue; timed from the first request to the last body. */
async function downloadAll(target: string, pass: Pass, base: string, authorization: string, artifacts: Artifact[]): Promise<DownloadRow> {
  let next = 0;
  let bytes = 0;
  const latencies: number[] = [];
  const wrong: string[] = [];
  const client = async () => {
    while (next < artifacts.length) {
      const artifact = artifacts[next++]!;
      const started = performance.now();
      const got = await download(`${base}/${artifact.path}`, authorization, artifact);
      latencies.push(performance.now() - started);
      bytes += got.bytes;
      if (got.wrong) wrong.push(got.wrong);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: Math.min(CONNECTIONS, artifacts.length) }, client));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { target, pass, seconds, bytes, files: artifacts.length, rps: artifacts.length / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), wrong };
}

// ---------------------------------------------------------------------------------------
// Through Gatehouse

interface Upstream {
  url: string;
  /** GET requests of each `/maven/…` path so far, as the upstream counted them. */
  counts(): Promise<Record<string, number>>;
}

/** The upstream's GETs of these artifacts between two counts, and the artifacts whose count moved otherwise than expected. */
function fetchesBetween(before: Record<string, number>, after: Record<string, number>, artifacts: Artifact[], expected: number): { total: number; off: string[] } {
  let total = 0;
  const off: string[] = [];
  for (const a of artifacts) {
    const key = `/maven/${a.path}`;
    const n = (after[key] ?? 0) - (before[key] ?? 0);
    total += n;
    if (n !== expected) off.push(a.path);
  }
  return { total, off };
}

async function gatehouse(target: string, env: Record<string, string>, dir: string, repo: Repository, upstream: Upstream): Promise<{ downloads: DownloadRow[]; concurrent: ConcurrentRow }> {
  const token = `bench-${crypto.randomBytes(12).toString('hex')}`;
  const server = await startChild<DeliveryChildReady>('delivery-child.ts', [], { BENCH_DATA_DIR: path.join(dir, target.replace(/\W+/g, '-')), BENCH_ROOT_TOKEN: token, GATEHOUSE_WORKERS: '0', ...env }, 120_000);
  try {
    const api = gatehouseApi(server.info.url, token);
    // The upstream is on loopback, which the outbound guard refuses unless allowed.
    await api('/application/settings', 'PUT', { allow_local_requests_from_web_hooks_and_services: true });
    const group = (await api('/groups', 'POST', { name: 'Maven bench', path: 'maven-bench' })) as { id: number };
    // Maven's settings.xml: a Guest's user name and token in HTTP Basic.
    const user = (await api('/users', 'POST', { username: 'reader', name: 'Reader', email: 'reader@example.com', password: `pw-${token}` })) as { id: number; username: string };
    await api(`/groups/${group.id}/members`, 'POST', { user_id: user.id, access_level: 10 });
    const pat = (await api(`/users/${user.id}/personal_access_tokens`, 'POST', { name: 'maven', scopes: ['read_api'] })) as { token: string };
    const registry = (await api(`/groups/${group.id}/-/virtual_registries/packages/maven/registries`, 'POST', { name: 'bench' })) as { id: number };
    await api(`/virtual_registries/packages/maven/registries/${registry.id}/upstreams`, 'POST', { url: `${upstream.url}/maven`, ...UPSTREAM });
    const base = `${server.info.url}/api/v4/virtual_registries/packages/maven/${registry.id}`;
    const authorization = basic(user.username, pat.token);

    const downloads: DownloadRow[] = [];
    for (const [pass, expected] of [['cold', 1], ['warm', 0]] as const) {
      console.log(`  ${target}: ${pass} pass…`);
      const before = await upstream.counts();
      const row = await downloadAll(target, pass, base, authorization, repo.artifacts);
      const fetched = fetchesBetween(before, await upstream.counts(), repo.artifacts, expected);
      row.upstreamFetches = fetched.total;
      if (fetched.off.length) row.wrong.push(`${fmtInt(fetched.off.length)} file(s) fetched from the upstream other than ${expected === 1 ? 'once' : 'never'}, e.g. ${fetched.off[0]}`);
      downloads.push(row);
    }

    console.log(`  ${target}: ${CONCURRENT} concurrent requests for one uncached file…`);
    const before = await upstream.counts();
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: CONCURRENT }, () => download(`${base}/${repo.hot.path}`, authorization, repo.hot)));
    const ms = performance.now() - started;
    const wrong = answers.flatMap((a) => (a.wrong ? [a.wrong] : []));
    const upstreamFetches = fetchesBetween(before, await upstream.counts(), [repo.hot], 1).total;
    if (upstreamFetches !== 1) wrong.push(`the upstream got ${upstreamFetches} requests for the file, expected 1`);
    return { downloads, concurrent: { target, requests: CONCURRENT, upstreamFetches, ms, identical: answers.filter((a) => !a.wrong).length, wrong } };
  } finally {
    await server.stop();
  }
}

export async function runVirtualRegistries(opts: { pgAdmin?: string }): Promise<VirtualRegistriesReport> {
  console.log(`\n${VIRTUAL_REGISTRIES_LABEL}: ${fmtInt(ARTIFACTS)} Maven artifacts directly, then cold and warm through the pull-through, ${CONNECTIONS} clients; ${CONCURRENT} concurrent requests for one uncached file`);
  return withTempDir(async (dir) => {
    const repo = prepareRepository(dir);
    const report: VirtualRegistriesReport = {
      source: repo.source,
      files: repo.artifacts.length,
      bytes: repo.artifacts.reduce((n, a) => n + a.size, 0),
      hotBytes: repo.hot.size,
      downloads: [],
      concurrent: [],
      pgSkipped: !opts.pgAdmin,
    };
    const failed = (target: string, pass: Pass, e: unknown): DownloadRow => ({ target, pass, seconds: NaN, bytes: 0, files: 0, rps: NaN, p50: NaN, p99: NaN, wrong: [], problem: (e as Error).message });
    const child = await startChild<UpstreamChildReady>('maven-upstream-child.ts', [repo.root, UPSTREAM.username, UPSTREAM.password], {}, 30_000);
    try {
      const authorization = basic(UPSTREAM.username, UPSTREAM.password);
      const upstream: Upstream = {
        url: child.info.url,
        counts: async () => (await (await fetch(`${child.info.url}/counts`, { headers: { Authorization: authorization } })).json()) as Record<string, number>,
      };
      try {
        await downloadAll('upstream directly', 'direct', `${upstream.url}/maven`, authorization, repo.artifacts);
        report.downloads.push(await downloadAll('upstream directly', 'direct', `${upstream.url}/maven`, authorization, repo.artifacts));
      } catch (e) {
        report.downloads.push(failed('upstream directly', 'direct', e));
      }
      const attempt = async (target: string, run: () => Promise<{ downloads: DownloadRow[]; concurrent: ConcurrentRow }>) => {
        try {
          const got = await run();
          report.downloads.push(...got.downloads);
          report.concurrent.push(got.concurrent);
        } catch (e) {
          report.downloads.push(failed(target, 'cold', e));
        }
      };
      await attempt('Gatehouse, SQLite', () => gatehouse('Gatehouse, SQLite', {}, dir, repo, upstream));
      const pgUrl = opts.pgAdmin;
      if (pgUrl) await attempt('Gatehouse, PostgreSQL', () => withPgDatabase(pgUrl, (url) => gatehouse('Gatehouse, PostgreSQL', { DATABASE_URL: url }, dir, repo, upstream)));
    } finally {
      await child.stop();
    }
    return report;
  });
}

const MB = 1_000_000;
const PASS_NAMES: Record<Pass, string> = { direct: 'direct read (baseline)', cold: 'cold (fetched and stored)', warm: 'warm (from the cache)' };

export function printVirtualRegistries(report: VirtualRegistriesReport): void {
  console.log(
    `\nVirtual registries: ${fmtInt(report.files)} Maven artifacts (${(report.bytes / MB).toFixed(1)} MB; ${report.source}) from an upstream on loopback behind Basic auth, ${CONNECTIONS} concurrent clients, each body checked against the upstream's`,
  );
  const direct = report.downloads.find((r) => r.pass === 'direct' && !r.problem);
  const mbps = (r: DownloadRow) => r.bytes / MB / r.seconds;
  printAligned(
    ['target', 'pass', 'seconds', 'MB/s', 'files/s', 'of direct', 'p50 ms', 'p99 ms', 'upstream GETs', 'wrong'],
    report.downloads.map((r) =>
      r.problem
        ? [r.target, `could not run: ${r.problem.slice(0, 120)}`, '', '', '', '', '', '', '', '']
        : [
            r.target,
            PASS_NAMES[r.pass],
            r.seconds.toFixed(2),
            mbps(r).toFixed(1),
            fmtInt(r.rps),
            direct ? `${fmtRatio(mbps(r) / mbps(direct))}×` : '-',
            fmtMs(r.p50),
            fmtMs(r.p99),
            r.upstreamFetches === undefined ? '-' : fmtInt(r.upstreamFetches),
            fmtInt(r.wrong.length),
          ],
    ),
    new Set([2, 3, 4, 5, 6, 7, 8, 9]),
  );
  console.log(`  upstream GETs: the requests the upstream counted for these files during the pass (expected: ${fmtInt(report.files)} cold, 0 warm)`);
  if (report.concurrent.length) {
    console.log(`\n  ${CONCURRENT} concurrent requests for one uncached file (${(report.hotBytes / MB).toFixed(2)} MB)`);
    printAligned(
      ['target', 'requests', 'upstream GETs (expected 1)', 'all answered ms', 'bodies identical'],
      report.concurrent.map((r) => [r.target, fmtInt(r.requests), fmtInt(r.upstreamFetches), fmtMs(r.ms), `${fmtInt(r.identical)} of ${fmtInt(r.requests)}`]),
      new Set([1, 2, 3, 4]),
    );
  }
  const errors = (what: string, wrong: string[]) => {
    for (const w of wrong.slice(0, 5)) console.log(`ERROR ${what}: ${w}`);
    if (wrong.length > 5) console.log(`ERROR ${what}: and ${fmtInt(wrong.length - 5)} more wrong answer(s)`);
  };
  for (const r of report.downloads) errors(`${r.target}, ${r.pass}`, r.wrong);
  for (const r of report.concurrent) errors(`${r.target}, concurrent`, r.wrong);
  if (report.pgSkipped) console.log('  PostgreSQL: skipped (set BENCH_PG to also run on a throwaway database).');
}
