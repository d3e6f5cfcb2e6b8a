import { issue, issueCreateBody } from '../../../shared/src/issues.ts';
import { defineRoute, type RouteContext } from '../http/route.ts';
import { recordId } from '../http/params.ts';
import { canProject } from '../policies/index.ts';
import * as issues from '../services/issues.ts';
import { presentIssue } from '../presenters/issues.ts';
import { notFound } from '../services/errors.ts';
import type { IssueRow } from '../db/schema.ts';

const area = 'issues';
const base = '/projects/:id/issues';

type Ctx = RouteContext<unknown, unknown, { issue_iid: number }, 'project'>;
const subject = (ctx: Pick<Ctx, 'project' | 'group' | 'level'>) => ({ project: ctx.project, group: ctx.group, level: ctx.level });

/** Who acts, where: what services need for hooks and activity. */
export const actingOf = (ctx: Pick<Ctx, 'project' | 'group' | 'baseUrl' | 'actor'>): issues.Acting => ({ project: ctx.project, group: ctx.group, baseUrl: ctx.baseUrl, user: ctx.actor.user! });

/** A confidential issue is seen by its author, its assignees, Reporters and up, and administrators. */
export async function canSeeIssue(ctx: Pick<Ctx, 'db' | 'actor' | 'project' | 'group' | 'level'>, i: IssueRow): Promise<boolean> {
  if (!i.confidential || canProject(ctx.actor, 'admin_issue', subject(ctx))) return true;
  const me = ctx.actor.user?.id;
  if (me === undefined) return false;
  if (i.author_id === me) return true;
  return (await ctx.db.selectFrom('issue_assignees').select('user_id').where('issue_id', '=', i.id).where('user_id', '=', me).executeTakeFirst()) !== undefined;
}

/**
 * The issue named by :issue_iid in the loaded project, visible to the caller (a confidential
 * one it may not see answers the same 404). Other areas spread this into their routes
 * (`...issueLoader`) to get `ctx.issue`.
 */
export const issueLoader = {
  params: { issue_iid: recordId('Issue') },
  with: {
    issue: async (ctx: Ctx) => {
      const found = await issues.findIssueByIid(ctx.db, ctx.project.id, ctx.params.issue_iid);
      if (!(await canSeeIssue(ctx, found))) throw notFound('Issue');
      return found;
    },
  },
};

const present = (v: issues.IssueView, ctx: Pick<Ctx, 'baseUrl' | 'project' | 'group'>) => presentIssue(v, ctx);

export const issueRoutes = [
  defineRoute({
    method: 'post',
    path: base,
    area,
    summary: 'Open an issue (title; description, labels by name, assignee_ids, milestone_id, weight, due_date, confidential)',
    load: 'project',
    permission: 'create_issue',
    body: issueCreateBody,
    status: 201,
    response: issue,
    handler: async (ctx) => {
      // Only those who triage may set labels, assignees, milestone and weight, as on the platform.
      const body = canProject(ctx.actor, 'admin_issue', subject(ctx))
        ? ctx.body
        : { title: ctx.body.title, description: ctx.body.description, confidential: ctx.body.confidential, issue_type: ctx.body.issue_type };
      return issues.issueView(ctx.db, await issues.createIssue(ctx.db, actingOf(ctx), body));
    },
    present,
  }),
  defineRoute({
    method: 'get',
    path: `${base}/:issue_iid`,
    area,
    summary: 'Get an issue',
    auth: 'optional',
    load: 'project',
    permission: 'read_project',
    ...issueLoader,
    response: issue,
    handler: async (ctx) => issues.issueView(ctx.db, ctx.issue),
    present,
  }),
];
