import { z } from './errors.ts';
import { boolParam, intParam } from './params.ts';

/** The platform caps each pattern at 511 characters. */
export const PUSH_RULE_PATTERN_MAX = 511;

/** A pattern must compile; the message names what is wrong with it. */
export const regexPattern = z
  .string()
  .max(PUSH_RULE_PATTERN_MAX)
  .superRefine((value, ctx) => {
    try {
      new RegExp(value);
    } catch (e) {
      ctx.addIssue({ code: 'custom', message: `is not a valid regular expression: ${(e as Error).message.replace(/^Invalid regular expression: /, '')}` });
    }
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
    commit_message_regex: regexPattern.nullable().optional(),
    commit_message_negative_regex: regexPattern.nullable().optional(),
    branch_name_regex: regexPattern.nullable().optional(),
    author_email_regex: regexPattern.nullable().optional(),
    file_name_regex: regexPattern.nullable().optional(),
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
 * What a push would be checked against, for the console's live tester: the same patterns,
 * the same meaning (allow-lists must match, deny-lists must not).
 */
export function checkAgainstPushRule(
  rule: Partial<Record<PushRulePatternField, string | null>>,
  sample: { commit_message?: string; branch_name?: string; author_email?: string; file_name?: string },
): { field: PushRulePatternField; ok: boolean; reason: string }[] {
  const results: { field: PushRulePatternField; ok: boolean; reason: string }[] = [];
  const test = (pattern: string | null | undefined, value: string | undefined) => {
    if (!pattern || value === undefined) return undefined;
    try {
      return new RegExp(pattern).test(value);
    } catch {
      return undefined;
    }
  };
  const allow = (field: PushRulePatternField, value: string | undefined, what: string) => {
    const hit = test(rule[field], value);
    if (hit !== undefined) results.push({ field, ok: hit, reason: hit ? `${what} matches the required pattern` : `${what} does not match the required pattern` });
  };
  allow('commit_message_regex', sample.commit_message, 'The commit message');
  const negative = test(rule.commit_message_negative_regex, sample.commit_message);
  if (negative !== undefined) {
    results.push({ field: 'commit_message_negative_regex', ok: !negative, reason: negative ? 'The commit message matches a forbidden pattern' : 'The commit message avoids the forbidden pattern' });
  }
  allow('branch_name_regex', sample.branch_name, 'The branch name');
  allow('author_email_regex', sample.author_email, 'The author email');
  const file = test(rule.file_name_regex, sample.file_name);
  if (file !== undefined) results.push({ field: 'file_name_regex', ok: !file, reason: file ? 'The file name is rejected' : 'The file name is allowed' });
  return results;
}
