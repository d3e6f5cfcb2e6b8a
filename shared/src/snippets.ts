import { z } from './errors.ts';
import { userBasic } from './users.ts';
import { paginationQuery } from './params.ts';

/** Project snippets (spec part 2, "Project snippets" and the "Project snippet" entity). */
export const SNIPPET_VISIBILITIES = ['private', 'internal', 'public'] as const;
export const snippetVisibility = z.enum(SNIPPET_VISIBILITIES);
/** The platform keeps at most ten files in a snippet. */
export const SNIPPET_MAX_FILES = 10;
const CONTENT_MAX = 1_000_000;

/** A file path inside a snippet: relative, no `.`/`..` segments, no NUL. */
export const snippetFilePath = z
  .string()
  .min(1)
  .max(255)
  .refine((p) => !p.startsWith('/') && p.split('/').every((s) => s !== '' && s !== '.' && s !== '..'), 'is invalid');
const content = z.string().max(CONTENT_MAX);

export const snippetFile = z.object({ path: z.string(), raw_url: z.string() });

export const snippet = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string().nullable(),
  visibility: snippetVisibility,
  /** Null once the author's account is gone. */
  author: userBasic.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  project_id: z.number().int(),
  web_url: z.string(),
  raw_url: z.string(),
  /** The first file's path (the snippets of old had one file). */
  file_name: z.string().nullable(),
  files: z.array(snippetFile),
  imported: z.boolean(),
  imported_from: z.string(),
});
export type Snippet = z.infer<typeof snippet>;

export const snippetListQuery = paginationQuery;

const common = {
  title: z.string().trim().min(1).max(255),
  description: z.string().max(1_000_000).optional(),
  visibility: snippetVisibility.optional(),
};

/** The deprecated single-file form and `files` exclude each other, as on the platform. */
const oneForm = (b: { files?: unknown; content?: unknown }, ctx: z.RefinementCtx, required: boolean) => {
  if (b.files !== undefined && b.content !== undefined) ctx.addIssue({ code: 'custom', path: [], message: 'content, files are mutually exclusive' });
  else if (required && b.files === undefined && b.content === undefined) ctx.addIssue({ code: 'custom', path: [], message: 'content, files are missing, exactly one parameter must be provided' });
};

/** POST /projects/:id/snippets. */
export const snippetCreateBody = z
  .object({
    ...common,
    files: z
      .array(z.object({ file_path: snippetFilePath, content: content.min(1) }))
      .min(1)
      .max(SNIPPET_MAX_FILES)
      .refine((files) => new Set(files.map((f) => f.file_path)).size === files.length, 'must have unique file paths')
      .optional(),
    content: content.min(1).optional(),
    file_name: snippetFilePath.optional(),
  })
  .superRefine((b, ctx) => {
    oneForm(b, ctx, true);
    if (b.content !== undefined && b.file_name === undefined) ctx.addIssue({ code: 'custom', path: ['file_name'], message: 'is missing' });
  });
export type SnippetCreateBody = z.infer<typeof snippetCreateBody>;

export const SNIPPET_FILE_ACTIONS = ['create', 'update', 'delete', 'move'] as const;
export const snippetFileAction = z.object({
  action: z.enum(SNIPPET_FILE_ACTIONS),
  file_path: snippetFilePath.optional(),
  previous_path: snippetFilePath.optional(),
  content: content.optional(),
});
export type SnippetFileAction = z.infer<typeof snippetFileAction>;

/** PUT /projects/:id/snippets/:snippet_id: at least one field; a snippet of several files changes through `files`. */
export const snippetUpdateBody = z
  .object({
    title: common.title.optional(),
    description: common.description,
    visibility: common.visibility,
    files: z.array(snippetFileAction).min(1).max(SNIPPET_MAX_FILES * 2).optional(),
    content: content.min(1).optional(),
    file_name: snippetFilePath.optional(),
  })
  .superRefine((b, ctx) => {
    if (Object.values(b).every((v) => v === undefined)) {
      ctx.addIssue({ code: 'custom', path: [], message: 'content, description, files, file_name, title, visibility are missing, at least one parameter must be provided' });
    }
    oneForm(b, ctx, false);
  });
export type SnippetUpdateBody = z.infer<typeof snippetUpdateBody>;
