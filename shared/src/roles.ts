import { z } from 'zod';
import { memberAccessLevels } from './role-names.ts';

export { ACCESS_LEVELS, ROLE_NAMES, memberAccessLevels } from './role-names.ts';

export const accessLevel = z.union(memberAccessLevels.map((l) => z.literal(l)) as [z.ZodLiteral<10>, ...z.ZodLiteral<number>[]]);

export const visibility = z.enum(['private', 'internal', 'public']);
export type Visibility = z.infer<typeof visibility>;

export const TOKEN_SCOPES = [
  'api',
  'read_api',
  'read_user',
  'read_repository',
  'write_repository',
  'read_registry',
  'write_registry',
  'create_runner',
  'manage_runner',
  'ai_features',
  'k8s_proxy',
  'self_rotate',
] as const;
export const tokenScope = z.enum(TOKEN_SCOPES);
export type TokenScope = z.infer<typeof tokenScope>;

/**
 * A personal access token's scopes: those of every token, and `sudo` (an administrator's token
 * acting as another user; refused for anyone else's token). Group tokens' bots never have it.
 */
export const PERSONAL_TOKEN_SCOPES = [...TOKEN_SCOPES, 'sudo'] as const;
export const personalTokenScope = z.enum(PERSONAL_TOKEN_SCOPES);
export type PersonalTokenScope = z.infer<typeof personalTokenScope>;

export const SCOPE_DESCRIPTIONS: Record<TokenScope, string> = {
  api: 'Full read and write access to the API.',
  read_api: 'Read access to the API.',
  read_user: 'Read the authenticated user’s profile.',
  read_repository: 'Pull from repositories.',
  write_repository: 'Pull from and push to repositories.',
  read_registry: 'Pull container images.',
  write_registry: 'Push container images.',
  create_runner: 'Create runners.',
  manage_runner: 'Manage runners.',
  ai_features: 'Use AI features.',
  k8s_proxy: 'Call the Kubernetes API through the agent.',
  self_rotate: 'Rotate this token itself.',
};

/** A personal token's scopes described: those of every token, and `sudo`. */
export const PERSONAL_SCOPE_DESCRIPTIONS: Record<PersonalTokenScope, string> = {
  ...SCOPE_DESCRIPTIONS,
  sudo: 'Act as any other user through the API (the Sudo header). Only an administrator’s token may have it.',
};
