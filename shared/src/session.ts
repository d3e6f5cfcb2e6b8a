import { z } from './errors.ts';

/** Console sign-in (not part of the platform API: the console's own endpoint). */
export const signInBody = z.object({
  username: z.string().trim().min(1).max(255),
  password: z.string().min(1).max(1024),
});
export type SignInBody = z.infer<typeof signInBody>;

export const sessionInfo = z.object({
  user: z.object({
    id: z.number().int(),
    username: z.string(),
    name: z.string(),
    is_admin: z.boolean(),
    avatar_url: z.string().nullable(),
  }),
  csrf_token: z.string(),
  expires_at: z.string(),
});
export type SessionInfo = z.infer<typeof sessionInfo>;

/**
 * What the signed-in user may do on a group or project, decided by the server's permission
 * rules (console endpoint `GET /api/console/{groups|projects}/:id/abilities`): the console
 * shows and hides by these instead of re-deriving roles. `access_level` is the effective role
 * (0 for a non-member), for wording only.
 */
export const abilities = z.object({
  access_level: z.number().int(),
  abilities: z.record(z.string(), z.boolean()),
});
export type Abilities = z.infer<typeof abilities>;
