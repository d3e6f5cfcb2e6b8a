import { z } from './errors.ts';
import { paginationQuery } from './params.ts';
import { protectedRefAccess, protectedRefAccessInput, protectedRefName, protectionLevel } from './protected-branches.ts';

/** A protected tag or wildcard (GET /projects/:id/protected_tags). */
export const protectedTag = z.object({
  id: z.number().int(),
  name: z.string(),
  create_access_levels: z.array(protectedRefAccess),
});
export type ProtectedTag = z.infer<typeof protectedTag>;

export const protectedTagListQuery = paginationQuery;
export type ProtectedTagListQuery = z.infer<typeof protectedTagListQuery>;

/** POST /projects/:id/protected_tags. */
export const protectedTagCreateBody = z.object({
  name: protectedRefName,
  create_access_level: protectionLevel.optional(),
  allowed_to_create: z.array(protectedRefAccessInput).max(20).optional(),
});
export type ProtectedTagCreateBody = z.infer<typeof protectedTagCreateBody>;
