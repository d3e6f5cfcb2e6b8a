import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repositoryIsEmpty } from './repository-state.ts';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-repo-state-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));

/** A bare repository's ref files, as git lays them out. */
function repository(name: string, files: Record<string, string>): string {
  const dir = path.join(root, name);
  fs.mkdirSync(path.join(dir, 'refs', 'heads'), { recursive: true });
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

describe('repositoryIsEmpty', () => {
  it('says empty for a repository never made, or one without a branch', () => {
    assert.equal(repositoryIsEmpty(path.join(root, 'never-made')), true);
    assert.equal(repositoryIsEmpty(repository('fresh', {})), true);
    assert.equal(repositoryIsEmpty(repository('locked', { 'refs/heads/main.lock': 'x' })), true);
    assert.equal(repositoryIsEmpty(repository('tags-only', { 'packed-refs': '# pack-refs\nabc refs/tags/v1\n' })), true);
  });

  it('says not empty for a branch loose, nested, or packed', () => {
    assert.equal(repositoryIsEmpty(repository('loose', { 'refs/heads/main': 'abc\n' })), false);
    assert.equal(repositoryIsEmpty(repository('nested', { 'refs/heads/feature/x': 'abc\n' })), false);
    assert.equal(repositoryIsEmpty(repository('packed', { 'packed-refs': '# pack-refs\nabc refs/heads/main\n' })), false);
  });
});
