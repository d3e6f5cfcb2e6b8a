import { z } from './errors.ts';

/** GET /projects/:id/repository/files/:file_path: the file at a ref, its content in base64. */
export const repositoryFile = z.object({
  file_name: z.string(),
  file_path: z.string(),
  size: z.number().int(),
  encoding: z.literal('base64'),
  content_sha256: z.string(),
  ref: z.string(),
  blob_id: z.string(),
  commit_id: z.string(),
  last_commit_id: z.string(),
  execute_filemode: z.boolean(),
  content: z.string(),
});
export type RepositoryFile = z.infer<typeof repositoryFile>;

export const repositoryFileQuery = z.object({ ref: z.string().min(1).max(1024) });
/** The raw file: `ref` defaults to the default branch. */
export const repositoryRawFileQuery = z.object({ ref: z.string().min(1).max(1024).optional() });
