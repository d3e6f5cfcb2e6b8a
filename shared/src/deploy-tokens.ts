import { z } from './errors.ts';
import { boolParam, dateParam, datetimeParam, paginationQuery } from './params.ts';

export const DEPLOY_TOKEN_SCOPES = [
  'read_repository',
  'read_registry',
  'write_registry',
  'read_package_registry',
  'write_package_registry',
  'read_virtual_registry',
  'write_virtual_registry',
] as const;

export const deployToken = z.object({
  id: z.number().int(),
  name: z.string(),
  username: z.string(),
  expires_at: z.string().nullable(),
  scopes: z.array(z.enum(DEPLOY_TOKEN_SCOPES)),
  revoked: z.boolean(),
  expired: z.boolean(),
});
export type DeployToken = z.infer<typeof deployToken>;
export const deployTokenWithToken = deployToken.extend({ token: z.string() });

export const deployTokenCreateBody = z.object({
  name: z.string().trim().min(1).max(255),
  scopes: z.preprocess((v) => (typeof v === 'string' ? v.split(',') : v), z.array(z.enum(DEPLOY_TOKEN_SCOPES)).min(1)),
  expires_at: z.union([dateParam(), datetimeParam()]).optional(),
  username: z
    .string()
    .min(1)
    .max(255)
    .regex(/^[a-zA-Z0-9_.+-]+$/, 'can contain only letters, digits, "_", "-", "+" and "."')
    .optional(),
});

export const deployTokenListQuery = paginationQuery.extend({ active: boolParam().optional() });
