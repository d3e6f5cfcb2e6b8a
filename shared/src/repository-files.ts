import { z } from './errors.ts';
import { boolParam, intParam } from './params.ts';

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

/** What every file write takes (the platform's simple file params): the branch, its message, where a new branch starts, the author. */
const fileCommitFields = {
  branch: z.string().min(1).max(255),
  commit_message: z.string().min(1).max(65536),
  start_branch: z.string().min(1).max(255).optional(),
  author_email: z.string().max(255).optional(),
  author_name: z.string().max(255).optional(),
};

/** POST and PUT /projects/:id/repository/files/:file_path: the file's new content, text or base64. */
export const repositoryFileWriteBody = z.object({
  ...fileCommitFields,
  content: z.string().max(50 * 1024 * 1024),
  encoding: z.enum(['text', 'base64']).optional(),
  /** The last commit that changed the file as the writer saw it: a later one answers 400. */
  last_commit_id: z.string().max(64).optional(),
  execute_filemode: boolParam().optional(),
});
export type RepositoryFileWriteBody = z.infer<typeof repositoryFileWriteBody>;

/** DELETE /projects/:id/repository/files/:file_path (its fields in the query or the body). */
export const repositoryFileDeleteBody = z.object(fileCommitFields);
export type RepositoryFileDeleteBody = z.infer<typeof repositoryFileDeleteBody>;

/** The answer of a file created or updated: the file and the branch it was committed to. */
export const repositoryFileCommit = z.object({ file_path: z.string(), branch: z.string() });

const blameLine = intParam().pipe(z.number().int().min(1, 'does not have a valid value'));

/** GET /projects/:id/repository/files/:file_path/blame: `range[start]` and `range[end]`, from 1, both or neither. */
export const blameQuery = z.object({
  ref: z.string().min(1).max(1024),
  range: z.object({ start: blameLine, end: blameLine }).optional(),
});

/** The commit of a blame range: the platform's BlameRangeCommit, fewer fields than a commit. */
export const blameRangeCommit = z.object({
  id: z.string(),
  parent_ids: z.array(z.string()),
  message: z.string(),
  authored_date: z.string(),
  author_name: z.string(),
  author_email: z.string(),
  committed_date: z.string(),
  committer_name: z.string(),
  committer_email: z.string(),
});

/** Consecutive lines last changed by one commit. */
export const blameRange = z.object({ commit: blameRangeCommit, lines: z.array(z.string()) });
export type BlameRange = z.infer<typeof blameRange>;
