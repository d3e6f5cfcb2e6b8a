import { execFile, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * Large files for the tests of what the server holds in memory: random data written to disk in
 * chunks (never whole in this process), committed into a bare repository by real git plumbing
 * (hash-object, a temporary index, commit-tree, update-ref), and the server's resident memory
 * read from /proc while it answers.
 */

const run = promisify(execFile);
const GIT_ENV = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Fixture',
  GIT_AUTHOR_EMAIL: 'fixture@example.com',
  GIT_COMMITTER_NAME: 'Fixture',
  GIT_COMMITTER_EMAIL: 'fixture@example.com',
};

const git = async (dir: string, args: string[], env: Record<string, string> = {}) =>
  (await run('git', ['-C', dir, ...args], { env: { ...process.env, ...GIT_ENV, ...env }, maxBuffer: 16 * 1024 * 1024 })).stdout.trim();

const CHUNK = 4 * 1024 * 1024;

/**
 * `size` bytes of random data in `file`, with their SHA-256. Binary: random bytes (git sees a
 * NUL at once). Text: lines of random base64, 76 characters and a newline, that no compressor
 * shrinks below three quarters.
 */
export async function writeRandomFile(file: string, size: number, kind: 'binary' | 'text'): Promise<string> {
  const hash = crypto.createHash('sha256');
  const out = fs.createWriteStream(file);
  let left = size;
  while (left > 0) {
    const n = Math.min(CHUNK, left);
    let chunk: Buffer;
    if (kind === 'binary') chunk = crypto.randomBytes(n);
    else {
      // 57 random bytes make one 76-character base64 line; the last line is cut to fit.
      const lines = Math.ceil(n / 77);
      const text = Buffer.from(crypto.randomBytes(lines * 57).toString('base64'));
      chunk = Buffer.alloc(lines * 77, 0x0a);
      for (let i = 0; i < lines; i++) text.copy(chunk, i * 77, i * 76, i * 76 + 76);
      chunk = chunk.subarray(0, n);
    }
    hash.update(chunk);
    left -= n;
    if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
  return hash.digest('hex');
}

/** Random data does not compress: loose objects are stored as they are, to write them fast. */
const FAST = ['-c', 'core.looseCompression=0'];

/** A change of one commit: a file from disk, a text, or a deletion (null). */
export type FileChanges = Record<string, { file: string } | string | null>;

/** git with its standard input given; answers its output. */
function gitWithInput(dir: string, args: string[], input: string, env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['-C', dir, ...args], { env: { ...process.env, ...GIT_ENV, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`git ${args.join(' ')}: ${err}`))));
    child.stdin.end(input);
  });
}

/**
 * Commits `changes` on top of `branch` of a bare repository (a new branch starts from `from`)
 * and moves the branch; answers the commit's id. The contents are written in one call and the
 * index updated in one (a thousand files cost what one does). No hook runs: the objects are
 * written as a push would leave them, without the push.
 */
export async function commitFiles(repo: string, branch: string, changes: FileChanges, opts: { from?: string; message?: string } = {}): Promise<string> {
  const parent = await git(repo, ['rev-parse', '--verify', '--quiet', `refs/heads/${opts.from ?? branch}^{commit}`]).catch(() => '');
  const index = path.join(repo, `fixture-index-${process.pid}-${crypto.randomBytes(4).toString('hex')}`);
  const env = { GIT_INDEX_FILE: index };
  try {
    if (parent) await git(repo, ['read-tree', parent], env);
    const kept = Object.entries(changes).filter((e): e is [string, { file: string } | string] => e[1] !== null);
    const texts = fs.mkdtempSync(`${index}-texts`);
    const sources = kept.map(([, change], i) => {
      if (typeof change !== 'string') return change.file;
      fs.writeFileSync(path.join(texts, String(i)), change);
      return path.join(texts, String(i));
    });
    const blobs = kept.length ? (await gitWithInput(repo, [...FAST, 'hash-object', '-w', '--stdin-paths'], sources.join('\n') + '\n')).trim().split('\n') : [];
    fs.rmSync(texts, { recursive: true, force: true });
    const entries = [
      ...kept.map(([p], i) => `100644 ${blobs[i]}\t${p}`),
      ...Object.entries(changes)
        .filter(([, change]) => change === null)
        .map(([p]) => `0 ${'0'.repeat(40)}\t${p}`),
    ];
    await gitWithInput(repo, ['update-index', '--index-info'], entries.join('\n') + '\n', env);
    const tree = await git(repo, ['write-tree'], env);
    const commit = await git(repo, ['commit-tree', tree, ...(parent ? ['-p', parent] : []), '-m', opts.message ?? `Change ${Object.keys(changes).join(', ')}`]);
    await git(repo, ['update-ref', `refs/heads/${branch}`, commit]);
    return commit;
  } finally {
    fs.rmSync(index, { force: true });
  }
}

