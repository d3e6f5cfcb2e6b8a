import { z } from './errors.ts';
import { dateParam, intListParam, intParam, paginationQuery } from './params.ts';
import { accessLevel } from './roles.ts';
import { userBasic } from './users.ts';

export const member = userBasic.extend({
  access_level: z.number().int(),
  created_at: z.string(),
  expires_at: z.string().nullable(),
  created_by: userBasic.pick({ id: true, username: true, name: true, state: true, avatar_url: true, web_url: true }).nullable(),
  membership_state: z.literal('active'),
});
export type Member = z.infer<typeof member>;

export const memberListQuery = paginationQuery.extend({
  query: z.string().max(255).optional(),
  user_ids: intListParam().optional(),
});

export const memberCreateBody = z.object({
  user_id: intParam().pipe(z.number().int().min(1)),
  access_level: intParam().pipe(accessLevel),
  expires_at: dateParam().nullable().optional(),
});

export const memberUpdateBody = z.object({
  access_level: intParam().pipe(accessLevel),
  expires_at: dateParam().nullable().optional(),
});
