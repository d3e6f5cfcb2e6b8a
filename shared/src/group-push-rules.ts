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

/** The platform's list of secret file patterns (files_denylist.yml), checked when prevent_secrets is on. */
export const SECRET_FILE_PATTERNS = [
  'aws\\/credentials$',
  '(ssh|config)\\/(personal|server)_(rsa|dsa|ed25519|ecdsa|ecdsa_sk|ed25519_sk)',
  'id_rsa$',
  'id_dsa$',
  'id_ed25519$',
  'id_ecdsa$',
  'id_ecdsa_sk$',
  'id_ed25519_sk$',
  '\\.(pem|key)$',
  '[._]history$',
] as const;

/** The pattern of the secrets list that prohibits a file name, if one does (prevent_secrets). */
export const secretFilePattern = (path: string): string | undefined => SECRET_FILE_PATTERNS.find((p) => !pushRuleAllows('file_name_regex', p, path));

/** A sign-off as the platform recognises it for reject_non_dco_commits. */
export const DCO_PATTERN = 'Signed-off-by:.+<.+@.+>';

/** Every check of a push rule, as named in its record. */
export type PushRuleCheck = PushRulePatternField | PushRuleFlagField | 'max_file_size';

/** The rule's fields the checks read (a stored rule, or the console's form). */
export type PushRuleSettings = Partial<Record<PushRulePatternField, string | null>> & Partial<Record<PushRuleFlagField, boolean | null>> & { max_file_size?: number | null };

/** A pushed commit as the checks see it: who wrote it, its message, its signature and the files it changes. */
export interface PushedCommit {
  id: string;
  message: string;
  authorName: string;
  authorEmail: string;
  committerName: string;
  committerEmail: string;
  signed: boolean;
  /** Files the commit adds or changes (deleted ones are not checked), with their size in bytes when known. */
  files: { path: string; status: 'added' | 'modified'; size?: number }[];
}

/** Who pushes: their name and verified emails (committer checks), and which emails belong to users (member check). */
export interface Pusher {
  name: string | null;
  emails: string[];
  isUserEmail: (email: string) => boolean;
}

export interface PushRuleViolation {
  check: PushRuleCheck;
  message: string;
}

const MIB = 1024 * 1024;

/**
 * The first check of the rule the commit fails, in the platform's order and words
 * (PushRules::CommitCheck, then the checks of the changed files), or undefined.
 */
export function commitViolation(rule: PushRuleSettings, commit: PushedCommit, pusher: Pusher): PushRuleViolation | undefined {
  const pattern = (field: PushRulePatternField) => rule[field] || undefined;
  const fail = (check: PushRuleCheck, message: string): PushRuleViolation => ({ check, message });
  const message = pattern('commit_message_regex');
  if (message && !pushRuleAllows('commit_message_regex', message, commit.message)) return fail('commit_message_regex', `Commit message does not follow the pattern '${message}'`);
  const negative = pattern('commit_message_negative_regex');
  if (negative && !pushRuleAllows('commit_message_negative_regex', negative, commit.message)) return fail('commit_message_negative_regex', `Commit message contains the forbidden pattern '${negative}'`);
  const email = pattern('author_email_regex');
  if (email && !pushRuleAllows('author_email_regex', email, commit.committerEmail)) return fail('author_email_regex', `Committer's email '${commit.committerEmail}' does not follow the pattern '${email}'`);
  if (email && !pushRuleAllows('author_email_regex', email, commit.authorEmail)) return fail('author_email_regex', `Author's email '${commit.authorEmail}' does not follow the pattern '${email}'`);
  if (rule.commit_committer_check && !pusher.emails.some((e) => e.toLowerCase() === commit.committerEmail.toLowerCase())) {
    return fail('commit_committer_check', `You cannot push commits for '${commit.committerEmail}'. You can only push commits that were committed with one of your own verified emails.`);
  }
  if (rule.commit_committer_name_check && pusher.name !== commit.committerName) {
    return fail('commit_committer_name_check', `Your git commit name '${commit.committerName}' does not match your user name '${pusher.name ?? ''}'.`);
  }
  if (rule.reject_unsigned_commits && !commit.signed) return fail('reject_unsigned_commits', 'Commit must be signed with a GPG key');
  if (rule.reject_non_dco_commits && !re2Test(DCO_PATTERN, commit.message)) return fail('reject_non_dco_commits', 'Commit message must contain a DCO signoff');
  if (rule.member_check) {
    if (!pusher.isUserEmail(commit.authorEmail)) return fail('member_check', `Author '${commit.authorEmail}' is not a member of team`);
    if (commit.authorEmail.toLowerCase() !== commit.committerEmail.toLowerCase() && !pusher.isUserEmail(commit.committerEmail)) {
      return fail('member_check', `Committer '${commit.committerEmail}' is not a member of team`);
    }
  }
  for (const file of commit.files) {
    const denied = fileNameViolation(rule, file);
    if (denied) return denied;
    const max = rule.max_file_size ?? 0;
    if (max > 0 && file.size !== undefined && file.size > max * MIB) {
      return fail('max_file_size', `File ${JSON.stringify(file.path)} is larger than the allowed size of ${max} MiB. Use Git LFS to manage this file.`);
    }
  }
  return undefined;
}

/** A new file whose name the secrets list or the rule's file name pattern prohibits (changed files are not checked, as on the platform). */
function fileNameViolation(rule: PushRuleSettings, file: PushedCommit['files'][number]): PushRuleViolation | undefined {
  if (file.status !== 'added') return undefined;
  const prohibited = (check: PushRuleCheck, pattern: string): PushRuleViolation => ({ check, message: `File name ${file.path} was prohibited by the pattern ${JSON.stringify(pattern)}.` });
  const secret = rule.prevent_secrets ? secretFilePattern(file.path) : undefined;
  if (secret) return prohibited('prevent_secrets', secret);
  if (rule.file_name_regex && !pushRuleAllows('file_name_regex', rule.file_name_regex, file.path)) return prohibited('file_name_regex', rule.file_name_regex);
  return undefined;
}

/** The branch-level checks of a ref update: the branch name pattern (not for the default branch nor a deletion) and tag deletion. */
export function refViolation(rule: PushRuleSettings, update: { ref: string; deletion: boolean; defaultBranch: string }): PushRuleViolation | undefined {
  if (update.ref.startsWith('refs/tags/')) {
    return rule.deny_delete_tag && update.deletion ? { check: 'deny_delete_tag', message: 'You cannot delete a tag' } : undefined;
  }
  const branch = update.ref.replace(/^refs\/heads\//, '');
  const pattern = rule.branch_name_regex;
  if (!pattern || update.deletion || branch === update.defaultBranch) return undefined;
  return pushRuleAllows('branch_name_regex', pattern, branch) ? undefined : { check: 'branch_name_regex', message: `Branch name does not follow the pattern '${pattern}'` };
}

/** Whether any check of the rule reads the pushed commits (else they need not be read at all). */
export const checksCommits = (rule: PushRuleSettings) =>
  Boolean(rule.commit_message_regex || rule.commit_message_negative_regex || rule.author_email_regex || rule.file_name_regex || rule.prevent_secrets || (rule.max_file_size ?? 0) > 0 || rule.commit_committer_check || rule.commit_committer_name_check || rule.reject_unsigned_commits || rule.reject_non_dco_commits || rule.member_check);
