import type { PushRuleRow } from '../db/schema.ts';
import type { GroupPushRule } from '../../../shared/src/group-push-rules.ts';
import type { ProjectPushRule } from '../../../shared/src/project-push-rules.ts';
import { bool } from '../util/rows.ts';

/** As on the platform, three disabled checks read null rather than false. */
const orNull = (v: number) => (bool(v) ? true : null);

export function presentPushRule(r: PushRuleRow): GroupPushRule {
  return {
    id: r.id,
    created_at: r.created_at,
    commit_message_regex: r.commit_message_regex,
    commit_message_negative_regex: r.commit_message_negative_regex,
    branch_name_regex: r.branch_name_regex,
    deny_delete_tag: bool(r.deny_delete_tag),
    member_check: bool(r.member_check),
    prevent_secrets: bool(r.prevent_secrets),
    author_email_regex: r.author_email_regex,
    file_name_regex: r.file_name_regex,
    max_file_size: r.max_file_size,
    commit_committer_check: orNull(r.commit_committer_check),
    commit_committer_name_check: bool(r.commit_committer_name_check),
    reject_unsigned_commits: orNull(r.reject_unsigned_commits),
    reject_non_dco_commits: orNull(r.reject_non_dco_commits),
  };
}

export const presentProjectPushRule = (r: PushRuleRow): ProjectPushRule => ({ ...presentPushRule(r), project_id: r.project_id! });
