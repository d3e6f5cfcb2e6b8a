import { z } from './errors.ts';
import { wildcardMatches } from './wildcard.ts';

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

/** The access level a rule's role stands for (`maintainer` → 40); null when the rule names none. */
export const protectionLevel = (name: ProtectionLevelName | null | undefined): number | null => (name ? PROTECTION_LEVELS[name] : null);

/**
 * The first rule that stops a caller of access level `role` (0 for a credential without one, such
 * as a deploy token) on the repository at `path`, if any: a rule whose pattern matches the path
 * (case aside; `*` any run of characters, slashes too) and whose least level for the action,
 * `least(rule)` (null: the rule says nothing of it), is above the caller's. The token service
 * refuses by it; the console's "would this push be allowed?" asks it the same. Administrators are
 * never stopped: the caller decides that before asking.
 */
export function stoppingRule<R extends { repository_path_pattern: string }>(rules: readonly R[], path: string, role: number, least: (rule: R) => number | null): R | undefined {
  const lower = path.toLowerCase();
  return rules.find((r) => {
    const level = least(r);
    return level !== null && role < level && wildcardMatches(r.repository_path_pattern.toLowerCase(), lower);
  });
}
