import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DIFF_LIMITS, DiffReader, readDiffs, type DiffCollection, type DiffLimits } from './diffs.ts';

/**
 * The diff reader on real git output: a repository made with git in a temporary folder, its
 * `git diff --raw -z --patch` fed to the reader whole, a byte at a time and in odd chunks,
 * with the platform's limits made small enough to reach.
 */
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-diffs-'));
const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@example.com' };
const git = (...args: string[]) => execFileSync('git', ['-C', root, ...args], { env, maxBuffer: 64 * 1024 * 1024 });
const write = (p: string, content: string | Buffer) => {
  fs.mkdirSync(path.dirname(path.join(root, p)), { recursive: true });
  fs.writeFileSync(path.join(root, p), content);
};
const lines = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix} ${i}\n`).join('');

let from = '';
let to = '';
let output: Buffer;

before(() => {
  git('init', '--quiet', '--initial-branch=main');
  write('a.txt', 'one\ntwo\nthree\n');
  write('b.txt', lines(50, 'b'));
  write('c.txt', lines(50, 'c'));
  write('moved.txt', lines(20, 'moved'));
  write('kind', 'a file that becomes a link\n');
  write('logo.bin', Buffer.from([0x89, 0x50, 0, 1, 2]));
  git('add', '-A');
  git('commit', '--quiet', '-m', 'one');
  from = git('rev-parse', 'HEAD').toString().trim();
  write('a.txt', 'one\n2\nthree\n');
  write('b.txt', lines(50, 'B'));
  write('c.txt', lines(50, 'C'));
  fs.renameSync(path.join(root, 'moved.txt'), path.join(root, 'renamed.txt'));
  fs.rmSync(path.join(root, 'kind'));
  fs.symlinkSync('a.txt', path.join(root, 'kind'));
  write('logo.bin', Buffer.from([0x89, 0x50, 0, 9, 9]));
  // One line of 300 KB with no newline at its end: a patch past 200 KiB in one line.
  write('wide.min.js', 'x'.repeat(300 * 1024));
  git('add', '-A');
  git('commit', '--quiet', '-m', 'two');
  to = git('rev-parse', 'HEAD').toString().trim();
  output = git('diff', '--raw', '-z', '-M', '--full-index', '--patch', '--no-color', '--no-ext-diff', from, to, '--');
});
after(() => fs.rmSync(root, { recursive: true, force: true }));

function read(collapse: boolean, limits: DiffLimits, chunk = output.length): DiffCollection {
  const reader = new DiffReader(collapse, limits);
  for (let at = 0; at < output.length && reader.push(output.subarray(at, at + chunk)); at += chunk);
  return reader.end();
}
const byPath = (c: DiffCollection) => Object.fromEntries(c.diffs.map((d) => [`${d.newFile ? '+' : d.deletedFile ? '-' : ''}${d.newPath}`, d]));

describe('DiffReader', () => {
  it('reads each file’s change from its first hunk, with modes and flags, binaries as git’s notice, a type change as a deletion and an addition', () => {
    const c = read(false, DIFF_LIMITS);
    assert.equal(c.overflow, false);
    const d = byPath(c);
    assert.deepEqual(Object.keys(d).sort(), ['+kind', '+wide.min.js', '-kind', 'a.txt', 'b.txt', 'c.txt', 'logo.bin', 'renamed.txt']);
    assert.equal(d['a.txt'].diff, '@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n');
    assert.equal(d['logo.bin'].diff, 'Binary files a/logo.bin and b/logo.bin differ\n');
    assert.deepEqual([d['renamed.txt'].oldPath, d['renamed.txt'].renamedFile, d['renamed.txt'].diff], ['moved.txt', true, '']);
    assert.deepEqual([d['-kind'].aMode, d['-kind'].bMode, d['+kind'].aMode, d['+kind'].bMode], ['100644', '000000', '000000', '120000']);
    assert.equal(d['+kind'].diff, '@@ -0,0 +1 @@\n+a.txt\n\\ No newline at end of file\n');
    // The 300 KB line is past the 200 KiB of one patch: left out, too large.
    assert.deepEqual([d['+wide.min.js'].diff, d['+wide.min.js'].tooLarge, d['+wide.min.js'].collapsed], ['', true, false]);
    for (const k of ['a.txt', 'b.txt', 'logo.bin']) assert.deepEqual([d[k].tooLarge, d[k].collapsed], [false, false]);
  });

  it('reads the same whatever the chunks git’s output comes in', () => {
    const whole = JSON.stringify(read(true, DIFF_LIMITS));
    for (const size of [1, 2, 7, 11, 12, 64, 4093]) assert.equal(JSON.stringify(read(true, DIFF_LIMITS, size)), whole, `chunks of ${size}`);
    const small = { ...DIFF_LIMITS, safeMaxLines: 60, maxPatchBytes: 1000 };
    const wholeSmall = JSON.stringify(read(true, small));
    for (const size of [1, 3, 11, 100]) assert.equal(JSON.stringify(read(true, small, size)), wholeSmall, `limited, chunks of ${size}`);
  });

  it('collapses the patches past the safe limits when collapsing, and marks too large a patch past its own limit otherwise', () => {
    // Files come in path order: a.txt (4 lines), b.txt (100), c.txt (100), kind, logo.bin, renamed.txt, wide.min.js.
    const limits = { ...DIFF_LIMITS, safeMaxLines: 50, maxPatchBytes: 1500 };
    const collapsed = byPath(read(true, limits));
    assert.deepEqual([collapsed['a.txt'].collapsed, collapsed['a.txt'].diff.length > 0], [false, true]);
    // b.txt takes the count past 50 lines: collapsed, emptied, not too large; a collapsed patch
    // leaves the count (as the platform's parser prunes it), so c.txt is collapsed on its own
    // 100 lines and the small ones after it are not.
    for (const k of ['b.txt', 'c.txt']) assert.deepEqual([collapsed[k].collapsed, collapsed[k].tooLarge, collapsed[k].diff], [true, false, ''], k);
    for (const k of ['-kind', '+kind', 'logo.bin']) assert.deepEqual([collapsed[k].collapsed, collapsed[k].diff.length > 0], [false, true], k);
    // The one 300 KB line is under the safe lines and bytes (512,000): not collapsed, but too large.
    assert.deepEqual([collapsed['+wide.min.js'].collapsed, collapsed['+wide.min.js'].tooLarge], [false, true]);
    // Past the safe bytes it would have been collapsed (and so not too large).
    const bytes = byPath(read(true, { ...DIFF_LIMITS, safeMaxBytes: 300 * 1024 }));
    assert.deepEqual([bytes['+wide.min.js'].collapsed, bytes['+wide.min.js'].tooLarge, bytes['a.txt'].collapsed], [true, false, false]);
    // Without lines there is nothing to collapse: a pure rename stays as it is.
    assert.equal(collapsed['renamed.txt'].collapsed, false);
    const expanded = byPath(read(false, { ...limits, maxPatchBytes: 500 }));
    // Not collapsing, b.txt's patch (about 700 bytes) is over 500: too large; a.txt and the small ones keep theirs.
    assert.deepEqual([expanded['b.txt'].tooLarge, expanded['b.txt'].collapsed, expanded['b.txt'].diff], [true, false, '']);
    assert.equal(expanded['a.txt'].diff, '@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n');
    assert.equal(expanded['logo.bin'].diff, 'Binary files a/logo.bin and b/logo.bin differ\n');
  });

  it('stops at the max limits: the file past them and every later one are left out, and the collection overflows', () => {
    const byFiles = read(false, { ...DIFF_LIMITS, maxFiles: 2 });
    assert.deepEqual(
      byFiles.diffs.map((d) => d.newPath),
      ['a.txt', 'b.txt'],
    );
    assert.equal(byFiles.overflow, true);
    // a.txt counts 4 lines, b.txt 100 more: the 100th line is reached within b.txt, which goes.
    const byLines = read(false, { ...DIFF_LIMITS, maxLines: 100 });
    assert.deepEqual([byLines.diffs.map((d) => d.newPath), byLines.overflow], [['a.txt'], true]);
    // Bytes: a.txt's content lines are 20 bytes.
    const byBytes = read(false, { ...DIFF_LIMITS, maxBytes: 21 });
    assert.deepEqual([byBytes.diffs.map((d) => d.newPath), byBytes.overflow], [['a.txt'], true]);
    // A too large patch does not count towards them: pruned, it leaves the collection whole.
    const pruned = read(false, { ...DIFF_LIMITS, maxPatchBytes: 500, maxLines: 150 });
    assert.equal(pruned.overflow, false);
    assert.deepEqual(
      pruned.diffs.filter((d) => d.tooLarge).map((d) => d.newPath),
      ['b.txt', 'c.txt', 'wide.min.js'],
    );
    assert.equal(pruned.diffs.length, 8);
  });
});

describe('readDiffs', () => {
  it('reads git’s diff of two commits as the reader does, and stops git once the collection overflows', async () => {
    const c = await readDiffs(root, from, to, { collapse: false });
    assert.deepEqual(c, read(false, DIFF_LIMITS));
    const cut = await readDiffs(root, from, to, { collapse: false, limits: { ...DIFF_LIMITS, maxFiles: 1 } });
    assert.deepEqual([cut.diffs.map((d) => d.newPath), cut.overflow], [['a.txt'], true]);
  });
});
