import { mergeRequest, mergeRequestCreateBody } from '../../../shared/src/merge-requests.ts';
import { defineRoute, type RouteContext } from '../http/route.ts';
import { recordId } from '../http/params.ts';
import { canProject } from '../policies/index.ts';
import { ensureRepository } from '../services/repositories.ts';
import * as mrs from '../services/merge-requests.ts';
import { presentMergeRequest } from '../presenters/merge-requests.ts';
import { actingOf } from './issues.ts';

const area = 'merge-requests';
const base = '/projects/:id/merge_requests';

type Ctx = RouteContext<unknown, unknown, { merge_request_iid: number }, 'project'>;

/** The project's repository, where the merge requests' branches are. */
export const withRepo = {
  repo: async (ctx: Pick<Ctx, 'config' | 'project'>): Promise<mrs.Repo> => ({ dir: await ensureRepository(ctx.config.repositoriesDir, ctx.project) }),
};

/** The merge request named by :merge_request_iid in the loaded project (`...mergeRequestLoader` gives `ctx.mergeRequest`). */
export const mergeRequestLoader = {
  params: { merge_request_iid: recordId('Merge Request') },
  with: { mergeRequest: (ctx: Ctx) => mrs.findMergeRequestByIid(ctx.db, ctx.project.id, ctx.params.merge_request_iid) },
};

const canMerge = (ctx: Pick<Ctx, 'actor' | 'project' | 'group' | 'level'>) => canProject(ctx.actor, 'push_code', { project: ctx.project, group: ctx.group, level: ctx.level });
const present = (v: mrs.MergeRequestView, ctx: Pick<Ctx, 'actor' | 'project' | 'group' | 'level' | 'baseUrl'>) => presentMergeRequest({ ...v, canMerge: canMerge(ctx) }, ctx);

export const mergeRequestRoutes = [
  defineRoute({
    method: 'post',
    path: base,
    area,
    summary: 'Open a merge request between two existing branches (400 a branch is missing, 409 one is already open for them) (Developer)',
    load: 'project',
    permission: 'create_merge_request',
    with: withRepo,
    body: mergeRequestCreateBody,
    status: 201,
    response: mergeRequest,
    errors: [409],
    handler: async (ctx) => mrs.mergeRequestView(ctx.db, await mrs.createMergeRequest(ctx.db, ctx.repo, actingOf(ctx), ctx.body)),
    present,
  }),
  defineRoute({
    method: 'get',
    path: `${base}/:merge_request_iid`,
    area,
    summary: 'Get a merge request (sha, diff_refs, merge_status, detailed_merge_status)',
    auth: 'optional',
    load: 'project',
    permission: 'read_merge_request',
    ...mergeRequestLoader,
    response: mergeRequest,
    handler: async (ctx) => mrs.mergeRequestView(ctx.db, ctx.mergeRequest),
    present,
  }),
];
