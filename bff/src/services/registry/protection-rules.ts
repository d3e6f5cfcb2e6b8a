import { sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { ContainerRegistryProtectionRuleRow, ProjectRow } from '../../db/schema.ts';
import {
  PROTECTION_LEVELS,
  stoppingRule,
  type RegistryProtectionRuleCreateBody,
  type RegistryProtectionRuleUpdateBody,
} from '../../../../shared/src/container-registry-protection.ts';
import { notFound, unprocessable } from '../../util/errors.ts';
import { nowIso } from '../../util/time.ts';

/**
 * A repository path as the registry names it (Distribution's reference grammar, lower case),
 * with `*` allowed where a component's characters are: the platform's rule for patterns.
 */
const PATTERN_FORMAT = /^[a-z0-9*]+(?:(?:[._/]|__|-*)[a-z0-9*])*$/;
const MAX_PATTERN = 255;
const NEEDS_A_LEVEL = 'A rule must have at least a minimum access role for push or delete.';

export const levelOf = (name: string | undefined): number | null | undefined =>
  name === undefined ? undefined : name === '' ? null : PROTECTION_LEVELS[name as keyof typeof PROTECTION_LEVELS];

/**
 * The platform's validation messages, in its order, for a rule as it would be saved: blank, taken,
 * too long, format, outside the project, no level at all. Empty when the rule may be saved.
 */
async function problems(
  db: Db,
  project: Pick<ProjectRow, 'id' | 'path_with_namespace'>,
  rule: { id?: number; pattern: string; patternChanged: boolean; push: number | null; del: number | null },
): Promise<string[]> {
  const out: string[] = [];
  const p = rule.pattern;
  const field = (m: string) => out.push(`Repository path pattern ${m}`);
  if (p.trim() === '') field("can't be blank");
  if (rule.patternChanged && p !== '') {
    let q = db.selectFrom('container_registry_protection_rules').select('id').where('project_id', '=', project.id).where('repository_path_pattern', '=', p);
    if (rule.id !== undefined) q = q.where('id', '!=', rule.id);
    if (await q.executeTakeFirst()) field('has already been taken');
  }
  if (p.length > MAX_PATTERN) field(`is too long (maximum is ${MAX_PATTERN} characters)`);
  if (!PATTERN_FORMAT.test(p)) field('should be a valid container repository path with optional wildcard characters.');
  if (rule.patternChanged && !p.toLowerCase().startsWith(project.path_with_namespace.toLowerCase())) field("should start with the project's full path");
  if (rule.push === null && rule.del === null) out.push(NEEDS_A_LEVEL);
  return out;
}

/** A 422 in the platform's shape: `{"message": {"error": [...]}}`. */
const refused = (messages: string[]) => unprocessable({ error: messages });

export async function listRules(db: Db, projectId: number): Promise<ContainerRegistryProtectionRuleRow[]> {
  return db.selectFrom('container_registry_protection_rules').selectAll().where('project_id', '=', projectId).orderBy('id').execute();
}

/**
 * The project's rules whose pattern matches `path` (case aside), in their order: the database
 * matches them (the pattern as a LIKE, `*` for `%`, `_` kept literal; patterns hold no `%`), as
 * the platform does, so a token request reads the one or two rules that concern it rather than
 * every rule of the project. The caller still decides by the rules' levels (blockingRule).
 */
export async function rulesMatching(db: Db, projectId: number, path: string): Promise<ContainerRegistryProtectionRuleRow[]> {
  return db
    .selectFrom('container_registry_protection_rules')
    .selectAll()
    .where('project_id', '=', projectId)
    .where(sql<boolean>`${path.toLowerCase()} LIKE replace(replace(lower(repository_path_pattern), '_', '\\_'), '*', '%') ESCAPE '\\'`)
    .orderBy('id')
    .execute();
}

/** A rule of the project by id; any other is the platform's plain 404. */
export async function getRule(db: Db, projectId: number, id: number): Promise<ContainerRegistryProtectionRuleRow> {
  const row = await db.selectFrom('container_registry_protection_rules').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

export async function createRule(db: Db, project: Pick<ProjectRow, 'id' | 'path_with_namespace'>, body: RegistryProtectionRuleCreateBody): Promise<ContainerRegistryProtectionRuleRow> {
  const push = levelOf(body.minimum_access_level_for_push) ?? null;
  const del = levelOf(body.minimum_access_level_for_delete) ?? null;
  const found = await problems(db, project, { pattern: body.repository_path_pattern, patternChanged: true, push, del });
  if (found.length) throw refused(found);
  const now = nowIso();
  const made = await db
    .insertInto('container_registry_protection_rules')
    .values({ project_id: project.id, repository_path_pattern: body.repository_path_pattern, minimum_access_level_for_push: push, minimum_access_level_for_delete: del, created_at: now, updated_at: now })
    // Two identical requests at once: the second is told what a later one would be.
    .onConflict((oc) => oc.columns(['project_id', 'repository_path_pattern']).doNothing())
    .returningAll()
    .executeTakeFirst();
  if (!made) throw refused(['Repository path pattern has already been taken']);
  return made;
}

/** PATCH: only what is given changes; an empty string unsets a level, and one must remain. */
export async function updateRule(
  db: Db,
  project: Pick<ProjectRow, 'id' | 'path_with_namespace'>,
  rule: ContainerRegistryProtectionRuleRow,
  body: RegistryProtectionRuleUpdateBody,
): Promise<ContainerRegistryProtectionRuleRow> {
  const pattern = body.repository_path_pattern ?? rule.repository_path_pattern;
  const push = levelOf(body.minimum_access_level_for_push);
  const del = levelOf(body.minimum_access_level_for_delete);
  const next = {
    repository_path_pattern: pattern,
    minimum_access_level_for_push: push === undefined ? rule.minimum_access_level_for_push : push,
    minimum_access_level_for_delete: del === undefined ? rule.minimum_access_level_for_delete : del,
  };
  const found = await problems(db, project, {
    id: rule.id,
    pattern,
    patternChanged: pattern !== rule.repository_path_pattern,
    push: next.minimum_access_level_for_push,
    del: next.minimum_access_level_for_delete,
  });
  if (found.length) throw refused(found);
  const changed = Object.entries(next).some(([k, v]) => rule[k as keyof typeof next] !== v);
  if (!changed) return rule;
  try {
    return await db.updateTable('container_registry_protection_rules').set({ ...next, updated_at: nowIso() }).where('id', '=', rule.id).returningAll().executeTakeFirstOrThrow();
  } catch (e) {
    // The pattern taken by a rule saved meanwhile.
    if (await db.selectFrom('container_registry_protection_rules').select('id').where('project_id', '=', project.id).where('repository_path_pattern', '=', pattern).where('id', '!=', rule.id).executeTakeFirst()) {
      throw refused(['Repository path pattern has already been taken']);
    }
    throw e;
  }
}

export async function deleteRule(db: Db, rule: ContainerRegistryProtectionRuleRow): Promise<void> {
  await db.deleteFrom('container_registry_protection_rules').where('id', '=', rule.id).execute();
}

export type RegistryAction = 'push' | 'delete';

/**
 * The rule that stops a caller of `role` (0 for a credential without one, such as a deploy token)
 * from `action` on the repository at `path`, if any (shared/src/container-registry-protection.ts,
 * which the console's live check uses too). Administrators are never stopped: the caller decides
 * that before asking.
 */
export function blockingRule<R extends Pick<ContainerRegistryProtectionRuleRow, 'repository_path_pattern' | 'minimum_access_level_for_push' | 'minimum_access_level_for_delete'>>(
  rules: readonly R[],
  path: string,
  role: number,
  action: RegistryAction,
): R | undefined {
  return stoppingRule(rules, path, role, (r) => (action === 'push' ? r.minimum_access_level_for_push : r.minimum_access_level_for_delete));
}
