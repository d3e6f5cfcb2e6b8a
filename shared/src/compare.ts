import { z } from './errors.ts';
import { boolParam } from './params.ts';
import { commit } from './branches.ts';

/**
 * A file's change, the patch from its first hunk on, as the platform shows diffs: empty when
 * the diff limits left it out, `collapsed` past the collection's safe limits, `too_large` past
 * the limit of one patch (200 KiB).
 */
export const diff = z.object({
  diff: z.string(),
  collapsed: z.boolean(),
  too_large: z.boolean(),
  new_path: z.string(),
  old_path: z.string(),
  a_mode: z.string(),
  b_mode: z.string(),
  new_file: z.boolean(),
  renamed_file: z.boolean(),
  deleted_file: z.boolean(),
  generated_file: z.boolean(),
});
export type Diff = z.infer<typeof diff>;

export const comparison = z.object({
  commit: commit.nullable(),
  commits: z.array(commit),
  diffs: z.array(diff),
  compare_timeout: z.boolean(),
  compare_same_ref: z.boolean(),
  web_url: z.string(),
});
export type Comparison = z.infer<typeof comparison>;

/** GET /projects/:id/repository/compare: `to` since its merge base with `from`, or since `from` itself when `straight`. */
export const compareQuery = z.object({
  from: z.string().min(1).max(1024),
  to: z.string().min(1).max(1024),
  straight: boolParam().optional(),
});
