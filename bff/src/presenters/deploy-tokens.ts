import type { DeployTokenRow } from '../db/schema.ts';
import type { DeployToken } from '../../../shared/src/deploy-tokens.ts';
import { bool, json } from '../util/rows.ts';
import { isExpired } from '../services/access/deploy-tokens.ts';

export function presentDeployToken(t: DeployTokenRow): DeployToken {
  return {
    id: t.id,
    name: t.name,
    username: t.username,
    expires_at: t.expires_at,
    scopes: json<DeployToken['scopes']>(t.scopes, []),
    revoked: bool(t.revoked),
    expired: isExpired(t),
  };
}

export const presentDeployTokenWithToken = (r: { token: DeployTokenRow; plaintext: string }) => ({ ...presentDeployToken(r.token), token: r.plaintext });
