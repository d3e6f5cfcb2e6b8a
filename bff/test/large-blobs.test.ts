// Runs on SQLite only: blobs and diffs are read from git; the database holds nothing of them that the engines could differ on
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repositoryFile } from '../../shared/src/repository-files.ts';
import { comparison } from '../../shared/src/compare.ts';
import { mergeRequestChanges, mergeRequestDiff } from '../../shared/src/merge-requests.ts';
import { callInstance, sharedInstallation, type Instance, type SharedInstallation } from './instances.ts';
import { commitFiles, drain, peakDuring, writeRandomFile } from './large-files.ts';

/**
 * Large files through every route that reads a blob or a diff, against a real server process
 * whose resident memory is read from /proc: a public project (anyone may ask, anonymously)
 * with a 200 MB binary, and a merge request adding a 300 MB text file beside an 8 MB text
 * rewritten whole. Files are random (nothing compresses them) and committed by real git.
 */

const TOKEN = `large-blobs-token-${crypto.randomBytes(6).toString('hex')}`;
const MB = 1024 * 1024;
/** What several requests at once may add to the server's resident memory, whatever the file. */
const MEMORY_BOUND = 150 * MB;

let installation: SharedInstallation;
let server: Instance;
let work: string;
let repo: string;
let project: { id: number };
let throttled: { id: number };
let bigBinSha = '';
const call = (method: string, p: string, body?: unknown) => callInstance(server.url, TOKEN, method, p, body);
const anonymous = (p: string, init: RequestInit = {}) => fetch(`${server.url}/api/v4${p}`, init);

