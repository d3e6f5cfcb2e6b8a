import { zodResolver } from '@hookform/resolvers/zod';
import type { FieldPath, Resolver } from 'react-hook-form';
import type { z } from 'zod';
import { isRepositoryPath } from '../../../../shared/src/container-registry.ts';
import {
  protectionLevel,
  registryProtectionRuleCreateBody,
  stoppingRule,
  type ProtectionLevelName,
  type RegistryProtectionRule,
  type RegistryProtectionRuleUpdateBody,
} from '../../../../shared/src/container-registry-protection.ts';
import { ACCESS_LEVELS, ROLE_NAMES } from '../../../../shared/src/role-names.ts';
import type { FieldErrors } from '../../api/client.ts';

/*
 * What the Container registry screen works out without React: the docker commands, the live
 * "would this push be allowed?" (the token service's own rule, shared/), and the rule form's
 * values, body and errors.
 */

export const LEVEL_LABELS: Record<ProtectionLevelName, string> = { maintainer: 'Maintainer', owner: 'Owner', admin: 'Administrator' };
/** Who a rule's level lets through: `Maintainer and up`, …, `Administrators only`. */
export const levelReach = (level: ProtectionLevelName) => (level === 'admin' ? 'Administrators only' : `${LEVEL_LABELS[level]} and up`);

/** The commands a user runs, for the signed-in user: the access token a placeholder, never a credential. */
export function dockerCommands(connection: { host: string; image_prefix: string }, username: string) {
  const image = `${connection.image_prefix}/<image>:<tag>`;
  return {
    login: `echo "<your access token>" | docker login ${connection.host} --username ${username} --password-stdin`,
    push: [`docker tag <local image> ${image}`, `docker push ${image}`].join('\n'),
    pull: `docker pull ${image}`,
  };
}

/** Who the live check asks about: a role of the project, or an administrator. */
export type CheckRole = number | 'admin';
export const CHECK_ROLES: { value: string; label: string }[] = [
  ...[ACCESS_LEVELS.reporter, ACCESS_LEVELS.developer, ACCESS_LEVELS.maintainer, ACCESS_LEVELS.owner].map((l) => ({ value: String(l), label: ROLE_NAMES[l] })),
  { value: 'admin', label: 'Administrator' },
];
export const checkRoleOf = (value: string): CheckRole => (value === 'admin' ? 'admin' : Number(value));
const roleLabel = (role: CheckRole) => (role === 'admin' ? 'an administrator' : `a ${ROLE_NAMES[role] ?? 'member'}`);

export interface PushVerdict {
  allowed: boolean;
  /** One sentence saying why, as the user would be told. */
  why: string;
  /** The rule that refuses the push, if one does. */
  rule?: RegistryProtectionRule;
}

/**
 * Whether the token service would let `role` push to the repository at `path` of the project at
 * `projectPath`: the path must be a repository path of the project; pushing needs Developer; then
 * the first rule whose pattern matches (case aside, `*` any characters) and asks for more refuses,
 * administrators aside.
 */
export function pushVerdict(rules: readonly RegistryProtectionRule[], projectPath: string, path: string, role: CheckRole): PushVerdict {
  const prefix = projectPath.toLowerCase();
  const trimmed = path.trim();
  if (!isRepositoryPath(trimmed)) return { allowed: false, why: 'Not an image path: lower-case letters, digits and . _ - between slashes.' };
  if (trimmed !== prefix && !trimmed.startsWith(`${prefix}/`)) return { allowed: false, why: `Not an image of this project: its paths start with ${prefix}.` };
  if (role === 'admin') return { allowed: true, why: 'Administrators may push anywhere: protection rules never stop them.' };
  if (role < ACCESS_LEVELS.developer) return { allowed: false, why: `Refused: pushing needs at least the Developer role, and ${roleLabel(role)} only pulls.` };
  const rule = stoppingRule(rules, trimmed, role, (r) => protectionLevel(r.minimum_access_level_for_push));
  if (rule) return { allowed: false, rule, why: `Refused by the rule ${rule.repository_path_pattern}: pushing there needs at least the ${LEVEL_LABELS[rule.minimum_access_level_for_push!]} role.` };
  return { allowed: true, why: `Allowed: no rule stops ${roleLabel(role)} pushing to this path.` };
}

/** The rule form: the shared schema's input (a level left out is "not restricted"). */
export type RuleFormValues = z.input<typeof registryProtectionRuleCreateBody>;
export type RuleFormBody = z.output<typeof registryProtectionRuleCreateBody>;

/** A rule's values in the form; a new rule starts at the project's path, pushes for Maintainers. */
export function ruleFormValues(rule: RegistryProtectionRule | null, projectPath: string): RuleFormValues {
  if (!rule) return { repository_path_pattern: `${projectPath.toLowerCase()}/`, minimum_access_level_for_push: 'maintainer', minimum_access_level_for_delete: undefined };
  return {
    repository_path_pattern: rule.repository_path_pattern,
    minimum_access_level_for_push: rule.minimum_access_level_for_push ?? undefined,
    minimum_access_level_for_delete: rule.minimum_access_level_for_delete ?? undefined,
  };
}

/** An edit as the PATCH takes it: every field, a level left out sent as "" (unset). */
export const updateBodyOf = (body: RuleFormBody): RegistryProtectionRuleUpdateBody => ({
  repository_path_pattern: body.repository_path_pattern,
  minimum_access_level_for_push: body.minimum_access_level_for_push ?? '',
  minimum_access_level_for_delete: body.minimum_access_level_for_delete ?? '',
});

const NEEDS_A_LEVEL = 'Choose a role for push or for delete: a rule restricts at least one.';
const schemaResolver = zodResolver(registryProtectionRuleCreateBody);

/**
 * The shared schema as the form's resolver. Its "at least one level" problem is about the whole
 * body (no field); the form shows it under the push level, in words for the form.
 */
export const ruleResolver: Resolver<RuleFormValues, unknown, RuleFormBody> = async (values, context, options) => {
  const result = await schemaResolver(values, context, options);
  const errors = result.errors as Record<string, { type?: string; message?: string } | undefined>;
  if (errors['']) {
    errors.minimum_access_level_for_push = { ...errors[''], message: NEEDS_A_LEVEL };
    delete errors[''];
  }
  return result as Awaited<ReturnType<Resolver<RuleFormValues, unknown, RuleFormBody>>>;
};

const FIELDS = ['repository_path_pattern', 'minimum_access_level_for_push', 'minimum_access_level_for_delete'] as const;

/**
 * A refusal's field errors by the field that shows them. A 400 names its field; a 422 lists the
 * platform's sentences under `error`, each naming its field in words: "Repository path pattern
 * has already been taken" is shown under the pattern as "has already been taken"; "A rule must
 * have at least a minimum access role…" under the push level, whole.
 */
export function ruleFieldErrors(errors: FieldErrors): FieldErrors {
  const out: FieldErrors = {};
  const add = (path: string, message: string) => (out[path] ??= []).push(message);
  for (const [path, messages] of Object.entries(errors)) {
    for (const m of messages) {
      if ((FIELDS as readonly string[]).includes(path)) add(path, m);
      else if (/^repository path pattern /i.test(m)) add('repository_path_pattern', m.slice('repository path pattern '.length));
      else if (/minimum access role/i.test(m)) add('minimum_access_level_for_push', m);
      else add(path, m);
    }
  }
  return out;
}

export const ruleFieldOf = (path: string): FieldPath<RuleFormValues> | null => FIELDS.find((f) => f === path) ?? null;
