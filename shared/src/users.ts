import { z } from './errors.ts';
import { boolParam, paginationQuery } from './params.ts';

export const userBasic = z.object({
  id: z.number().int(),
  username: z.string(),
  name: z.string(),
  state: z.enum(['active', 'blocked', 'deactivated']),
  locked: z.boolean(),
  avatar_url: z.string().nullable(),
  web_url: z.string(),
});

/** GET /users items and GET /users/:id for everyone; more fields for administrators and oneself. */
export const user = userBasic.extend({
  created_at: z.string(),
  bio: z.string(),
  public_email: z.string().nullable(),
  bot: z.boolean(),
  email: z.string().optional(),
  is_admin: z.boolean().optional(),
  last_sign_in_at: z.string().nullable().optional(),
  last_activity_on: z.string().nullable().optional(),
  can_create_group: z.boolean().optional(),
  can_create_project: z.boolean().optional(),
  two_factor_enabled: z.boolean().optional(),
  external: z.boolean().optional(),
  custom_attributes: z.array(z.object({ key: z.string(), value: z.string() })).optional(),
});
export type User = z.infer<typeof user>;

const USERNAME_RE = /^[a-zA-Z0-9_][a-zA-Z0-9_.-]*$/;
export const username = z.string().min(2).max(255).regex(USERNAME_RE, 'can contain only letters, digits, "_", "-" and "."');
export const password = z.string().min(8).max(128);

export const userCreateBody = z.object({
  email: z.email().max(255),
  username,
  name: z.string().trim().min(1).max(255),
  password: password.optional(),
  reset_password: boolParam().optional(),
  force_random_password: boolParam().optional(),
  admin: boolParam().optional(),
  bio: z.string().max(255).optional(),
  public_email: z.email().max(255).optional(),
  skip_confirmation: boolParam().optional(),
  external: boolParam().optional(),
  can_create_group: boolParam().optional(),
});
export type UserCreateBody = z.infer<typeof userCreateBody>;

/** PUT /users/:id (administrators): any of the account's attributes; what is not sent is kept. */
export const userUpdateBody = z.object({
  email: z.email().max(255).optional(),
  username: username.optional(),
  name: z.string().trim().min(1).max(255).optional(),
  password: password.optional(),
  admin: boolParam().optional(),
  bio: z.string().max(255).optional(),
  public_email: z.union([z.email().max(255), z.literal('')]).optional(),
  skip_reconfirmation: boolParam().optional(),
  external: boolParam().optional(),
  can_create_group: boolParam().optional(),
});
export type UserUpdateBody = z.infer<typeof userUpdateBody>;

export const userListQuery = paginationQuery.extend({
  search: z.string().max(255).optional(),
  username: z.string().max(255).optional(),
  active: boolParam().optional(),
  blocked: boolParam().optional(),
  admins: boolParam().optional(),
  exclude_bots: boolParam().optional(),
  order_by: z.enum(['id', 'name', 'username', 'created_at', 'updated_at']).optional(),
  sort: z.enum(['asc', 'desc']).optional(),
  with_custom_attributes: boolParam().optional(),
  /** `custom_attributes[key]=value`: users having every one of these (administrators only, as on the platform). */
  custom_attributes: z.record(z.string().max(255), z.string().max(255)).optional(),
});
