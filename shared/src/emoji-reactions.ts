import { z } from './errors.ts';
import { paginationQuery } from './params.ts';

/** Emoji reactions ("award emoji"), spec part 2, "Emoji reactions". */
export const AWARDABLE_TYPES = ['Issue', 'MergeRequest', 'Snippet', 'Note', 'Epic'] as const;

export const awardEmoji = z.object({
  id: z.number().int(),
  /** The emoji's name without colons, as the platform normalises it (`+1` is `thumbsup`). */
  name: z.string(),
  user: z.object({ name: z.string(), username: z.string(), id: z.number().int(), state: z.string(), avatar_url: z.string().nullable(), web_url: z.string() }),
  created_at: z.string(),
  updated_at: z.string(),
  awardable_id: z.number().int(),
  awardable_type: z.enum(AWARDABLE_TYPES),
  url: z.string().nullable(),
});
export type AwardEmoji = z.infer<typeof awardEmoji>;

export const awardEmojiListQuery = paginationQuery;

export const awardEmojiCreateBody = z.object({ name: z.string().trim().min(1).max(255) });
