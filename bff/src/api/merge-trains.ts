import { z } from 'zod';
import { mergeSettings, mergeSettingsBody, mergeTrain, mergeTrainAddBody, mergeTrainListQuery } from '../../../shared/src/merge-trains.ts';
import { Answer, defineRoute, type RouteContext } from '../http/route.ts';
import { pageRequest } from '../db/pagination.ts';
import { ensureRepository } from '../services/git/repositories.ts';
import * as trains from '../services/merging/merge-trains.ts';
import { mergeRequestLoader } from './merge-requests.ts';
import { callerRole } from './branches.ts';
import { presentMergeTrain } from '../presenters/merge-trains.ts';

const area = 'merge-trains';
const base = '/projects/:id/merge_trains';

type Ctx = RouteContext<unknown, unknown, { merge_request_iid: number }, 'project'>;
const urls = (ctx: { baseUrl: string; project: { path_with_namespace: string } }) => ({ baseUrl: ctx.baseUrl, projectUrl: `${ctx.baseUrl}/${ctx.project.path_with_namespace}` });
const present = (v: trains.CarView, ctx: Parameters<typeof urls>[0]) => presentMergeTrain(v, urls(ctx));

/** The merge request named by :merge_request_iid, then trains on for the project (else 403). */
const withMergeRequest = {
  params: mergeRequestLoader.params,
  with: {
    ...mergeRequestLoader.with,
    enabled: async (ctx: Ctx) => trains.requireTrains(ctx.project),
    dir: (ctx: Ctx) => ensureRepository(ctx.db, ctx.config.repositoriesDir, ctx.project),
  },
};
const requireEnabled = { with: { enabled: async (ctx: { project: Ctx['project'] }) => trains.requireTrains(ctx.project) } };

export const mergeTrainRoutes = [
  defineRoute({
    method: 'get',
    path: base,
    area,
    summary: 'The project’s merge trains: every car (scope active or complete; sort asc or desc by id, default desc) (Developer)',
    load: 'project',
    permission: 'push_code',
    ...requireEnabled,
    query: mergeTrainListQuery,
    response: z.array(mergeTrain),
    handler: async (ctx) => trains.listCars(ctx.db, ctx.project, ctx.query, pageRequest(ctx.query)),
    present,
  }),
  defineRoute({
    method: 'get',
    path: `${base}/merge_requests/:merge_request_iid`,
    area,
    summary: 'The merge train car of a merge request (its latest, if it left the train) (Developer)',
    load: 'project',
    permission: 'push_code',
    ...withMergeRequest,
    response: mergeTrain,
    handler: async (ctx) => trains.carOf(ctx.db, ctx.mergeRequest),
    present,
  }),
  defineRoute({
    method: 'post',
    path: `${base}/merge_requests/:merge_request_iid`,
    area,
    summary:
      'Add a merge request to the merge train of its target branch: 201 added now, 202 scheduled (auto_merge: joins when its pipeline passes); 400 sha not the source head; 409 cannot be merged as it stands (Developer)',
    load: 'project',
    permission: 'push_code',
    ...withMergeRequest,
    body: mergeTrainAddBody,
    response: mergeTrain,
    errors: [409],
    handler: async (ctx) => {
      const { view, scheduled } = await trains.addToTrain({ db: ctx.db, dir: ctx.dir, project: ctx.project, user: ctx.actor.user!, role: callerRole(ctx) }, ctx.mergeRequest, ctx.body);
      // Scheduled rather than added: the platform's 202, same body.
      return new Answer(view, scheduled ? 202 : 201);
    },
    present,
  }),
  defineRoute({
    method: 'delete',
    path: `${base}/merge_requests/:merge_request_iid`,
    area,
    summary: 'Take a merge request off its merge train (the platform’s cancel of auto-merge); the cars behind it are rebuilt without it; 409 when it is not on one (Developer)',
    load: 'project',
    permission: 'push_code',
    ...withMergeRequest,
    errors: [409],
    handler: async (ctx) => trains.removeFromTrain({ db: ctx.db, dir: ctx.dir, project: ctx.project, group: ctx.group, baseUrl: ctx.baseUrl }, ctx.mergeRequest, ctx.actor.user!),
  }),
  // Declared after the merge request paths: a branch is one path segment (slashes URL-encoded).
  defineRoute({
    method: 'get',
    path: `${base}/:target_branch`,
    area,
    summary: 'The merge train of one target branch (scope, sort) (Developer)',
    load: 'project',
    permission: 'push_code',
    params: { target_branch: z.string().min(1).max(255) },
    ...requireEnabled,
    query: mergeTrainListQuery,
    response: z.array(mergeTrain),
    handler: async (ctx) => trains.listCars(ctx.db, ctx.project, { ...ctx.query, target_branch: ctx.params.target_branch }, pageRequest(ctx.query)),
    present,
  }),
];

/** The project's merge settings (the platform keeps them on the project; the console reads and sets them here). */
export const mergeSettingsRoutes = [
  defineRoute({
    mount: 'console',
    method: 'get',
    path: '/projects/:id/merge_settings',
    area,
    summary: 'The project’s merge method and merge train settings',
    load: 'project',
    permission: 'read_project',
    response: mergeSettings,
    handler: async (ctx) => trains.settingsOf(ctx.project),
  }),
  defineRoute({
    mount: 'console',
    method: 'put',
    path: '/projects/:id/merge_settings',
    area,
    summary: 'Set the project’s merge method and merge train settings (Maintainer)',
    load: 'project',
    permission: 'admin_project',
    body: mergeSettingsBody,
    response: mergeSettings,
    handler: async (ctx) => trains.updateSettings(ctx.db, ctx.project, ctx.group, ctx.body),
  }),
];
