import {
  PUSH_RULE_FLAG_FIELDS,
  PUSH_RULE_PATTERN_FIELDS,
  type GroupPushRule,
  type GroupPushRuleBody,
  type PushRuleFlagField,
  type PushRulePatternField,
} from '../../../../shared/src/group-push-rules.ts';

/**
 * The form edits every field of the rule: patterns as text (empty means "no pattern"), flags as
 * switches, the size in MB. The shared POST/PUT body schema validates it, so a pattern RE2
 * refuses is caught, with the reason, before anything is sent.
 */
export type PushRuleValues = Record<PushRulePatternField, string> & Record<PushRuleFlagField, boolean> & { max_file_size: number | string };

export const EMPTY_RULE: PushRuleValues = {
  commit_message_regex: '',
  commit_message_negative_regex: '',
  branch_name_regex: '',
  author_email_regex: '',
  file_name_regex: '',
  deny_delete_tag: false,
  member_check: false,
  prevent_secrets: false,
  commit_committer_check: false,
  commit_committer_name_check: false,
  reject_unsigned_commits: false,
  reject_non_dco_commits: false,
  max_file_size: 0,
};

export function toFormValues(rule: GroupPushRule | null): PushRuleValues {
  if (!rule) return { ...EMPTY_RULE };
  const values = { ...EMPTY_RULE, max_file_size: rule.max_file_size };
  for (const f of PUSH_RULE_PATTERN_FIELDS) values[f] = rule[f] ?? '';
  // The platform answers null for some flags it never set: they are off.
  for (const f of PUSH_RULE_FLAG_FIELDS) values[f] = rule[f] ?? false;
  return values;
}

/** Every field is sent, so the saved rule is exactly what the form shows; an empty pattern clears it. */
export function toBody(parsed: GroupPushRuleBody): GroupPushRuleBody {
  const body: GroupPushRuleBody = { ...parsed };
  for (const f of PUSH_RULE_PATTERN_FIELDS) body[f] = parsed[f] ? parsed[f] : null;
  return body;
}

export const FIELD_LABELS: Record<keyof PushRuleValues, string> = {
  commit_message_regex: 'Commit messages must match',
  commit_message_negative_regex: 'Commit messages must not match',
  branch_name_regex: 'Branch names must match',
  author_email_regex: 'Author emails must match',
  file_name_regex: 'Prohibited file names',
  deny_delete_tag: 'Do not allow users to remove Git tags with git push',
  member_check: 'Check whether the commit author is a user of this instance',
  prevent_secrets: 'Prevent pushing secret files',
  commit_committer_check: 'Reject unverified users',
  commit_committer_name_check: 'Reject inconsistent user names',
  reject_unsigned_commits: 'Reject unsigned commits',
  reject_non_dco_commits: 'Reject commits without a DCO sign-off',
  max_file_size: 'Maximum file size',
};

export const isField = (name: string): name is keyof PushRuleValues => name in FIELD_LABELS;
