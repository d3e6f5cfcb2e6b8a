import { PROTECTION_LEVELS, type ProtectionLevelName, type RegistryProtectionRule } from '../../../shared/src/container-registry-protection.ts';
import type { ContainerRegistryProtectionRuleRow } from '../db/schema.ts';

const NAMES = Object.fromEntries(Object.entries(PROTECTION_LEVELS).map(([name, level]) => [level, name])) as Record<number, ProtectionLevelName>;
const nameOf = (level: number | null): ProtectionLevelName | null => (level === null ? null : (NAMES[level] ?? null));

export function presentRegistryProtectionRule(row: ContainerRegistryProtectionRuleRow): RegistryProtectionRule {
  return {
    id: row.id,
    project_id: row.project_id,
    repository_path_pattern: row.repository_path_pattern,
    minimum_access_level_for_push: nameOf(row.minimum_access_level_for_push),
    minimum_access_level_for_delete: nameOf(row.minimum_access_level_for_delete),
  };
}