before(async () => {
  installation = await sharedInstallation('large-blobs', TOKEN);
  server = await installation.start();
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-large-'));
  const group = (await call('POST', '/groups', { name: 'Large', path: `large-${crypto.randomBytes(3).toString('hex')}`, visibility: 'public' })).body;
  const create = async (name: string) => {
    const made = await call('POST', '/projects', { name, namespace_id: group.id, visibility: 'public' });
    assert.equal(made.status, 201, made.text);
    const first = await call('POST', `/projects/${made.body.id}/repository/commits`, { branch: 'main', commit_message: 'Start', actions: [{ action: 'create', file_path: 'README.md', content: '# Large\n' }] });
    assert.equal(first.status, 201, first.text);
    return { id: made.body.id as number };
  };
  project = await create('large');
  throttled = await create('throttled');
  repo = path.join(installation.dataDir, 'repositories', `${project.id}.git`);
  const file = (name: string) => ({ file: path.join(work, name) });
  bigBinSha = await writeRandomFile(path.join(work, 'big.bin'), 200 * MB, 'binary');
  await writeRandomFile(path.join(work, 'big.txt'), 300 * MB, 'text');
  await writeRandomFile(path.join(work, 'mid-1.txt'), 8 * MB, 'text');
  await writeRandomFile(path.join(work, 'mid-2.txt'), 8 * MB, 'text');
  // 2,000 lines of 160 characters: a 320 KB patch in few lines, under the safe limits.
  const wide = Array.from({ length: 2000 }, (_, i) => `${String(i).padStart(6, '0')} ${'w'.repeat(152)}\n`).join('');
  await commitFiles(repo, 'main', { 'big.bin': file('big.bin'), 'mid.txt': file('mid-1.txt') }, { message: 'Add the large files' });
  await commitFiles(repo, 'feature', { 'big.txt': file('big.txt'), 'mid.txt': file('mid-2.txt'), 'small.txt': 'hello\n', 'wide.txt': wide }, { from: 'main', message: 'Large changes' });
  // 1,001 files: one more than a diff collection shows.
  await commitFiles(repo, 'many', Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`many/f${String(i).padStart(4, '0')}.txt`, `file ${i}\n`])), { from: 'main', message: 'Many files' });
  for (const source of ['feature', 'many']) {
    const mr = await call('POST', `/projects/${project.id}/merge_requests`, { source_branch: source, target_branch: 'main', title: `Merge ${source}` });
    assert.equal(mr.status, 201, mr.text);
  }
  const throttledRepo = path.join(installation.dataDir, 'repositories', `${throttled.id}.git`);
  await writeRandomFile(path.join(work, 'eleven.bin'), 11 * MB, 'binary');
  await writeRandomFile(path.join(work, 'two.txt'), 2 * MB, 'text');
  await commitFiles(throttledRepo, 'main', { 'eleven.bin': file('eleven.bin'), 'two.txt': file('two.txt') });
  for (const f of fs.readdirSync(work)) if (f !== 'two.txt') fs.rmSync(path.join(work, f));
});
after(async () => {
  await installation?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

/**
 * Reads a files API answer as it comes, never whole: the JSON around the content (parsed, with
 * the content left out), and the content's decoded length and SHA-256.
 */
async function readStreamedFile(res: Response): Promise<{ fields: Record<string, unknown>; contentBytes: number; contentSha256: string; wireBytes: number }> {
  const marker = '"content":"';
  const hash = crypto.createHash('sha256');
  let before = '';
  let after = '';
  let inContent = false;
  let carry = '';
  let contentBytes = 0;
  let wireBytes = 0;
  const decode = (text: string) => {
    const all = carry + text;
    const whole = all.length - (all.length % 4);
    const bytes = Buffer.from(all.slice(0, whole), 'base64');
    hash.update(bytes);
    contentBytes += bytes.length;
    carry = all.slice(whole);
  };
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    wireBytes += chunk.length;
    let text = Buffer.from(chunk).toString('latin1');
    if (!inContent && !after) {
      before += text;
      const at = before.indexOf(marker);
      if (at < 0) continue;
      text = before.slice(at + marker.length);
      before = before.slice(0, at);
      inContent = true;
    }
    if (inContent) {
      const end = text.indexOf('"');
      if (end < 0) {
        decode(text);
        continue;
      }
      decode(text.slice(0, end));
      inContent = false;
      after = text.slice(end + 1);
      continue;
    }
    after += text;
  }
  assert.equal(carry, '', 'the base64 content ends on a whole group');
  const fields = JSON.parse(`${before}"content":""${after}`) as Record<string, unknown>;
  return { fields, contentBytes, contentSha256: hash.digest('hex'), wireBytes };
}

describe('GET /projects/:id/repository/files/:file_path with a large file', () => {
  it('answers a 200 MB file as the platform’s JSON, whole and right, to anonymous callers at once, in bounded memory', async (t) => {
    const { result, before: rss, peak } = await peakDuring(server.child.pid!, () =>
      Promise.all(
        [1, 2, 3].map(async () => {
          const res = await anonymous(`/projects/${project.id}/repository/files/big.bin?ref=main`);
          assert.equal(res.status, 200);
          assert.equal(res.headers.get('content-type'), 'application/json');
          const length = Number(res.headers.get('content-length'));
          return { length, ...(await readStreamedFile(res)) };
        }),
      ),
    );
    for (const r of result) {
      assert.equal(r.wireBytes, r.length, 'Content-Length is the answer’s length');
      assert.equal(r.contentBytes, 200 * MB);
      assert.equal(r.contentSha256, bigBinSha);
      const f = repositoryFile.parse({ ...r.fields, content: 'x' });
      assert.deepEqual([f.file_name, f.file_path, f.size, f.encoding, f.ref, f.content_sha256], ['big.bin', 'big.bin', 200 * MB, 'base64', 'main', bigBinSha]);
      assert.match(f.blob_id, /^[0-9a-f]{40}$/);
    }
    t.diagnostic(`files API, 3 × 200 MB at once: RSS ${Math.round(rss / MB)} MB → peak ${Math.round(peak / MB)} MB`);
    assert.ok(peak - rss < MEMORY_BOUND, `3 requests for a 200 MB file took the server from ${Math.round(rss / MB)} MB to ${Math.round(peak / MB)} MB`);
  });

  it('streams the raw file in bounded memory too', async (t) => {
    const { result, before: rss, peak } = await peakDuring(server.child.pid!, () =>
      Promise.all([1, 2, 3].map(async () => drain(await anonymous(`/projects/${project.id}/repository/files/big.bin/raw?ref=main`)))),
    );
    for (const r of result) assert.deepEqual([r.bytes, r.sha256], [200 * MB, bigBinSha]);
    t.diagnostic(`raw, 3 × 200 MB at once: RSS ${Math.round(rss / MB)} MB → peak ${Math.round(peak / MB)} MB`);
    assert.ok(peak - rss < MEMORY_BOUND, `3 raw requests for a 200 MB file took the server from ${Math.round(rss / MB)} MB to ${Math.round(peak / MB)} MB`);
  });

  it('counts reads of files past 10 MiB: five a minute for each project, then 429 pointing to the raw endpoint', async () => {
    const url = `/projects/${throttled.id}/repository/files/eleven.bin?ref=main`;
    // HEAD reads nothing: it says the answer's length and is not counted.
    for (let i = 0; i < 3; i++) {
      const head = await anonymous(url, { method: 'HEAD' });
      assert.deepEqual([head.status, head.headers.get('content-type'), await head.text()], [200, 'application/json', '']);
      assert.ok(Number(head.headers.get('content-length')) > (11 * MB * 4) / 3);
    }
    for (let i = 0; i < 5; i++) {
      const res = await anonymous(url);
      assert.equal(res.status, 200);
      assert.equal((await drain(res)).bytes, Number(res.headers.get('content-length')));
    }
    const refused = await anonymous(url);
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('content-type'), 'application/json');
    assert.ok(Number(refused.headers.get('retry-after')) > 0);
    assert.deepEqual(await refused.json(), {
      message: {
        error: "The requested blob is over the threshold size of 10485760.\nAccess this blob using '/projects/:id/repository/files/:file_path/raw' to avoid this error.\n",
      },
    });
    // The raw endpoint still serves it; smaller files are not counted; other projects have their own count.
    assert.equal((await anonymous(`/projects/${throttled.id}/repository/files/eleven.bin/raw?ref=main`)).status, 200);
    const two = await anonymous(`/projects/${throttled.id}/repository/files/two.txt?ref=main`);
    assert.equal(two.status, 200);
    const f = repositoryFile.parse(await two.json());
    assert.deepEqual(Buffer.from(f.content, 'base64'), fs.readFileSync(path.join(work, 'two.txt')));
    assert.equal(f.content_sha256, crypto.createHash('sha256').update(fs.readFileSync(path.join(work, 'two.txt'))).digest('hex'));
    assert.equal((await anonymous(`/projects/${throttled.id}/repository/files/two.txt?ref=main`)).status, 200);
  });
});

