import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { changeLabel, diffStats, fileView, parseDiff, type FileChange } from './diff-model.ts';

const file = (over: Partial<FileChange>): FileChange => ({ diff: '', old_path: 'a.js', new_path: 'a.js', new_file: false, renamed_file: false, deleted_file: false, collapsed: false, too_large: false, a_mode: '100644', b_mode: '100644', ...over });

describe('parseDiff', () => {
  it('numbers context lines on both sides, added lines on the new side, removed lines on the old side, from each hunk header', () => {
    const lines = parseDiff('@@ -10,3 +10,4 @@ function a()\n keep\n-old\n+new\n+more\n tail\n@@ -40 +41 @@\n-x\n+y\n');
    assert.deepEqual(
      lines.map((l) => [l.kind, l.oldLine, l.newLine, l.text]),
      [
        ['hunk', null, null, '@@ -10,3 +10,4 @@ function a()'],
        ['context', 10, 10, 'keep'],
        ['del', 11, null, 'old'],
        ['add', null, 11, 'new'],
        ['add', null, 12, 'more'],
        ['context', 12, 13, 'tail'],
        ['hunk', null, null, '@@ -40 +41 @@'],
        ['del', 40, null, 'x'],
        ['add', null, 41, 'y'],
      ],
    );
    assert.deepEqual(diffStats(lines), { added: 3, removed: 2 });
  });

  it('keeps "No newline at end of file" as a note numbered by neither side, and reads an empty patch as no lines', () => {
    const lines = parseDiff('@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n');
    assert.deepEqual(lines.map((l) => l.kind), ['hunk', 'del', 'note', 'add']);
    assert.equal(lines[2].text, 'No newline at end of file');
    assert.equal(lines[3].newLine, 1);
    assert.deepEqual(parseDiff(''), []);
  });

  it('a new file counts from line 1 of the new side; lines that look like headers inside a hunk stay content', () => {
    const lines = parseDiff('@@ -0,0 +1,2 @@\n+++ not a header\n+--- nor this\n');
    assert.deepEqual(lines.slice(1).map((l) => [l.kind, l.newLine, l.text]), [['add', 1, '++ not a header'], ['add', 2, '--- nor this']]);
  });
});

describe('how a file is shown', () => {
  const long = `@@ -0,0 +1,250 @@\n${Array.from({ length: 250 }, (_, i) => `+line ${i}`).join('\n')}\n`;
  it('collapses a file past the threshold, or one the API marked collapsed, behind "Show file"', () => {
    assert.equal(fileView(file({ diff: long }), parseDiff(long)), 'long');
    assert.equal(fileView(file({ diff: long }), parseDiff(long), 300), 'open');
    const short = '@@ -1 +1 @@\n-a\n+b\n';
    assert.equal(fileView(file({ diff: short }), parseDiff(short)), 'open');
    assert.equal(fileView(file({ diff: short, collapsed: true }), parseDiff(short)), 'long');
  });
  it('says when the server left the patch out (too large, or past the limits) and when a change has no lines', () => {
    assert.equal(fileView(file({ too_large: true }), []), 'left-out');
    assert.equal(fileView(file({ collapsed: true }), []), 'left-out');
    assert.equal(fileView(file({ renamed_file: true }), []), 'no-lines');
  });
  it('labels new, deleted, renamed and mode-changed files', () => {
    assert.equal(changeLabel(file({ new_file: true, a_mode: '0' })), 'New file');
    assert.equal(changeLabel(file({ deleted_file: true, b_mode: '0' })), 'Deleted');
    assert.equal(changeLabel(file({ renamed_file: true, old_path: 'docs/logging.md', new_path: 'docs/configuration.md' })), 'Renamed from docs/logging.md');
    assert.equal(changeLabel(file({ b_mode: '100755' })), 'Mode 100644 → 100755');
    assert.equal(changeLabel(file({})), null);
  });
});
