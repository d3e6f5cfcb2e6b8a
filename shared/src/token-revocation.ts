import { z } from './errors.ts';

/** Body of POST /groups/:id/tokens/revoke: the leaked credential, in plaintext. */
export const tokenRevocationBody = z.object({ token: z.string().min(1).max(512) });

/** What the revocation answers: the credential's details, by kind (attributes vary by type). */
export const revokedToken = z.object({
  id: z.number().int(),
  name: z.string(),
  revoked: z.boolean(),
  expires_at: z.string().nullable(),
  /** Personal and group access tokens. */
  description: z.string().nullable().optional(),
  scopes: z.array(z.string()).optional(),
  user_id: z.number().int().optional(),
  created_at: z.string().optional(),
  last_used_at: z.string().nullable().optional(),
  active: z.boolean().optional(),
  /** Deploy tokens. */
  username: z.string().optional(),
  expired: z.boolean().optional(),
  /** Which kind of credential it was; the console shows it. */
  token_type: z.enum(['personal_access_token', 'group_access_token', 'deploy_token', 'feed_token']),
});
export type RevokedToken = z.infer<typeof revokedToken>;
