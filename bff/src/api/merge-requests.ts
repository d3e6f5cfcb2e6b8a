import { z } from 'zod';
import { mergeRequest, mergeRequestBasic, mergeRequestChanges, mergeRequestCreateBody, mergeRequestDiff, mergeRequestListQuery, mergeRequestUpdateBody } from '../../../shared/src/merge-requests.ts';
import { commit } from '../../../shared/src/branches.ts';
import { paginationQuery } from '../../../shared/src/params.ts';
import { pageOfList, pageRequest } from '../db/pagination.ts';
import { projectsReadable } from '../policies/readable.ts';
import { namespacesOf, projectsById } from '../services/groups/projects.ts';
import { presentMergeRequestBasic } from '../presenters/merge-requests.ts';
import { presentCommit } from '../presenters/branches.ts';
import { presentDiff } from '../presenters/compare.ts';
import { defineRoute, type RouteContext } from '../http/route.ts';
import { recordId } from '../http/params.ts';
import { canProject } from '../policies/index.ts';
import { ensureRepository } from '../services/git/repositories.ts';
import * as mrs from '../services/planning/merge-requests.ts';
import { presentMergeRequest } from '../presenters/merge-requests.ts';
import { actingOf } from './issues.ts';

const area = 'merge-requests';
const base = '/projects/:id/merge_requests';

type Ctx = RouteContext<unknown, unknown, { merge_request_iid: number }, 'project'>;

/** The project's repository, where the merge requests' branches are. */
export const withRepo = {
  repo: async (ctx: Pick<Ctx, 'db' | 'config' | 'project'>): Promise<mrs.Repo> => ({ dir: await ensureRepository(ctx.db, ctx.config.repositoriesDir, ctx.project) }),
};

/** The merge request named by :merge_request_iid in the loaded project (`...mergeRequestLoader` gives `ctx.mergeRequest`). */
export const mergeRequestLoader = {
  params: { merge_request_iid: recordId('Merge Request') },
  with: { mergeRequest: (ctx: Ctx) => mrs.findMergeRequestByIid(ctx.db, ctx.project.id, ctx.params.merge_request_iid) },
};

const canMerge = (ctx: Pick<Ctx, 'actor' | 'project' | 'group' | 'level'>) => canProject(ctx.actor, 'push_code', { project: ctx.project, group: ctx.group, level: ctx.level });
const present = (v: mrs.MergeRequestView & { changesCount?: number | string }, ctx: Pick<Ctx, 'actor' | 'project' | 'group' | 'level' | 'baseUrl'>) => presentMergeRequest({ ...v, canMerge: canMerge(ctx) }, ctx);

const projectUrl = (ctx: Pick<Ctx, 'baseUrl' | 'project'>) => `${ctx.baseUrl}/${ctx.project.path_with_namespace}`;

