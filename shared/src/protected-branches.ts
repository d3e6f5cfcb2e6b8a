import { z } from './errors.ts';
import { boolParam, intParam, paginationQuery } from './params.ts';

/** The platform's access levels of a protected ref: 0 no one, 30 Developers + Maintainers, 40 Maintainers, 60 instance administrators. */
export const PROTECTION_LEVELS = [0, 30, 40, 60] as const;
export const protectionLevel = intParam().pipe(z.number().int().refine((v) => (PROTECTION_LEVELS as readonly number[]).includes(v), 'does not have a valid value'));

/** The platform's default protection of a new project's default branch (a group's `default_branch_protection_defaults` when it sets none). */
export const DEFAULT_BRANCH_PROTECTION_DEFAULTS = {
  allowed_to_push: [{ access_level: 40 }],
  allow_force_push: false,
  allowed_to_merge: [{ access_level: 40 }],
  developer_can_initial_push: false,
};

/** What the platform calls each level in `access_level_description`. */
export const PROTECTION_LEVEL_NAMES: Record<number, string> = { 0: 'No one', 30: 'Developers + Maintainers', 40: 'Maintainers', 60: 'Instance admins' };

/** One entry of push_access_levels, merge_access_levels, unprotect_access_levels or create_access_levels. */
export const protectedRefAccess = z.object({
  id: z.number().int(),
  access_level: z.number().int().nullable(),
  access_level_description: z.string(),
  user_id: z.number().int().nullable(),
  group_id: z.number().int().nullable(),
});
export type ProtectedRefAccess = z.infer<typeof protectedRefAccess>;

/** A protected branch or wildcard (GET /projects/:id/protected_branches). */
export const protectedBranch = z.object({
  id: z.number().int(),
  name: z.string(),
  push_access_levels: z.array(protectedRefAccess),
  merge_access_levels: z.array(protectedRefAccess),
  unprotect_access_levels: z.array(protectedRefAccess),
  allow_force_push: z.boolean(),
  code_owner_approval_required: z.boolean(),
});
export type ProtectedBranch = z.infer<typeof protectedBranch>;

/**
 * An element of allowed_to_push, allowed_to_merge or allowed_to_unprotect: a role
 * (`access_level`), or, on an update, `{id, _destroy: true}` to remove an entry. Entries naming a
 * user, group or deploy key are the platform's paid tiers: they are refused with its 422.
 */
export const protectedRefAccessInput = z.object({
  id: intParam().pipe(z.number().int().min(1)).optional(),
  access_level: protectionLevel.optional(),
  user_id: intParam().pipe(z.number().int()).optional(),
  group_id: intParam().pipe(z.number().int()).optional(),
  deploy_key_id: intParam().pipe(z.number().int()).optional(),
  _destroy: boolParam().optional(),
});
export type ProtectedRefAccessInput = z.infer<typeof protectedRefAccessInput>;
const accessList = z.array(protectedRefAccessInput).max(20);

/** A branch name or wildcard (`release-*`), as git allows a branch to be named. */
export const protectedRefName = z.string().trim().min(1).max(255);

export const protectedBranchListQuery = paginationQuery.extend({ search: z.string().max(255).optional() });
export type ProtectedBranchListQuery = z.infer<typeof protectedBranchListQuery>;

/** POST /projects/:id/protected_branches. */
export const protectedBranchCreateBody = z.object({
  name: protectedRefName,
  push_access_level: protectionLevel.optional(),
  merge_access_level: protectionLevel.optional(),
  unprotect_access_level: protectionLevel.optional(),
  allow_force_push: boolParam().optional(),
  code_owner_approval_required: boolParam().optional(),
  allowed_to_push: accessList.optional(),
  allowed_to_merge: accessList.optional(),
  allowed_to_unprotect: accessList.optional(),
});
export type ProtectedBranchCreateBody = z.infer<typeof protectedBranchCreateBody>;

/** PATCH /projects/:id/protected_branches/:name. */
export const protectedBranchUpdateBody = z.object({
  allow_force_push: boolParam().optional(),
  code_owner_approval_required: boolParam().optional(),
  allowed_to_push: accessList.optional(),
  allowed_to_merge: accessList.optional(),
  allowed_to_unprotect: accessList.optional(),
});
export type ProtectedBranchUpdateBody = z.infer<typeof protectedBranchUpdateBody>;