describe('diffs over large files', () => {
  /** The platform's flags of each file's change, and whether its patch is there. */
  const flags = (diffs: { new_path: string; diff: string; collapsed: boolean; too_large: boolean }[]) =>
    Object.fromEntries(diffs.map((d) => [d.new_path, { collapsed: d.collapsed, too_large: d.too_large, diff: d.diff.length > 80 ? `${d.diff.length} chars` : d.diff }]));
  const expected = {
    // Past git's big file threshold (50 MiB, as the platform's Gitaly sets it): a binary notice.
    'big.txt': { collapsed: false, too_large: false, diff: 'Binary files /dev/null and b/big.txt differ\n' },
    // 8 MB rewritten whole: about 220,000 lines, past the safe limits: collapsed, its patch left out.
    'mid.txt': { collapsed: true, too_large: false, diff: '' },
    'small.txt': { collapsed: false, too_large: false, diff: '@@ -0,0 +1 @@\n+hello\n' },
    // 320 KB in 2,000 lines: under the safe limits, past the 200 KiB of one patch.
    'wide.txt': { collapsed: false, too_large: true, diff: '' },
  };

  it('compares with each large change collapsed or too large, never a 500, in bounded memory', async (t) => {
    const { result, before: rss, peak } = await peakDuring(server.child.pid!, () =>
      Promise.all([1, 2, 3].map(() => anonymous(`/projects/${project.id}/repository/compare?from=main&to=feature`).then(async (r) => ({ status: r.status, body: await r.json() })))),
    );
    for (const r of result) {
      assert.equal(r.status, 200, JSON.stringify(r.body).slice(0, 300));
      const c = comparison.parse(r.body);
      assert.deepEqual(flags(c.diffs), expected);
      assert.equal(c.compare_timeout, false);
      assert.deepEqual(
        c.commits.map((x) => x.title),
        ['Large changes'],
      );
    }
    t.diagnostic(`compare, 3 at once: RSS ${Math.round(rss / MB)} MB → peak ${Math.round(peak / MB)} MB`);
    assert.ok(peak - rss < MEMORY_BOUND, `3 comparisons took the server from ${Math.round(rss / MB)} MB to ${Math.round(peak / MB)} MB`);
  });

  it('answers a merge request’s changes, diffs and commits over the same files', async (t) => {
    const { result, before: rss, peak } = await peakDuring(server.child.pid!, async () => {
      const changes = await anonymous(`/projects/${project.id}/merge_requests/1/changes`);
      const diffs = await anonymous(`/projects/${project.id}/merge_requests/1/diffs?per_page=100`);
      const commits = await anonymous(`/projects/${project.id}/merge_requests/1/commits`);
      return { changes: { status: changes.status, body: await changes.json() }, diffs: { status: diffs.status, body: await diffs.json() }, commits: { status: commits.status, body: await commits.json() } };
    });
    assert.equal(result.changes.status, 200, JSON.stringify(result.changes.body).slice(0, 300));
    const changes = mergeRequestChanges.parse(result.changes.body);
    assert.deepEqual(flags(changes.changes), expected);
    assert.deepEqual([changes.overflow, changes.changes_count], [false, '4']);
    assert.equal(result.diffs.status, 200, JSON.stringify(result.diffs.body).slice(0, 300));
    assert.deepEqual(flags(result.diffs.body.map((d: unknown) => mergeRequestDiff.parse(d))), expected);
    assert.equal(result.commits.status, 200);
    assert.deepEqual(
      result.commits.body.map((c: { title: string }) => c.title),
      ['Large changes'],
    );
    t.diagnostic(`merge request changes, diffs, commits: RSS ${Math.round(rss / MB)} MB → peak ${Math.round(peak / MB)} MB`);
    assert.ok(peak - rss < MEMORY_BOUND, `a merge request's changes, diffs and commits took the server from ${Math.round(rss / MB)} MB to ${Math.round(peak / MB)} MB`);
  });

  it('stops at 1,000 files: the comparison times out, the merge request overflows with "1000+" changes', async () => {
    const c = comparison.parse(await (await anonymous(`/projects/${project.id}/repository/compare?from=main&to=many`)).json());
    assert.equal(c.diffs.length, 1000);
    assert.equal(c.compare_timeout, true);
    assert.equal(c.diffs[999].new_path, 'many/f0999.txt');
    // Past 100 files the next ones are collapsed.
    assert.deepEqual([c.diffs[99].collapsed, c.diffs[100].collapsed, c.diffs[100].diff], [false, true, '']);
    const changes = mergeRequestChanges.parse(await (await anonymous(`/projects/${project.id}/merge_requests/2/changes`)).json());
    assert.deepEqual([changes.changes.length, changes.overflow, changes.changes_count], [1000, true, '1000+']);
  });
});
