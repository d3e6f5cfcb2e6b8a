import { autoMergeCancelResult, mergeRequestMergeBody } from '../../../shared/src/merge-request-merge.ts';
import { mergeRequest } from '../../../shared/src/merge-requests.ts';
import { defineRoute, type RouteContext } from '../http/route.ts';
import { ApiError } from '../http/errors.ts';
import { ensureRepository } from '../services/git/repositories.ts';
import { cancelMerge, mergeMergeRequest } from '../services/merging/merge-request-merge.ts';
import { mergeRequestView } from '../services/planning/merge-requests.ts';
import { mergeRequestLoader } from './merge-requests.ts';
import { callerRole } from './branches.ts';
import { MergeConflict, NeedsRebase } from '../services/merging/trains/git-merge.ts';
import { presentMergeRequest } from '../presenters/merge-requests.ts';

const area = 'merge-request-merge';
type Ctx = RouteContext<unknown, unknown, { merge_request_iid: number }, 'project'>;

/** The merge request of the path and the project's repository. */
const withRepository = {
  params: mergeRequestLoader.params,
  with: {
    ...mergeRequestLoader.with,
    dir: (ctx: Ctx) => ensureRepository(ctx.db, ctx.config.repositoriesDir, ctx.project),
  },
};

export const mergeRequestMergeRoutes = [
  defineRoute({
    method: 'put',
    path: '/projects/:id/merge_requests/:merge_request_iid/merge',
    area,
    summary:
      'Merge a merge request: the target branch moves to a merge commit (or fast-forwards) by the project’s merge method; 405 not mergeable (draft, closed, on a merge train), 406 conflicts or a needed rebase, 409 sha not the source head, 422 the merge failed (Developer; Maintainer into the default branch)',
    load: 'project',
    permission: 'push_code',
    ...withRepository,
    body: mergeRequestMergeBody,
    response: mergeRequest,
    errors: [405, 406, 409, 422],
    handler: async (ctx) => {
      try {
        const merged = await mergeMergeRequest({ db: ctx.db, dir: ctx.dir, baseUrl: ctx.baseUrl, project: ctx.project, group: ctx.group, user: ctx.actor.user!, role: callerRole(ctx) }, ctx.mergeRequest, ctx.body);
        return await mergeRequestView(ctx.db, merged);
      } catch (e) {
        // The platform's 406: the branch cannot be merged as it stands.
        if (e instanceof MergeConflict || e instanceof NeedsRebase) throw new ApiError(406, { message: 'Branch cannot be merged' });
        throw e;
      }
    },
    present: (v, ctx) => presentMergeRequest({ ...v, canMerge: false }, ctx),
  }),
  defineRoute({
    method: 'post',
    path: '/projects/:id/merge_requests/:merge_request_iid/cancel_merge_when_pipeline_succeeds',
    area,
    summary:
      'Cancel the automatic merge (auto_merge, merge when pipeline succeeds) of a merge request, or take it off its merge train; answers as the platform does, 201 with {"status":"success"}, or 201 with its refusal when none was set (Developer)',
    load: 'project',
    permission: 'push_code',
    ...withRepository,
    status: 201,
    response: autoMergeCancelResult,
    handler: (ctx) => cancelMerge({ db: ctx.db, dir: ctx.dir, project: ctx.project, group: ctx.group, baseUrl: ctx.baseUrl }, ctx.mergeRequest, ctx.actor.user!),
    present: (v) => v,
  }),
];
