import { z } from 'zod';

export const ACCESS_LEVELS = {
  no_access: 0,
  minimal_access: 5,
  guest: 10,
  planner: 15,
  reporter: 20,
  developer: 30,
  maintainer: 40,
  owner: 50,
} as const;

export const ROLE_NAMES: Record<number, string> = {
  10: 'Guest',
  15: 'Planner',
  20: 'Reporter',
  30: 'Developer',
  40: 'Maintainer',
  50: 'Owner',
};

/** Levels a membership may hold. */
export const memberAccessLevels = [10, 15, 20, 30, 40, 50] as const;
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
