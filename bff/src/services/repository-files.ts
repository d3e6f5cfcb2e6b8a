import crypto from 'node:crypto';
import type { Writable } from 'node:stream';
import { resolveCommit } from './branches.ts';
import { lastCommitOf } from './commits.ts';
import { git, gitText, spawnGit } from './git-run.ts';
import { notFound } from './errors.ts';

/** A file of the repository at a commit. */
export interface BlobAt {
  path: string;
  name: string;
  mode: string;
  sha: string;
  size: number;
  commit: string;
}

const isCleanPath = (p: string) => p.length > 0 && !p.startsWith('/') && p.split('/').every((part) => part !== '' && part !== '.' && part !== '..');

/** The file at `filePath` in the commit `ref` names: 404 Commit for a ref that names nothing, 404 File for a path that is no file. */
export async function blobAt(dir: string, ref: string, filePath: string): Promise<BlobAt> {
  const commit = await resolveCommit(dir, ref);
  if (!commit) throw notFound('Commit');
  if (!isCleanPath(filePath)) throw notFound('File');
  const out = await gitText(dir, ['ls-tree', '-z', '-l', commit, '--', filePath]);
  const line = out.split('\0').find((l) => l.slice(l.indexOf('\t') + 1) === filePath);
  if (!line) throw notFound('File');
  const [mode, type, sha, size] = line.slice(0, line.indexOf('\t')).split(/\s+/);
  if (type !== 'blob') throw notFound('File');
  return { path: filePath, name: filePath.split('/').pop()!, mode, sha, size: Number(size), commit };
}

export interface FileWithContent extends BlobAt {
  content: Buffer;
  contentSha256: string;
  lastCommitId: string;
}

/** The file and its content, with the last commit that changed it. */
export async function readFile(dir: string, ref: string, filePath: string): Promise<FileWithContent> {
  const blob = await blobAt(dir, ref, filePath);
  const [content, last] = await Promise.all([git(dir, ['cat-file', 'blob', blob.sha]), lastCommitOf(dir, blob.commit, filePath)]);
  return { ...blob, content, contentSha256: crypto.createHash('sha256').update(content).digest('hex'), lastCommitId: last ?? blob.commit };
}

/**
 * Streams a blob to `out`, nothing held whole in memory. `start` is called with the first bytes
 * before any is written (to choose the content type), so headers can still be set.
 */
export function streamBlob(dir: string, sha: string, out: Writable, start: (head: Buffer) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawnGit(dir, ['cat-file', 'blob', sha]);
    child.stdin.end();
    let started = false;
    const begin = (head: Buffer) => {
      if (started) return;
      started = true;
      start(head);
    };
    child.stdout.once('data', (head: Buffer) => {
      child.stdout.pause();
      begin(head);
      out.write(head);
      child.stdout.pipe(out);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`git cat-file exited ${code}`));
      // An empty file: nothing was piped, so the answer is ended here.
      if (!started) {
        begin(Buffer.alloc(0));
        out.end();
      }
      resolve();
    });
    out.on('close', () => child.kill());
  });
}

/** Text or binary as git decides: a NUL in the first 8,000 bytes. */
export const looksBinary = (head: Buffer) => head.subarray(0, 8000).includes(0);
