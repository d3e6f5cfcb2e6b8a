import { z } from './errors.ts';
import { paginationQuery } from './params.ts';
import { commit } from './branches.ts';

/** A tag as the platform shows it: `target` is the tag object of an annotated tag, the commit of a lightweight one. */
export const tag = z.object({
  name: z.string(),
  message: z.string().nullable(),
  target: z.string(),
  commit,
  release: z.object({ tag_name: z.string(), description: z.string() }).nullable(),
  protected: z.boolean(),
  created_at: z.string().nullable(),
});
export type Tag = z.infer<typeof tag>;

/** GET /projects/:id/repository/tags: `search` (^ and $ anchor it), ordered by commit date (newest first) unless asked otherwise. */
export const tagListQuery = paginationQuery.extend({
  search: z.string().max(255).optional(),
  order_by: z.enum(['name', 'updated', 'version']).optional(),
  sort: z.enum(['asc', 'desc']).optional(),
});
export type TagListQuery = z.infer<typeof tagListQuery>;

/** POST /projects/:id/repository/tags: a `message` makes an annotated tag. */
export const tagCreateBody = z.object({
  tag_name: z.string().min(1).max(255),
  ref: z.string().min(1).max(255),
  message: z.string().max(65536).optional(),
});
export type TagCreateBody = z.infer<typeof tagCreateBody>;
