import { approvalState, approveBody, mergeRequestApprovals } from '../../../shared/src/merge-request-approvals.ts';
import { defineRoute, type RouteContext } from '../http/route.ts';
import { canProject } from '../policies/index.ts';
import { presentApprovals, presentApprovalState } from '../presenters/merge-request-approvals.ts';
import { approvalsOf, approveMergeRequest, unapproveMergeRequest } from '../services/planning/merge-request-approvals.ts';
import { refreshHead } from '../services/planning/merge-requests.ts';
import { actingOf } from './issues.ts';
import { mergeRequestLoader, withRepo } from './merge-requests.ts';

const area = 'merge-requests';
const base = '/projects/:id/merge_requests/:merge_request_iid';
type Ctx = RouteContext<unknown, unknown, { merge_request_iid: number }, 'project'>;

/** The approvals as the caller sees them: whether they may approve follows their role on the project. */
const approvalsFor = (ctx: Ctx & { mergeRequest: Parameters<typeof approvalsOf>[1] }) => {
  const user = ctx.actor.user;
  const mayApprove = user ? canProject(ctx.actor, 'approve_merge_request', { project: ctx.project, group: ctx.group, level: ctx.level }) : false;
  return approvalsOf(ctx.db, ctx.mergeRequest, user ? { id: user.id, mayApprove } : null);
};

export const mergeRequestApprovalRoutes = [
  defineRoute({
    method: 'get',
    path: `${base}/approvals`,
    area,
    summary: 'The approvals of a merge request: who approved it and when, whether the caller approved it or may; no approval rules, so none is required (approvals_required and approvals_left 0)',
    auth: 'optional',
    load: 'project',
    permission: 'read_merge_request',
    ...mergeRequestLoader,
    response: mergeRequestApprovals,
    handler: (ctx) => approvalsFor(ctx),
    present: presentApprovals,
  }),
  defineRoute({
    method: 'get',
    path: `${base}/approval_state`,
    area,
    summary: 'The approval rules of a merge request and how far each is met: Gatehouse keeps none (rules is empty)',
    auth: 'optional',
    load: 'project',
    permission: 'read_merge_request',
    ...mergeRequestLoader,
    response: approvalState,
    handler: async () => presentApprovalState(),
    present: (v) => v,
  }),
  defineRoute({
    method: 'post',
    path: `${base}/approve`,
    area,
    summary:
      'Approve a merge request as the caller; 409 when `sha` is not the source branch’s head, 401 when the caller approved it already or wrote it (the platform’s default: authors do not approve their own) (Developer)',
    load: 'project',
    permission: 'approve_merge_request',
    params: mergeRequestLoader.params,
    with: { ...mergeRequestLoader.with, ...withRepo },
    body: approveBody,
    status: 201,
    response: mergeRequestApprovals,
    errors: [401, 409],
    handler: async (ctx) => {
      const mr = await refreshHead(ctx.db, ctx.repo, ctx.mergeRequest);
      await approveMergeRequest(ctx.db, actingOf(ctx), mr, mr.sha, ctx.body.sha);
      return approvalsFor({ ...ctx, mergeRequest: mr });
    },
    present: presentApprovals,
  }),
  defineRoute({
    method: 'post',
    path: `${base}/unapprove`,
    area,
    summary: 'Take back the caller’s approval of a merge request (nothing changes when they had not approved it) (Developer)',
    load: 'project',
    permission: 'approve_merge_request',
    ...mergeRequestLoader,
    status: 201,
    response: mergeRequestApprovals,
    handler: async (ctx) => {
      await unapproveMergeRequest(ctx.db, actingOf(ctx), ctx.mergeRequest);
      return approvalsFor(ctx);
    },
    present: presentApprovals,
  }),
];
