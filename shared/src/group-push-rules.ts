import { z } from './errors.ts';
import { boolParam, intParam } from './params.ts';
import { re2Problem, re2Test } from './re2.ts';

/** The platform caps each pattern at 511 characters, the rejected-message pattern at 2047. */
export const PUSH_RULE_PATTERN_MAX = 511;
export const PUSH_RULE_NEGATIVE_PATTERN_MAX = 2047;

/** A pattern must be valid RE2, as the platform checks it; the message says what is wrong. */
const regexPattern = (max: number) =>
  z
    .string()
    .max(max)
    .superRefine((value, ctx) => {
      const problem = re2Problem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    });

export const PUSH_RULE_PATTERN_FIELDS = [
  'commit_message_regex',
  'commit_message_negative_regex',
  'branch_name_regex',
  'author_email_regex',
  'file_name_regex',
] as const;
export type PushRulePatternField = (typeof PUSH_RULE_PATTERN_FIELDS)[number];

export const PUSH_RULE_FLAG_FIELDS = [
  'deny_delete_tag',
  'member_check',
  'prevent_secrets',
  'commit_committer_check',
  'commit_committer_name_check',
  'reject_unsigned_commits',
  'reject_non_dco_commits',
] as const;
export type PushRuleFlagField = (typeof PUSH_RULE_FLAG_FIELDS)[number];

/** Body of POST and PUT /groups/:id/push_rule: every field optional, at least one given. */
export const groupPushRuleBody = z
  .object({
    commit_message_regex: regexPattern(PUSH_RULE_PATTERN_MAX).nullable().optional(),
    commit_message_negative_regex: regexPattern(PUSH_RULE_NEGATIVE_PATTERN_MAX).nullable().optional(),
    branch_name_regex: regexPattern(PUSH_RULE_PATTERN_MAX).nullable().optional(),
    author_email_regex: regexPattern(PUSH_RULE_PATTERN_MAX).nullable().optional(),
    file_name_regex: regexPattern(PUSH_RULE_PATTERN_MAX).nullable().optional(),
    deny_delete_tag: boolParam().optional(),
    member_check: boolParam().optional(),
    prevent_secrets: boolParam().optional(),
    commit_committer_check: boolParam().optional(),
    commit_committer_name_check: boolParam().optional(),
    reject_unsigned_commits: boolParam().optional(),
    reject_non_dco_commits: boolParam().optional(),
    max_file_size: intParam().pipe(z.number().int().min(0).max(2_000_000)).optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: 'at least one parameter must be provided' });
export type GroupPushRuleBody = z.infer<typeof groupPushRuleBody>;
export type GroupPushRuleInput = z.input<typeof groupPushRuleBody>;

export const groupPushRule = z.object({
  id: z.number().int(),
  created_at: z.string(),
  commit_message_regex: z.string().nullable(),
  commit_message_negative_regex: z.string().nullable(),
  branch_name_regex: z.string().nullable(),
  deny_delete_tag: z.boolean(),
  member_check: z.boolean(),
  prevent_secrets: z.boolean(),
  author_email_regex: z.string().nullable(),
  file_name_regex: z.string().nullable(),
  max_file_size: z.number().int(),
  commit_committer_check: z.boolean().nullable(),
  commit_committer_name_check: z.boolean(),
  reject_unsigned_commits: z.boolean().nullable(),
  reject_non_dco_commits: z.boolean().nullable(),
});
export type GroupPushRule = z.infer<typeof groupPushRule>;

/**
 * Does a value pass one pattern of the rule? As the platform's PushRuleable: RE2, an unanchored
 * search (`UntrustedRegexp#===`); commit-message patterns in multi-line mode (`^` and `$` at
 * every line), the message without its final line break for the rejected-message pattern.
 * Allow-lists must match, deny-lists (rejected messages, prohibited file names) must not.
 * Throws Re2SyntaxError for a pattern RE2 refuses.
 */
export function pushRuleAllows(field: PushRulePatternField, pattern: string, value: string): boolean {
  switch (field) {
    case 'commit_message_regex':
      return re2Test(pattern, value, { multiline: true });
    case 'commit_message_negative_regex':
      return !re2Test(pattern, value.replace(/(\r\n|\r|\n)$/, ''), { multiline: true });
    case 'file_name_regex':
      return !re2Test(pattern, value);
    default:
      return re2Test(pattern, value);
  }
}

/** Why RE2 refuses a pattern of the rule ("uses a lookahead (?!…), …"), or undefined when it is valid. */
export const pushRulePatternProblem = (pattern: string) => re2Problem(pattern);

const REASONS: Record<PushRulePatternField, [pass: string, fail: string]> = {
  commit_message_regex: ['The commit message matches the required pattern', 'The commit message does not match the required pattern'],
  commit_message_negative_regex: ['The commit message avoids the forbidden pattern', 'The commit message matches a forbidden pattern'],
  branch_name_regex: ['The branch name matches the required pattern', 'The branch name does not match the required pattern'],
  author_email_regex: ['The author email matches the required pattern', 'The author email does not match the required pattern'],
  file_name_regex: ['The file name is allowed', 'The file name is rejected'],
};

const SAMPLE_OF: Record<PushRulePatternField, 'commit_message' | 'branch_name' | 'author_email' | 'file_name'> = {
  commit_message_regex: 'commit_message',
  commit_message_negative_regex: 'commit_message',
  branch_name_regex: 'branch_name',
  author_email_regex: 'author_email',
  file_name_regex: 'file_name',
};

/**
 * What a push would be checked against, for the console's live tester: the same patterns,
 * the same engine and meaning as the platform (see pushRuleAllows). Patterns that are unset,
 * invalid or without a sample are left out.
 */
export function checkAgainstPushRule(
  rule: Partial<Record<PushRulePatternField, string | null>>,
  sample: { commit_message?: string; branch_name?: string; author_email?: string; file_name?: string },
): { field: PushRulePatternField; ok: boolean; reason: string }[] {
  const results: { field: PushRulePatternField; ok: boolean; reason: string }[] = [];
  for (const field of PUSH_RULE_PATTERN_FIELDS) {
    const pattern = rule[field];
    const value = sample[SAMPLE_OF[field]];
    if (!pattern || value === undefined || re2Problem(pattern)) continue;
    const ok = pushRuleAllows(field, pattern, value);
    results.push({ field, ok, reason: REASONS[field][ok ? 0 : 1] });
  }
  return results;
}
