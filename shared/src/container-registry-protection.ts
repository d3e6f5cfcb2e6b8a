import { z } from './errors.ts';

/** The roles a protection rule may ask for, by the platform's names, and their access levels. */
export const PROTECTION_LEVELS = { maintainer: 40, owner: 50, admin: 60 } as const;
export type ProtectionLevelName = keyof typeof PROTECTION_LEVELS;
export const protectionLevelName = z.enum(['maintainer', 'owner', 'admin']);

/** A container repository protection rule (spec part 1, "Container repository protection rule"). */
export const registryProtectionRule = z.object({
  id: z.number().int(),
  project_id: z.number().int(),
  repository_path_pattern: z.string(),
  minimum_access_level_for_push: protectionLevelName.nullable(),
  minimum_access_level_for_delete: protectionLevelName.nullable(),
});
export type RegistryProtectionRule = z.infer<typeof registryProtectionRule>;

/**
 * The pattern is checked by the service (its messages are the platform's 422), so any string
 * up to a sane size passes here; longer than 255 is refused there too.
 */
const pattern = z.string().max(1024);

/** POST …/registry/protection/repository/rules: the pattern and at least one of the two levels. */
export const registryProtectionRuleCreateBody = z
  .object({
    repository_path_pattern: pattern,
    minimum_access_level_for_push: protectionLevelName.optional(),
    minimum_access_level_for_delete: protectionLevelName.optional(),
  })
  .superRefine((b, ctx) => {
    if (b.minimum_access_level_for_push === undefined && b.minimum_access_level_for_delete === undefined) {
      ctx.addIssue({ code: 'custom', path: [], message: 'minimum_access_level_for_push, minimum_access_level_for_delete are missing, at least one parameter must be provided' });
    }
  });
export type RegistryProtectionRuleCreateBody = z.infer<typeof registryProtectionRuleCreateBody>;

const levelOrUnset = z.enum(['maintainer', 'owner', 'admin', '']).optional();

/** PATCH …/rules/:protection_rule_id: any of the three; an empty string unsets a level (one must remain). */
export const registryProtectionRuleUpdateBody = z.object({
  repository_path_pattern: pattern.optional(),
  minimum_access_level_for_push: levelOrUnset,
  minimum_access_level_for_delete: levelOrUnset,
});
export type RegistryProtectionRuleUpdateBody = z.infer<typeof registryProtectionRuleUpdateBody>;
