import crypto from 'node:crypto';
import { Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Db } from '../../db/index.ts';
import { resolveCommit } from './branches.ts';
import { lastCommitOf } from './commits.ts';
import { git, GitError, gitText, spawnGit } from './git-run.ts';
import { hit } from '../rate-limits.ts';
import { commitAsPush, FileChangedError } from './commit-create.ts';
import { badRequest, notFound, tooManyRequests } from '../../util/errors.ts';
import type { CommitAction, CommitCreateBody } from '../../../../shared/src/commits.ts';
import type { RepositoryFileDeleteBody, RepositoryFileWriteBody } from '../../../../shared/src/repository-files.ts';

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

/**
 * Files up to this size are read into memory and answered whole; larger ones are streamed
 * (streamBlobBase64), so what one request holds does not grow with the file.
 */
export const INLINE_FILE_BYTES = 1024 * 1024;

/** The last commit up to the blob's that changed its path. */
export const lastCommitId = async (dir: string, blob: BlobAt): Promise<string> => (await lastCommitOf(dir, blob.commit, blob.path)) ?? blob.commit;

/** A file of at most INLINE_FILE_BYTES and its content, with the last commit that changed it. */
export async function readFile(dir: string, blob: BlobAt): Promise<FileWithContent> {
  const [content, last] = await Promise.all([git(dir, ['cat-file', 'blob', blob.sha], { maxBytes: INLINE_FILE_BYTES }), lastCommitId(dir, blob)]);
  return { ...blob, content, contentSha256: crypto.createHash('sha256').update(content).digest('hex'), lastCommitId: last };
}

/**
 * Past this size a file read as JSON (base64) counts against its project's large blob limit,
 * and the answer past the limit points to the raw endpoint: the platform's
 * API::Helpers::BlobHelpers (MAX_BLOB_SIZE 10 MiB, rate limit large_blob_download: 5 a minute
 * for each project), whose message names the threshold in bytes.
 */
export const LARGE_BLOB_BYTES = 10 * 1024 * 1024;
const LARGE_BLOB_READS_PER_MINUTE = 5;
const LARGE_FILE_THROTTLED =
  `The requested blob is over the threshold size of ${LARGE_BLOB_BYTES}.\n` + "Access this blob using '/projects/:id/repository/files/:file_path/raw' to avoid this error.\n";

/** Counts a read of a large file for its project; 429 past the limit (every instance shares the count). */
export async function countLargeBlobRead(db: Db, projectId: number, blob: BlobAt): Promise<void> {
  if (blob.size <= LARGE_BLOB_BYTES) return;
  const { count, retryAfterSeconds } = await hit(db, `large_blob_download:${projectId}`, 60_000, 1);
  if (count > LARGE_BLOB_READS_PER_MINUTE) throw tooManyRequests(retryAfterSeconds, LARGE_FILE_THROTTLED);
}

/** The length of a blob of `size` bytes in base64. */
export const base64Length = (size: number) => 4 * Math.ceil(size / 3);

/**
 * Writes a blob to `out` in base64 as git reads it, and answers its SHA-256; `out` is left open
 * for what follows. Three bytes make four characters: a chunk's last one or two bytes wait
 * for the next. Nothing is held but a chunk, however large the blob; if `out` closes first
 * (the client went away), git is stopped and this rejects.
 */
export async function streamBlobBase64(dir: string, sha: string, out: Writable): Promise<string> {
  const child = spawnGit(dir, ['cat-file', 'blob', sha]);
  child.stdin.end();
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  const hash = crypto.createHash('sha256');
  let carry = Buffer.alloc(0);
  const encode = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      const data = carry.length ? Buffer.concat([carry, chunk]) : chunk;
      const whole = data.length - (data.length % 3);
      carry = Buffer.from(data.subarray(whole));
      done(null, data.subarray(0, whole).toString('base64'));
    },
    flush(done) {
      done(null, carry.toString('base64'));
    },
  });
  try {
    await pipeline(child.stdout, encode, out, { end: false });
  } finally {
    if (child.exitCode === null) child.kill();
  }
  const code = await exited;
  if (code !== 0) throw new GitError(['cat-file', 'blob', sha], code, 'the blob could not be read whole');
  return hash.digest('hex');
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

/** The file writes of the files API, each one commit of one action. */
export type FileWrite = 'create' | 'update' | 'delete';

/** What the platform's Files services answer when `last_commit_id` is not the file's last commit. */
const FILE_CHANGED: Record<FileWrite, string> = {
  create: 'You are attempting to update a file that has changed since you started editing it.',
  update: 'You are attempting to update a file that has changed since you started editing it.',
  delete: 'You are attempting to delete a file that has been previously updated.',
};

/**
 * A file created, updated or deleted as one commit made through the same path as the commits
 * API's (commitAsPush): the same branch and push rule checks before the branch moves, and the
 * same push event, webhooks and notifier events after, as a push of it would fire.
 * Answers the new commit's id.
 */
export async function commitFile(
  to: Parameters<typeof commitAsPush>[0],
  write: FileWrite,
  filePath: string,
  body: RepositoryFileDeleteBody & Partial<Omit<RepositoryFileWriteBody, keyof RepositoryFileDeleteBody>>,
): Promise<string> {
  const action: CommitAction = {
    action: write,
    file_path: filePath,
    ...(write === 'delete' ? {} : { content: body.content ?? '', encoding: body.encoding, execute_filemode: body.execute_filemode }),
    ...(write === 'update' && body.last_commit_id ? { last_commit_id: body.last_commit_id } : {}),
  };
  const commit: CommitCreateBody = {
    branch: body.branch,
    commit_message: body.commit_message,
    start_branch: body.start_branch,
    author_email: body.author_email,
    author_name: body.author_name,
    actions: [action],
  };
  try {
    return await commitAsPush(to, commit);
  } catch (e) {
    if (e instanceof FileChangedError) throw badRequest(FILE_CHANGED[write]);
    throw e;
  }
}
