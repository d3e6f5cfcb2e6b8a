import { z } from './errors.ts';
import { workItemUser } from './issues.ts';
import { mergeRequestBasic } from './merge-requests.ts';

/** POST /projects/:id/merge_requests/:merge_request_iid/approve: `sha`, when given, must be the source branch's head (else 409). */
export const approveBody = z.object({
  sha: z.string().max(64).optional(),
});
export type ApproveBody = z.infer<typeof approveBody>;

/** One approval: who, and when (the platform's Approvals entity). */
export const approval = z.object({ user: workItemUser, approved_at: z.string() });

/**
 * The approvals of a merge request, as the platform answers GET …/approvals, POST …/approve and
 * …/unapprove: the merge request's own fields, then its approvals. Gatehouse keeps no approval
 * rules: none are required (`approvals_required` and `approvals_left` are 0, the rule lists
 * empty), and `approved` says whether anyone approved (the platform's answer without rules).
 * Developers and up approve, the merge request's author excepted (the platform's default,
 * "prevent approval by author").
 */
export const mergeRequestApprovals = z.object({
  id: z.number().int(),
  iid: z.number().int(),
  project_id: z.number().int(),
  title: z.string(),
  description: z.string().nullable(),
  state: mergeRequestBasic.shape.state,
  created_at: z.string(),
  updated_at: z.string(),
  merge_status: z.string(),
  approved: z.boolean(),
  approvals_required: z.number().int(),
  approvals_left: z.number().int(),
  require_password_to_approve: z.boolean(),
  approved_by: z.array(approval),
  suggested_approvers: z.array(workItemUser),
  approvers: z.array(z.object({ user: workItemUser })),
  approver_groups: z.array(z.object({ group: z.object({ id: z.number().int(), name: z.string() }) })),
  user_has_approved: z.boolean(),
  user_can_approve: z.boolean(),
  approval_rules_left: z.array(z.object({ id: z.number().int(), name: z.string(), rule_type: z.string() })),
  has_approval_rules: z.boolean(),
  merge_request_approvers_available: z.boolean(),
  multiple_approval_rules_available: z.boolean(),
  invalid_approvers_rules: z.array(z.object({ id: z.number().int(), name: z.string(), rule_type: z.string() })),
});
export type MergeRequestApprovals = z.infer<typeof mergeRequestApprovals>;

/** GET …/approval_state: the rules and how far each is met; Gatehouse has none. */
export const approvalState = z.object({
  approval_rules_overwritten: z.boolean(),
  rules: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      rule_type: z.string(),
      approvals_required: z.number().int(),
      approved: z.boolean(),
      approved_by: z.array(workItemUser),
    }),
  ),
});
export type ApprovalState = z.infer<typeof approvalState>;
