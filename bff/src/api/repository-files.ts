import { repositoryFile, repositoryFileQuery, repositoryRawFileQuery } from '../../../shared/src/repository-files.ts';
import { z } from 'zod';
import { defineRoute, type RouteContext } from '../http/route.ts';
import * as files from '../services/git/repository-files.ts';
import { presentRepositoryFile, repositoryFileFrame } from '../presenters/repository-files.ts';
import { withRepository } from './branches.ts';

const area = 'repository-files';
const base = '/projects/:id/repository/files/:file_path';
/** The file's path, URL-encoded (`lib%2Fclass.rb`). */
const fileParam = { file_path: z.string().min(1).max(4096) };

/**
 * A file past INLINE_FILE_BYTES, answered as the same JSON with its base64 content streamed
 * from git: the answer's length is known before (Content-Length), so a client sees a cut one.
 */
async function streamFile(ctx: Pick<RouteContext, 'req' | 'res'>, dir: string, blob: files.BlobAt, lastCommitId: string, ref: string): Promise<void> {
  const frame = repositoryFileFrame({ ...blob, lastCommitId }, ref);
  const length = Buffer.byteLength(frame.head) + files.base64Length(blob.size) + Buffer.byteLength(frame.tail('0'.repeat(64)));
  // Exactly application/json, as every JSON answer (Express's set would add a charset).
  ctx.res.status(200).setHeader('Content-Type', 'application/json');
  ctx.res.setHeader('Content-Length', length);
  if (ctx.req.method === 'HEAD') {
    ctx.res.end();
    return;
  }
  ctx.res.write(frame.head);
  try {
    ctx.res.end(frame.tail(await files.streamBlobBase64(dir, blob.sha, ctx.res)));
  } catch (e) {
    // The status has gone: a client that left needs nothing, one still there gets a cut answer.
    if (!ctx.res.destroyed) ctx.req.log?.error({ err: e }, 'a file could not be streamed whole');
    ctx.res.destroy();
  }
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
      await streamFile(ctx, ctx.repo.dir, blob, await files.lastCommitId(ctx.repo.dir, blob), ctx.query.ref);
      return undefined;
    },
    // Only a file read whole comes here: a streamed one has been answered.
    present: (f, ctx) => presentRepositoryFile(f!, ctx.query.ref),
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
    handler: async (ctx) => {
      const blob = await files.blobAt(ctx.repo.dir, ctx.query.ref ?? ctx.repo.defaultBranch, ctx.params.file_path);
      await files.streamBlob(ctx.repo.dir, blob.sha, ctx.res, (head) => {
        ctx.res.status(200).set({
          'Content-Type': files.looksBinary(head) ? 'application/octet-stream' : 'text/plain; charset=utf-8',
          'Content-Length': String(blob.size),
          'Content-Disposition': `inline; filename="${blob.name.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(blob.name)}`,
          'X-Content-Type-Options': 'nosniff',
          'X-Gitlab-Blob-Id': blob.sha,
          'X-Gitlab-Commit-Id': blob.commit,
          'X-Gitlab-File-Path': encodeURIComponent(blob.path),
          'X-Gitlab-Size': String(blob.size),
        });
      });
    },
  }),
];
