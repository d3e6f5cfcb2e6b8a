import { z } from './errors.ts';
import { boolParam, dateParam, datetimeParam, intParam, paginationQuery } from './params.ts';
import { accessLevel, tokenScope } from './roles.ts';

/** Group access token (spec part 1, "Group access token"). */
export const groupAccessToken = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  scopes: z.array(z.string()),
  access_level: z.number().int(),
  active: z.boolean(),
  revoked: z.boolean(),
  created_at: z.string(),
  expires_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
  granular: z.boolean(),
  resource_type: z.literal('group'),
  resource_id: z.number().int(),
});
export type GroupAccessToken = z.infer<typeof groupAccessToken>;

/** Returned only by create and rotate: the plaintext, once. */
export const groupAccessTokenWithToken = groupAccessToken.extend({ token: z.string() });
export type GroupAccessTokenWithToken = z.infer<typeof groupAccessTokenWithToken>;

export const GROUP_ACCESS_TOKEN_DESCRIPTION_MAX = 255;

export const groupAccessTokenCreateBody = z.object({
  name: z.string().trim().min(1).max(255),
  description: z.string().max(GROUP_ACCESS_TOKEN_DESCRIPTION_MAX).optional(),
  scopes: z.preprocess((v) => (typeof v === 'string' ? v.split(',') : v), z.array(tokenScope).min(1)),
  access_level: intParam().pipe(accessLevel).optional(),
  expires_at: dateParam().optional(),
});
export type GroupAccessTokenCreateBody = z.infer<typeof groupAccessTokenCreateBody>;
export type GroupAccessTokenCreateInput = z.input<typeof groupAccessTokenCreateBody>;

export const groupAccessTokenRotateBody = z.object({ expires_at: dateParam().optional() });

export const groupAccessTokenSorts = [
  'created_asc',
  'created_desc',
  'expires_asc',
  'expires_desc',
  'last_used_asc',
  'last_used_desc',
  'name_asc',
  'name_desc',
] as const;

export const groupAccessTokenListQuery = paginationQuery.extend({
  created_after: datetimeParam().optional(),
  created_before: datetimeParam().optional(),
  expires_after: dateParam().optional(),
  expires_before: dateParam().optional(),
  last_used_after: datetimeParam().optional(),
  last_used_before: datetimeParam().optional(),
  revoked: boolParam().optional(),
  search: z.string().max(255).optional(),
  sort: z.enum(groupAccessTokenSorts).optional(),
  state: z.enum(['active', 'inactive']).optional(),
});
export type GroupAccessTokenListQuery = z.infer<typeof groupAccessTokenListQuery>;
