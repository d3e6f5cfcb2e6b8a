import type { GroupAccessToken, GroupAccessTokenWithToken } from '../../../shared/src/group-access-tokens.ts';
import type { GroupAccessTokenRecord } from '../services/access/group-access-tokens.ts';
import { bool, json } from '../util/rows.ts';
import { isActive } from '../services/access/personal-access-tokens.ts';

export function presentGroupAccessToken({ token: t, accessLevel, groupId }: GroupAccessTokenRecord): GroupAccessToken {
  return {
    id: t.id,
    user_id: t.user_id,
    name: t.name,
    description: t.description,
    scopes: json<string[]>(t.scopes, []),
    access_level: accessLevel,
    active: isActive(t),
    revoked: bool(t.revoked),
    created_at: t.created_at,
    expires_at: t.expires_at,
    last_used_at: t.last_used_at,
    granular: false,
    resource_type: 'group',
    resource_id: groupId,
  };
}

/** Only create and rotate return the plaintext. */
export const presentGroupAccessTokenWithToken = (r: GroupAccessTokenRecord & { plaintext: string }): GroupAccessTokenWithToken => ({
  ...presentGroupAccessToken(r),
  token: r.plaintext,
});
