import { z } from 'zod';
import { issue, issueCreateBody, issueListQuery, issueUpdateBody } from '../../../shared/src/issues.ts';
import { pageRequest } from '../db/pagination.ts';
import { isAdmin } from '../auth/actor.ts';
import { canSeeIssue as issueRule, projectsReadable } from '../policies/readable.ts';
import { namespacesOf, projectsById } from '../services/groups/projects.ts';
import { forbidden } from '../util/errors.ts';
import { defineRoute, type RouteContext } from '../http/route.ts';
import { recordId } from '../http/params.ts';
import { canProject, PROJECT_READS } from '../policies/index.ts';
import * as issues from '../services/planning/issues.ts';
import { presentIssue } from '../presenters/issues.ts';
import { notFound } from '../util/errors.ts';
import type { IssueRow } from '../db/schema.ts';

const area = 'issues';
const base = '/projects/:id/issues';

type Ctx = RouteContext<unknown, unknown, { issue_iid: number }, 'project'>;
const subject = (ctx: Pick<Ctx, 'project' | 'group' | 'level'>) => ({ project: ctx.project, group: ctx.group, level: ctx.level });

/** Who acts, where: what services need for hooks and activity. */
export const actingOf = (ctx: Pick<Ctx, 'project' | 'group' | 'baseUrl' | 'actor'>): issues.Acting => ({ project: ctx.project, group: ctx.group, baseUrl: ctx.baseUrl, user: ctx.actor.user! });

/** The issue rule (policies/readable.ts) in a route's context. */
export const canSeeIssue = (ctx: Pick<Ctx, 'db' | 'actor' | 'project' | 'group' | 'level'>, i: IssueRow) => issueRule(ctx.db, ctx.actor, subject(ctx), i);

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
const triages = (ctx: Pick<Ctx, 'actor' | 'project' | 'group' | 'level'>) => canProject(ctx.actor, 'admin_issue', subject(ctx));

export const issueRoutes = [
  defineRoute({
    method: 'get',
    path: base,
    area,
    summary: 'List the project’s issues (state, labels, milestone, assignee_id/username, author_id/username, search, iids[], created/updated after/before, confidential, weight, due_date; order_by, sort)',
    auth: 'optional',
    load: 'project',
    permission: 'read_project',
    query: issueListQuery,
    response: z.array(issue),
    handler: async (ctx) => {
      const viewer = { actor: ctx.actor, readsConfidential: canProject(ctx.actor, 'read_confidential', subject(ctx)) };
      return (await issues.listIssues(ctx.db, { projectId: ctx.project.id }, viewer, ctx.query, pageRequest(ctx.query))).mapAsync((rows) => issues.issueViews(ctx.db, rows));
    },
    present,
  }),
  defineRoute({
    method: 'get',
    path: '/groups/:id/issues',
    area,
    summary: 'List the issues of every project in the group and its subgroups that the caller may see (the project list’s filters)',
    auth: 'optional',
    load: 'group',
    permission: 'read_group',
    query: issueListQuery,
    response: z.array(issue),
    handler: async (ctx) => {
      // The projects the caller reads, and confidential issues project by project (the issue rule).
      const viewer = { actor: ctx.actor, readsConfidential: isAdmin(ctx.actor) || ctx.level >= PROJECT_READS.read_confidential.role || ('by project' as const) };
      const where = { traversal: ctx.group.traversal, projects: projectsReadable(ctx.actor, 'read_project', ctx.level) };
      const page = await issues.listIssues(ctx.db, where, viewer, ctx.query, pageRequest(ctx.query));
      // Each issue is shown with its own project's links.
      const projects = await projectsById(ctx.db, page.items.map((i) => i.project_id));
      const namespaces = await namespacesOf(ctx.db, [...projects.values()], [ctx.group]);
      return page.mapAsync(async (rows) => (await issues.issueViews(ctx.db, rows)).map((v) => {
        const project = projects.get(v.issue.project_id)!;
        return { view: v, project, group: namespaces.get(project.namespace_id)! };
      }));
    },
    present: (r, ctx) => presentIssue(r.view, { baseUrl: ctx.baseUrl, project: r.project, group: r.group }),
  }),
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
  defineRoute({
    method: 'put',
    path: `${base}/:issue_iid`,
    area,
    summary: 'Edit an issue: its author or a Reporter and up; triage fields (labels, add_labels, remove_labels, assignee_ids, milestone_id, weight, due_date) for Reporters and up; state_event close|reopen',
    load: 'project',
    permission: 'create_issue',
    ...issueLoader,
    body: issueUpdateBody,
    response: issue,
    handler: async (ctx) => {
      const triage = triages(ctx);
      if (!triage && ctx.issue.author_id !== ctx.actor.user!.id) throw forbidden();
      return issues.issueView(ctx.db, await issues.updateIssue(ctx.db, actingOf(ctx), ctx.issue, ctx.body, triage));
    },
    present,
  }),
  defineRoute({
    method: 'delete',
    path: `${base}/:issue_iid`,
    area,
    summary: 'Delete an issue (Owner or administrator)',
    load: 'project',
    permission: 'destroy_issue',
    ...issueLoader,
    handler: async (ctx) => issues.deleteIssue(ctx.db, ctx.issue),
  }),
];
