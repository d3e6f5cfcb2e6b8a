import { repositoryFile, repositoryFileQuery, repositoryRawFileQuery } from '../../../shared/src/repository-files.ts';
import { z } from 'zod';
import { defineRoute } from '../http/route.ts';
import * as files from '../services/repository-files.ts';
import { presentRepositoryFile } from '../presenters/repository-files.ts';
import { withRepository } from './branches.ts';

const area = 'repository-files';
const base = '/projects/:id/repository/files/:file_path';
/** The file's path, URL-encoded (`lib%2Fclass.rb`). */
const fileParam = { file_path: z.string().min(1).max(4096) };

export const repositoryFileRoutes = [
  defineRoute({
    method: 'get',
    path: base,
    area,
    summary: 'Get a file at a ref: its metadata and its content in base64',
    auth: 'optional',
    load: 'project',
    permission: 'download_code',
    params: fileParam,
    ...withRepository,
    query: repositoryFileQuery,
    response: repositoryFile,
    handler: async (ctx) => files.readFile(ctx.repo.dir, ctx.query.ref, ctx.params.file_path),
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
