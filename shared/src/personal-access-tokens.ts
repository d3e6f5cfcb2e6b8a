import { z } from './errors.ts';
import { boolParam, dateParam, datetimeParam, intListParam, intParam, paginationQuery } from './params.ts';
import { personalTokenScope } from './roles.ts';

export const personalAccessToken = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  revoked: z.boolean(),
  created_at: z.string(),
  scopes: z.array(z.string()),
  user_id: z.number().int(),
  last_used_at: z.string().nullable(),
  active: z.boolean(),
  expires_at: z.string().nullable(),
});
export type PersonalAccessToken = z.infer<typeof personalAccessToken>;

/** Returned only by create (and rotate): the plaintext, once. */
export const personalAccessTokenWithToken = personalAccessToken.extend({ token: z.string() });

export const personalAccessTokenCreateBody = z.object({
  name: z.string().trim().min(1).max(255),
  description: z.string().max(255).optional(),
  scopes: z.preprocess((v) => (typeof v === 'string' ? v.split(',') : v), z.array(personalTokenScope).min(1)),
  expires_at: dateParam().optional(),
});
export type PersonalAccessTokenCreateBody = z.infer<typeof personalAccessTokenCreateBody>;

/** Rotation keeps name, description and scopes; only the new expiry may be chosen. */
export const personalAccessTokenRotateBody = z.object({ expires_at: dateParam().optional() });

export const personalAccessTokenListQuery = paginationQuery.extend({
  user_id: intParam().optional(),
  state: z.enum(['active', 'inactive']).optional(),
  revoked: boolParam().optional(),
  search: z.string().max(255).optional(),
  created_after: datetimeParam().optional(),
  created_before: datetimeParam().optional(),
  last_used_after: datetimeParam().optional(),
  last_used_before: datetimeParam().optional(),
});

/**
 * The console's question about an inactive list: which of these tokens were rotated (revoked by a
 * rotation that made their successor) rather than revoked by hand. The platform's token object
 * does not say; under /api/console. Up to 100 ids (a page of a list); none asked, none answered.
 */
export const tokenRotationsQuery = paginationQuery.extend({ ids: intListParam().pipe(z.array(z.number().int().min(1)).max(100)).optional() });
export const tokenRotation = z.object({
  id: z.number().int(),
  /** The token the rotation made. */
  rotated_to: z.number().int(),
  rotated_at: z.string(),
});
export type TokenRotation = z.infer<typeof tokenRotation>;
