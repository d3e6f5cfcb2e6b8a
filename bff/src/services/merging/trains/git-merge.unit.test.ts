import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gitText } from '../../git/git-run.ts';
import { MergeConflict, mergeOf, mergeResult, NeedsRebase, swapRef, trainCommit } from './git-merge.ts';

const who = { name: 'Ada', email: 'ada@example.com' };
let dir: string;
let base: string;

/** A commit on `parent` with `files` written over its tree, made with plumbing in the bare repository. */
async function commit(parent: string | null, files: Record<string, string>, message: string): Promise<string> {
  const index = path.join(dir, `index-${Math.random()}`);
  const env = { GIT_INDEX_FILE: index, GIT_AUTHOR_NAME: 'Ada', GIT_AUTHOR_EMAIL: 'a@e', GIT_COMMITTER_NAME: 'Ada', GIT_COMMITTER_EMAIL: 'a@e' };
  await gitText(dir, parent ? ['read-tree', parent] : ['read-tree', '--empty'], { env });
  for (const [file, content] of Object.entries(files)) {
    const blob = (await gitText(dir, ['hash-object', '-w', '--stdin'], { input: content })).trim();
    await gitText(dir, ['update-index', '--add', '--cacheinfo', `100644,${blob},${file}`], { env });
  }
  const tree = (await gitText(dir, ['write-tree'], { env })).trim();
  fs.rmSync(index, { force: true });
  return (await gitText(dir, ['commit-tree', tree, ...(parent ? ['-p', parent] : []), '-m', message], { env })).trim();
}
const show = async (sha: string, file: string) => gitText(dir, ['show', `${sha}:${file}`]);

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-merge-'));
  await gitText(dir, ['init', '--quiet', '--bare']);
  base = await commit(null, { 'README.md': 'one\n' }, 'Initial');
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('merging in a bare repository', () => {
  it('makes a merge commit of two diverged branches with both changes', async () => {
    const target = await commit(base, { 'a.txt': 'a\n' }, 'A');
    const source = await commit(base, { 'b.txt': 'b\n' }, 'B');
    const { sha, squashSha } = await mergeResult(dir, { target, source, method: 'merge', message: 'Merge B', who });
    assert.equal(squashSha, null);
    assert.equal((await gitText(dir, ['log', '-1', '--format=%P', sha])).trim(), `${target} ${source}`);
    assert.equal(await show(sha, 'a.txt'), 'a\n');
    assert.equal(await show(sha, 'b.txt'), 'b\n');
  });

  it('reports the conflicting paths', async () => {
    const target = await commit(base, { 'README.md': 'two\n' }, 'T');
    const source = await commit(base, { 'README.md': 'three\n' }, 'S');
    await assert.rejects(trainCommit(dir, target, source, 'm', who), (e: unknown) => e instanceof MergeConflict && e.paths.includes('README.md'));
  });

  it('fast-forwards with ff, and refuses a source that is behind', async () => {
    const source = await commit(base, { 'c.txt': 'c\n' }, 'C');
    assert.equal((await mergeResult(dir, { target: base, source, method: 'ff', message: 'm', who })).sha, source);
    const moved = await commit(base, { 'd.txt': 'd\n' }, 'D');
    await assert.rejects(mergeResult(dir, { target: moved, source, method: 'ff', message: 'm', who }), NeedsRebase);
    await assert.rejects(mergeResult(dir, { target: moved, source, method: 'rebase_merge', message: 'm', who }), NeedsRebase);
  });

  it('squashes the source into one commit before merging', async () => {
    const one = await commit(base, { 'e.txt': 'e1\n' }, 'E1');
    const two = await commit(one, { 'e.txt': 'e2\n' }, 'E2');
    const { sha, squashSha } = await mergeResult(dir, { target: base, source: two, method: 'merge', message: 'Merge E', squash: { message: 'E squashed' }, who });
    assert.equal((await gitText(dir, ['log', '-1', '--format=%P%n%s', squashSha!])).trim(), `${base}\nE squashed`);
    assert.equal(await show(sha, 'e.txt'), 'e2\n');
  });

  it('moves a ref only from the value it still has', async () => {
    const next = await commit(base, { 'f.txt': 'f\n' }, 'F');
    assert.equal(await swapRef(dir, 'refs/heads/main', base, '', 'create'), true);
    assert.equal(await swapRef(dir, 'refs/heads/main', next, next, 'stale'), false);
    assert.equal(await swapRef(dir, 'refs/heads/main', next, base, 'move'), true);
    assert.equal(await swapRef(dir, 'refs/heads/main', '0'.repeat(40), next, 'delete'), true);
    assert.equal(await swapRef(dir, 'refs/heads/main', base, '', 'again'), true);
  });

  it('tells whether a commit is the train commit of exactly this base and source (what a merge train may move its target to)', async () => {
    const approved = await commit(base, { 'g.txt': 'g\n' }, 'G');
    const pushedLater = await commit(approved, { 'h.txt': 'h\n' }, 'H');
    const train = await trainCommit(dir, base, approved, 'Merge G', who);
    assert.equal(await mergeOf(dir, train, base, approved), true);
    assert.equal(await mergeOf(dir, train, base, pushedLater), false);
    assert.equal(await mergeOf(dir, await trainCommit(dir, base, pushedLater, 'Merge H', who), base, approved), false);
    assert.equal(await mergeOf(dir, train, approved, base), false, 'parents in order');
    assert.equal(await mergeOf(dir, approved, base, approved), false, 'not a merge');
    assert.equal(await mergeOf(dir, '0'.repeat(40), base, approved), false, 'no such commit');
  });
});