export const mergeRequestRoutes = [
  defineRoute({
    method: 'get',
    path: base,
    area,
    summary: 'List the project’s merge requests (state, labels, milestone, author, assignee, reviewer, source/target branch, draft, search, iids[], dates; order_by, sort)',
    auth: 'optional',
    load: 'project',
    permission: 'read_merge_request',
    query: mergeRequestListQuery,
    response: z.array(mergeRequestBasic),
    handler: async (ctx) => (await mrs.listMergeRequests(ctx.db, { projectId: ctx.project.id }, ctx.actor.user?.id ?? null, ctx.query, pageRequest(ctx.query))).mapAsync((rows) => mrs.mergeRequestViews(ctx.db, rows)),
    present: (v, ctx) => presentMergeRequestBasic(v, ctx),
  }),
  defineRoute({
    method: 'get',
    path: '/groups/:id/merge_requests',
    area,
    summary: 'List the merge requests of every project in the group and its subgroups that the caller may see',
    auth: 'optional',
    load: 'group',
    permission: 'read_group',
    query: mergeRequestListQuery,
    response: z.array(mergeRequestBasic),
    handler: async (ctx) => {
      // Only the projects whose merge requests the caller may read on their own route.
      const where = { traversal: ctx.group.traversal, projects: projectsReadable(ctx.actor, 'read_merge_request', ctx.level) };
      const page = await mrs.listMergeRequests(ctx.db, where, ctx.actor.user?.id ?? null, ctx.query, pageRequest(ctx.query));
      const projects = await projectsById(ctx.db, page.items.map((m) => m.project_id));
      const namespaces = await namespacesOf(ctx.db, [...projects.values()], [ctx.group]);
      return page.mapAsync(async (rows) => (await mrs.mergeRequestViews(ctx.db, rows)).map((v) => {
        const project = projects.get(v.mr.project_id)!;
        return { view: v, project, group: namespaces.get(project.namespace_id)! };
      }));
    },
    present: (r, ctx) => presentMergeRequestBasic(r.view, { baseUrl: ctx.baseUrl, project: r.project, group: r.group }),
  }),
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
    with: { ...mergeRequestLoader.with, ...withRepo },
    handler: async (ctx) => mrs.mergeRequestView(ctx.db, await mrs.refreshHead(ctx.db, ctx.repo, ctx.mergeRequest)),
    present,
  }),
  defineRoute({
    method: 'put',
    path: `${base}/:merge_request_iid`,
    area,
    summary: 'Edit a merge request (title, description, target_branch, state_event close|reopen, labels, add_labels, remove_labels, assignee_ids, reviewer_ids, milestone_id) (Developer)',
    load: 'project',
    permission: 'update_merge_request',
    ...mergeRequestLoader,
    with: { ...mergeRequestLoader.with, ...withRepo },
    body: mergeRequestUpdateBody,
    response: mergeRequest,
    errors: [409, 422],
    handler: async (ctx) => mrs.mergeRequestView(ctx.db, await mrs.updateMergeRequest(ctx.db, ctx.repo, actingOf(ctx), ctx.mergeRequest, ctx.body)),
    present,
  }),
  defineRoute({
    method: 'delete',
    path: `${base}/:merge_request_iid`,
    area,
    summary: 'Delete a merge request (Owner or administrator)',
    load: 'project',
    permission: 'destroy_issue',
    ...mergeRequestLoader,
    handler: async (ctx) => mrs.deleteMergeRequest(ctx.db, ctx.mergeRequest),
  }),
  defineRoute({
    method: 'get',
    path: `${base}/:merge_request_iid/commits`,
    area,
    summary: 'The commits of a merge request, newest first',
    auth: 'optional',
    load: 'project',
    permission: 'read_merge_request',
    ...mergeRequestLoader,
    with: { ...mergeRequestLoader.with, ...withRepo },
    query: paginationQuery,
    response: z.array(commit),
    handler: async (ctx) => pageOfList((await mrs.commitsOf(ctx.repo, await mrs.refreshHead(ctx.db, ctx.repo, ctx.mergeRequest))).reverse(), pageRequest(ctx.query)),
    present: (c, ctx) => presentCommit(c, projectUrl(ctx)),
  }),
  defineRoute({
    method: 'get',
    path: `${base}/:merge_request_iid/changes`,
    area,
    summary: 'A merge request with its changes (diffs from the merge base)',
    auth: 'optional',
    load: 'project',
    permission: 'read_merge_request',
    ...mergeRequestLoader,
    with: { ...mergeRequestLoader.with, ...withRepo },
    response: mergeRequestChanges,
    handler: async (ctx) => {
      const mr = await mrs.refreshHead(ctx.db, ctx.repo, ctx.mergeRequest);
      const changes = await mrs.changesOf(ctx.repo, mr);
      return { view: await mrs.mergeRequestView(ctx.db, mr), diffs: changes.diffs, overflow: changes.overflow };
    },
    // Past the diff limits the platform counts "N+" changes and says overflow.
    present: (r, ctx) => ({ ...present({ ...r.view, changesCount: r.overflow ? `${r.diffs.length}+` : r.diffs.length }, ctx), changes: r.diffs.map(presentDiff), overflow: r.overflow }),
  }),
  defineRoute({
    method: 'get',
    path: `${base}/:merge_request_iid/diffs`,
    area,
    summary: 'The diffs of a merge request, a page of files at a time',
    auth: 'optional',
    load: 'project',
    permission: 'read_merge_request',
    ...mergeRequestLoader,
    with: { ...mergeRequestLoader.with, ...withRepo },
    query: paginationQuery,
    response: z.array(mergeRequestDiff),
    handler: async (ctx) => pageOfList((await mrs.changesOf(ctx.repo, await mrs.refreshHead(ctx.db, ctx.repo, ctx.mergeRequest))).diffs, pageRequest(ctx.query)),
    present: (d) => presentDiff(d),
  }),
];