/** Resident memory of a process, in bytes: now (VmRSS) and its peak (VmHWM). */
export function residentMemory(pid: number): { rss: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

/** Starts a new peak: writing 5 to clear_refs resets VmHWM to the current resident size (Linux). */
export function resetPeak(pid: number): void {
  fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

/** The peak resident memory of `pid` while `work` runs: VmHWM, reset before. */
export async function peakDuring<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; before: number; peak: number }> {
  resetPeak(pid);
  const before = residentMemory(pid).rss;
  const result = await work();
  return { result, before, peak: residentMemory(pid).peak };
}

/**
 * Reads a response body chunk by chunk without keeping it: its length, its SHA-256 and its
 * first and last bytes (enough to check a JSON frame around a streamed field).
 */
export async function drain(res: Response, keep = 4096): Promise<{ bytes: number; sha256: string; head: string; tail: string }> {
  const hash = crypto.createHash('sha256');
  let bytes = 0;
  let head = Buffer.alloc(0);
  let tail = Buffer.alloc(0);
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    const b = Buffer.from(chunk);
    hash.update(b);
    bytes += b.length;
    if (head.length < keep) head = Buffer.concat([head, b.subarray(0, keep - head.length)]);
    tail = Buffer.concat([tail, b]).subarray(-keep);
  }
  return { bytes, sha256: hash.digest('hex'), head: head.toString('latin1'), tail: tail.toString('latin1') };
}

/**
 * A SAST report in the platform's format of `size` bytes at most (and within a few kilobytes
 * of it), written as it grows: findings at distinct places, each with `detailBytes` of text in
 * its details, as scanners put code and traces there. Answers how many findings it holds.
 */
export function writeSastReport(file: string, size: number, detailBytes: number): number {
  const out = fs.openSync(file, 'w');
  try {
    const scanner = { id: 'semgrep', name: 'Semgrep', version: '1.50.0', vendor: { name: 'GitLab' } };
    const head = `{"version":"15.0.7","scan":${JSON.stringify({ analyzer: scanner, scanner, type: 'sast', start_time: '2026-11-20T10:00:00', end_time: '2026-11-20T10:01:00', status: 'success' })},"vulnerabilities":[`;
    const tail = ']}';
    fs.writeSync(out, head);
    let written = head.length + tail.length;
    let count = 0;
    for (;;) {
      const finding = JSON.stringify({
        id: `f${count}`,
        name: `Finding ${count}`,
        description: `Found at line ${count} of the application.`,
        severity: ['Critical', 'High', 'Medium', 'Low'][count % 4],
        identifiers: [{ type: 'semgrep_id', name: `rule-${count % 50}`, value: `rule-${count % 50}` }],
        location: { file: `app/module-${count % 100}/file-${count}.js`, start_line: 1 + (count % 5000), end_line: 2 + (count % 5000) },
        details: { trace: { type: 'text', name: 'Trace', value: crypto.randomBytes(Math.ceil(detailBytes * 0.75)).toString('base64').slice(0, detailBytes) } },
      });
      const piece = (count ? ',' : '') + finding;
      if (written + piece.length > size) break;
      fs.writeSync(out, piece);
      written += piece.length;
      count++;
    }
    fs.writeSync(out, tail);
    return count;
  } finally {
    fs.closeSync(out);
  }
}
