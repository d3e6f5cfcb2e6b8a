import type { TokenRow, UserRow } from '../db/schema.ts';
import { PERSONAL_TOKEN_SCOPES } from '../../../shared/src/roles.ts';

/** Who is calling, and through what credential. */
export interface Actor {
  user: UserRow | null;
  via: 'anonymous' | 'token' | 'session';
  token?: TokenRow;
  /** Scopes the credential grants; a console session grants everything its user may do. */
  scopes: readonly string[];
  session?: { idDigest: string; csrfToken: string; expiresAt: string };
  /** The administrator whose token made the call, where it acts as `user` (Sudo). */
  sudoBy?: UserRow;
}

export const anonymous: Actor = { user: null, via: 'anonymous', scopes: [] };

export const isAdmin = (actor: Actor): boolean => actor.user?.is_admin === 1;

/** Which scopes let a credential make a call of each kind. */
export type ScopeNeed = 'read' | 'write' | 'read_user' | 'ai_features' | 'self_rotate' | 'read_repository' | 'write_repository' | 'any';
const SCOPES_FOR: Record<ScopeNeed, readonly string[]> = {
  read: ['api', 'read_api'],
  write: ['api'],
  read_user: ['api', 'read_api', 'read_user'],
  /** Code suggestions (the AI features). */
  ai_features: ['api', 'ai_features'],
  /** Rotating the calling token itself (the service refuses anything else without api). */
  self_rotate: ['api', 'self_rotate'],
  /** Git over HTTP: clone and fetch, push. */
  read_repository: ['api', 'read_repository', 'write_repository'],
  write_repository: ['api', 'write_repository'],
  /** A token reading or revoking itself: any scope will do, as on the platform. */
  any: PERSONAL_TOKEN_SCOPES,
};

export function hasScope(actor: Actor, need: ScopeNeed): boolean {
  if (actor.via !== 'token') return true;
  return actor.scopes.some((s) => SCOPES_FOR[need].includes(s));
}

export const requiredScopes = (need: ScopeNeed) => SCOPES_FOR[need];
