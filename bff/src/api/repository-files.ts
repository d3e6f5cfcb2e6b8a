import {
  blameQuery,
  blameRange,
  repositoryFile,
  repositoryFileCommit,
  repositoryFileDeleteBody,
  repositoryFileQuery,
  repositoryFileWriteBody,
  repositoryRawFileQuery,
} from '../../../shared/src/repository-files.ts';
import { repositoryPath } from '../../../shared/src/commits.ts';
import { z } from 'zod';
import { ApiError } from '../http/errors.ts';
import { defineRoute, FileAnswer } from '../http/route.ts';
import * as files from '../services/git/repository-files.ts';
import { blame } from '../services/git/blame.ts';
import { presentBlameRange, presentRepositoryFile, repositoryFileFrame } from '../presenters/repository-files.ts';
import { withRepository } from './branches.ts';
import { apiCommitTarget } from './commits.ts';

const area = 'repository-files';
const base = '/projects/:id/repository/files/:file_path';
/** The file's path, URL-encoded (`lib%2Fclass.rb`). */
const fileParam = { file_path: z.string().min(1).max(4096) };

/**
 * A file past INLINE_FILE_BYTES, answered as the same JSON with its base64 content streamed
 * from git: the answer's length is known before (Content-Length), so a client sees a cut one.
 */
function streamedFile(dir: string, blob: files.BlobAt, lastCommitId: string, ref: string): FileAnswer {
  const frame = repositoryFileFrame({ ...blob, lastCommitId }, ref);
  const length = Buffer.byteLength(frame.head) + files.base64Length(blob.size) + Buffer.byteLength(frame.tail('0'.repeat(64)));
  // Exactly application/json, as every JSON answer.
  return new FileAnswer({ 'Content-Type': 'application/json', 'Content-Length': String(length) }, async (out) => {
    if (out.req.method === 'HEAD') {
      out.end();
      return;
    }
    out.write(frame.head);
    try {
      out.end(frame.tail(await files.streamBlobBase64(dir, blob.sha, out)));
    } catch (e) {
      // The status has gone: a client that left needs nothing, one still there gets a cut answer.
      if (!out.destroyed) out.req.log?.error({ err: e }, 'a file could not be streamed whole');
      out.destroy();
    }
  });
}

/** A path to write: relative, without `.`, `..` or empty parts, not in `.git`; otherwise the platform's 400 of its file path check. */
function writablePath(p: string): string {
  if (!repositoryPath.safeParse(p).success) throw new ApiError(400, { error: 'file_path should be a valid file path' });
  return p;
}

const TEXT = 'text/plain; charset=utf-8';
const BINARY = 'application/octet-stream';

/** A file's raw bytes streamed from git, typed text or binary by its first bytes (set before any is written). */
function rawFile(dir: string, blob: files.BlobAt): FileAnswer {
  const headers = {
    'Content-Length': String(blob.size),
    'Content-Disposition': `inline; filename="${blob.name.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(blob.name)}`,
    'X-Content-Type-Options': 'nosniff',
    'X-Gitlab-Blob-Id': blob.sha,
    'X-Gitlab-Commit-Id': blob.commit,
    'X-Gitlab-File-Path': encodeURIComponent(blob.path),
    'X-Gitlab-Size': String(blob.size),
  };
  return new FileAnswer(headers, (out) => files.streamBlob(dir, blob.sha, out, (head) => out.setHeader('Content-Type', files.looksBinary(head) ? BINARY : TEXT)));
}
/** POST creates a file, PUT updates one: a commit each, written and checked as any commit through the API. */
function writeRoute(method: 'post' | 'put', action: 'create' | 'update', summary: string) {
  return defineRoute({
    method,
    path: base,
    area,
    summary,
    load: 'project',
    permission: 'push_code',
    params: fileParam,
    ...withRepository,
    body: repositoryFileWriteBody,
    response: repositoryFileCommit,
    handler: async (ctx) => {
      await files.commitFile(apiCommitTarget(ctx), action, writablePath(ctx.params.file_path), ctx.body);
      return { file_path: ctx.params.file_path, branch: ctx.body.branch };
    },
  });
}

export const repositoryFileRoutes = [
  defineRoute({
    method: 'get',
    path: base,
    area,
    summary:
      'Get a file at a ref: its metadata and its content in base64 (streamed past 1 MiB; past 10 MiB, 5 a minute for each project, then 429 pointing to the raw endpoint)',
    auth: 'optional',
    load: 'project',
    permission: 'download_code',
    params: fileParam,
    ...withRepository,
    query: repositoryFileQuery,
    response: repositoryFile,
    errors: [429],
    handler: async (ctx) => {
      const blob = await files.blobAt(ctx.repo.dir, ctx.query.ref, ctx.params.file_path);
      if (blob.size <= files.INLINE_FILE_BYTES) return files.readFile(ctx.repo.dir, blob);
      // Only reads count, as on the platform (whose HEAD of a file is a route of its own).
      if (ctx.req.method !== 'HEAD') await files.countLargeBlobRead(ctx.db, ctx.project.id, blob);
      return streamedFile(ctx.repo.dir, blob, await files.lastCommitId(ctx.repo.dir, blob), ctx.query.ref);
    },
    // Only a file read whole comes here: a streamed one is answered as it is.
    present: (f, ctx) => presentRepositoryFile(f, ctx.query.ref),
  }),
  defineRoute({
    method: 'get',
    path: `${base}/raw`,
    area,
    summary: 'Get a file’s raw content at a ref (the default branch by default), streamed',
    auth: 'optional',
    load: 'project',
    permission: 'download_code',
    params: fileParam,
    ...withRepository,
    query: repositoryRawFileQuery,
    file: [TEXT, BINARY],
    handler: async (ctx) => {
      const blob = await files.blobAt(ctx.repo.dir, ctx.query.ref ?? ctx.repo.defaultBranch, ctx.params.file_path);
      return rawFile(ctx.repo.dir, blob);
    },
  }),
  defineRoute({
    method: 'get',
    path: `${base}/blame`,
    area,
    summary: 'Blame a file at a ref: groups of consecutive lines with the commit that last changed them (range[start], range[end] limit the lines)',
    auth: 'optional',
    load: 'project',
    permission: 'download_code',
    params: fileParam,
    ...withRepository,
    query: blameQuery,
    response: z.array(blameRange),
    handler: async (ctx) => blame(ctx.repo.dir, ctx.query.ref, ctx.params.file_path, ctx.query.range),
    present: presentBlameRange,
  }),
  writeRoute('post', 'create', 'Create a file on a branch as one commit (Developer; the default branch: Maintainer), checked and announced as a commit through the API'),
  writeRoute('put', 'update', 'Update a file on a branch as one commit (last_commit_id: refused if the file changed since), checked and announced as a commit through the API'),
  defineRoute({
    method: 'delete',
    path: base,
    area,
    summary: 'Delete a file on a branch as one commit, checked and announced as a commit through the API',
    load: 'project',
    permission: 'push_code',
    params: fileParam,
    ...withRepository,
    body: repositoryFileDeleteBody,
    handler: async (ctx) => {
      await files.commitFile(apiCommitTarget(ctx), 'delete', writablePath(ctx.params.file_path), ctx.body);
    },
  }),
];
