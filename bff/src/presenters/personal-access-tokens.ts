import type { TokenRow } from '../db/schema.ts';
import type { PersonalAccessToken, TokenRotation } from '../../../shared/src/personal-access-tokens.ts';
import { bool, json } from '../util/rows.ts';
import { isActive } from '../services/access/personal-access-tokens.ts';

export function presentPersonalAccessToken(t: TokenRow): PersonalAccessToken {
  return {
    id: t.id,
    name: t.name,
    description: t.description,
    revoked: bool(t.revoked),
    created_at: t.created_at,
    scopes: json<string[]>(t.scopes, []),
    user_id: t.user_id,
    last_used_at: t.last_used_at,
    active: isActive(t),
    expires_at: t.expires_at,
  };
}

/** The one variant that carries the plaintext: only create (and rotate) return it. */
export const presentPersonalAccessTokenWithToken = (r: { token: TokenRow; plaintext: string }) => ({
  ...presentPersonalAccessToken(r.token),
  token: r.plaintext,
});

/** A rotated token and its successor; the date as the API writes dates. */
export const presentTokenRotation = (r: { id: number; rotated_to: number; rotated_at: string }): TokenRotation => ({
  id: r.id,
  rotated_to: r.rotated_to,
  rotated_at: new Date(r.rotated_at).toISOString(),
});
