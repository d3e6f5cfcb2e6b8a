import type { ApprovalState, MergeRequestApprovals } from '../../../shared/src/merge-request-approvals.ts';
import type { ApprovalsView } from '../services/planning/merge-request-approvals.ts';
import { presentWorkItemUser } from './work-items.ts';

/** The platform's approvals of a merge request; without approval rules, none is required or left. */
export function presentApprovals(v: ApprovalsView, ctx: { baseUrl: string }): MergeRequestApprovals {
  const m = v.mr;
  return {
    id: m.id,
    iid: m.iid,
    project_id: m.project_id,
    title: m.title,
    description: m.description,
    state: m.state,
    created_at: m.created_at,
    updated_at: m.updated_at,
    merge_status: m.merge_status,
    approved: v.approvals.length > 0,
    approvals_required: 0,
    approvals_left: 0,
    require_password_to_approve: false,
    approved_by: v.approvals.map((a) => ({ user: presentWorkItemUser(a.user, ctx.baseUrl), approved_at: a.approvedAt })),
    suggested_approvers: [],
    approvers: [],
    approver_groups: [],
    user_has_approved: v.userHasApproved,
    user_can_approve: v.userCanApprove,
    approval_rules_left: [],
    has_approval_rules: false,
    merge_request_approvers_available: false,
    multiple_approval_rules_available: false,
    invalid_approvers_rules: [],
  };
}

/** GET …/approval_state: no rules to tell. */
export const presentApprovalState = (): ApprovalState => ({ approval_rules_overwritten: false, rules: [] });
