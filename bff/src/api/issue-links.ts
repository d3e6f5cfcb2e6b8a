import { z } from 'zod';
import { issueLink, issueLinkCreateBody, issueLinkDeleteQuery, linkedIssue } from '../../../shared/src/issue-links.ts';
import { defineRoute, type RouteContext } from '../http/route.ts';
import { recordId } from '../http/params.ts';
import * as links from '../services/planning/issue-links.ts';
import { presentIssueLink, presentLinkedIssue } from '../presenters/issue-links.ts';
import { canSeeIssue, issueLoader } from './issues.ts';

const area = 'issue-links';
const base = '/projects/:id/issues/:issue_iid/links';
type Ctx = RouteContext<unknown, unknown, { issue_iid: number }, 'project'>;
/** The confidential-issue rule of the issues area, for an issue of any project the caller reads. */
const visibility = (ctx: Ctx): links.IssueVisibility => (where, issue) => canSeeIssue({ db: ctx.db, actor: ctx.actor, ...where }, issue);
const withLink = {
  params: { ...issueLoader.params, issue_link_id: recordId() },
  with: {
    ...issueLoader.with,
    found: (ctx: Ctx & { issue: Parameters<typeof links.findLink>[3] } & { params: { issue_link_id: number } }) => links.findLink(ctx.db, ctx.actor, visibility(ctx), ctx.issue, ctx.params.issue_link_id),
  },
};

export const issueLinkRoutes = [
  defineRoute({
    method: 'get',
    path: base,
    area,
    summary: 'List the issues linked to an issue that the caller may see, by link creation time',
    auth: 'optional',
    load: 'project',
    permission: 'read_project',
    ...issueLoader,
    response: z.array(linkedIssue),
    handler: async (ctx) => links.listLinks(ctx.db, ctx.actor, visibility(ctx), ctx.issue),
    present: presentLinkedIssue,
  }),
  defineRoute({
    method: 'get',
    path: `${base}/:issue_link_id`,
    area,
    summary: 'Get a link of an issue: both issues and the type as stored',
    auth: 'optional',
    load: 'project',
    permission: 'read_project',
    ...withLink,
    response: issueLink,
    handler: async (ctx) => ctx.found,
    present: presentIssueLink,
  }),
  defineRoute({
    method: 'post',
    path: base,
    area,
    summary: 'Link two issues (relates_to, blocks, is_blocked_by); the caller must be allowed to update both',
    load: 'project',
    permission: 'admin_issue',
    ...issueLoader,
    body: issueLinkCreateBody,
    response: issueLink,
    errors: [409],
    handler: async (ctx) => links.createLink(ctx.db, ctx.actor, visibility(ctx), ctx.issue, ctx.body),
    present: presentIssueLink,
  }),
  defineRoute({
    method: 'delete',
    path: `${base}/:issue_link_id`,
    area,
    summary: 'Remove a two-way link; answers the link as it was',
    load: 'project',
    permission: 'admin_issue',
    ...withLink,
    query: issueLinkDeleteQuery,
    status: 200,
    response: issueLink,
    handler: async (ctx) => {
      await links.deleteLink(ctx.db, ctx.found.link);
      return ctx.found;
    },
    present: presentIssueLink,
  }),
];
